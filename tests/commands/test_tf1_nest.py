"""TF 1.15's ``nest`` under tf1mem: ``tensorflow.python.util.nest``, ``tf.contrib.framework.nest``
and ``tf.nest`` give TF 1.15.5's results and errors on the edge cases of
``tests/nest_tf115/battery.py`` (recorded by the oracle in ``expected.json``), and the real
``tensorflow.python.util.nest`` that libraries see is never changed.

The tests here: the commands in subprocesses; the rest: tests/tf/test_tf1_nest.py,
tests/unit/test_tf1_nest.py.
"""

import json
import textwrap

import pytest

from tests import _subproc

FIXTURE = _subproc.REPO / "tests" / "nest_tf115"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
# tf.nest of TF 1.15 had these five functions; the battery's cases that use only them.
TF_NEST = ("assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as")


def _differences(got, want):
    return [f"{case}:\n  TF 1.15.5: {json.dumps(want[case])}\n  tf1mem:    "
            f"{json.dumps(got.get(case))}" for case in want if got.get(case) != want[case]]


USER_SCRIPT = textwrap.dedent(r'''
    import importlib.util, json, sys
    import tensorflow as tf
    from tensorflow.python.util import nest as from_import
    import tensorflow.python.util.nest as import_as
    from tensorflow.python.util.nest import is_sequence, map_structure_up_to
    from tensorflow.contrib.framework import nest as contrib_nest

    spec = importlib.util.spec_from_file_location("battery", sys.argv[1])
    battery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(battery)
    ways = {"from tensorflow.python.util import nest": from_import,
            "import tensorflow.python.util.nest": import_as,
            "tf.contrib.framework.nest": tf.contrib.framework.nest,
            "from tensorflow.contrib.framework import nest": contrib_nest}
    out = {"same": [m is from_import for m in ways.values()],
           "names": [is_sequence is from_import.is_sequence,
                     map_structure_up_to is from_import.map_structure_up_to],
           "tf.nest": sorted(n for n in dir(tf.nest) if not n.startswith("_")),
           "results": {way: battery.run(m, tf) for way, m in ways.items()}}
    out["results"]["tf.nest"] = battery.run(tf.nest, tf)
    print(json.dumps(out))
''')


@pytest.mark.slow
def test_user_code_gets_tf115_nest_by_every_spelling(tmp_path):
    script = tmp_path / "uses_nest.py"
    script.write_text(USER_SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script, FIXTURE / "battery.py"], cwd=tmp_path,
                        check_rc=0, timeout=300)
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["same"] == [True, True, True, True]
    assert got["names"] == [True, True]
    assert got["tf.nest"] == list(TF_NEST)
    want = EXPECTED["results"]
    for way, results in got["results"].items():
        if way == "tf.nest":  # only the cases of its five functions
            results = {case: value for case, value in results.items()
                       if case.split("/")[0] in ("flatten", "map", "assert_same", "pack",
                                                 "is_nested", "map_plus", "pack_identity")}
            problems = _differences(results, {c: want[c] for c in results})
        else:
            problems = _differences(results, want)
        assert not problems, f"{way}:\n" + "\n".join(problems)


LIBRARY_ISOLATION = textwrap.dedent(r'''
    import json, sys
    import tensorflow as real_tf
    from tensorflow.python.util import nest as real_nest
    before = sorted(vars(real_nest))
    import tf1mem
    with tf1mem.legacy():
        import user_code, library_code
        during = {"user": user_code.nest.__name__, "user_is_sequence": user_code.nest.is_sequence([1]),
                  "library_is_real": library_code.nest is real_nest,
                  "sys_modules_is_real": sys.modules["tensorflow.python.util.nest"] is real_nest,
                  "real_has_is_sequence": hasattr(real_nest, "is_sequence")}
    after = sorted(vars(real_nest))
    print(json.dumps({"during": during, "unchanged": before == after,
                      "real_has_is_sequence": hasattr(real_nest, "is_sequence")}))
''')


@pytest.mark.slow
def test_libraries_keep_the_real_nest_and_uninstall_leaves_it_unchanged(tmp_path):
    lib = tmp_path / "site-packages"  # a library folder: its code is not user code
    lib.mkdir()
    (lib / "library_code.py").write_text("from tensorflow.python.util import nest\n")
    app = tmp_path / "app"
    app.mkdir()
    (app / "user_code.py").write_text("from tensorflow.python.util import nest\n")
    (app / "main.py").write_text(LIBRARY_ISOLATION)
    proc = _subproc.run([app / "main.py"], cwd=app, check_rc=0, timeout=300,
                        env={"PYTHONPATH": f"{_subproc.REPO}:{lib}:{app}"})
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["during"] == {"user": "tf1mem.compat.tf.python.util.nest",
                             "user_is_sequence": True, "library_is_real": True,
                             "sys_modules_is_real": True, "real_has_is_sequence": False}
    assert got["unchanged"] is True and got["real_has_is_sequence"] is False
