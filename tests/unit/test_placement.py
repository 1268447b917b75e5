"""tf1mem.placement: placement read back from partition graphs (in-process, fast).

The tests here: no TensorFlow in the test process; the rest: tests/tf/test_placement.py.
"""

import csv
import json
import os
import stat

import pytest

from tf1mem.observe import placement
from tf1mem.errors import UsageError

ROWS = [
    placement.PlacementRow("b", "MatMul", "/job:local/replica:0/task:1/device:CPU:0"),
    placement.PlacementRow("a", "Const", "/job:local/replica:0/task:1/device:CPU:0"),
    placement.PlacementRow("zz", "VarHandleOp", "/job:local/replica:0/task:0/device:CPU:0"),
]


def test_format_table_sorts_by_device_then_node():
    lines = placement.format_table(ROWS).splitlines()
    assert lines[0].split() == ["device", "node", "op"]
    assert set(lines[1]) == {"-"}
    assert [l.split()[1] for l in lines[2:]] == ["zz", "a", "b"]
    assert placement.format_table([]).splitlines()[0].split() == ["device", "node", "op"]


@pytest.mark.parametrize("ext", [".csv", ".json", ".CSV"])
def test_write_report_by_extension(tmp_path, ext):
    path = tmp_path / f"report{ext}"
    placement.write_report(path, {"step 1": ROWS})
    text = path.read_text()
    if ext.lower() == ".csv":
        got = list(csv.DictReader(text.splitlines()))
        assert [r["node"] for r in got] == ["b", "a", "zz"]
        assert set(got[0]) == {"run", "node", "op", "device"}
    else:
        got = json.loads(text)
        assert got["step 1"][0] == {"node": "b", "op": "MatMul",
                                    "device": ROWS[0].device}
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temp file left


def test_write_report_rejects_other_extensions(tmp_path):
    path = tmp_path / "report.txt"
    with pytest.raises(UsageError, match="report.txt"):
        placement.write_report(path, {"step 1": ROWS})
    assert not path.exists()


def test_write_report_gets_the_usual_permissions(tmp_path):
    # tempfile.mkstemp would leave 0600, which os.replace keeps.
    umask = os.umask(0o022)
    os.umask(umask)
    path = tmp_path / "report.csv"
    placement.write_report(path, {"step 1": ROWS})
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
