"""NumPy 1.x's removed names for user code only (tf1mem.compat.legacy.numpy_view).

The tests here: the commands in subprocesses; the rest: tests/unit/test_legacy_numpy.py.
"""

import pytest

from tests import _subproc


_LIBRARY = """\
import numpy
def probe():
    return hasattr(numpy, "float"), hasattr(numpy, "asscalar"), numpy.bool is bool
"""


_SCRIPT = """\
import sys
import numpy as np
import helper_mod
import probe_lib
print("user:", np.float is float, np.asscalar(np.array([7])), helper_mod.dtype())
print("library:", *probe_lib.probe())
print("real numpy:", hasattr(sys.modules["numpy"], "float"))
"""


@pytest.mark.slow
def test_run_gives_user_code_legacy_numpy_and_libraries_the_real_one(tmp_path):
    site = tmp_path / "site-packages"  # a library folder, as pip installs into
    site.mkdir()
    (site / "probe_lib.py").write_text(_LIBRARY)
    work = tmp_path / "work"
    work.mkdir()
    (work / "helper_mod.py").write_text(
        "import numpy\ndef dtype():\n    return numpy.zeros(2, dtype=numpy.float).dtype.name\n")
    (work / "script.py").write_text(_SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", work / "script.py"], cwd=work,
                        env={"PYTHONPATH": f"{_subproc.REPO}:{site}"}, check_rc=0)
    assert "user: True 7 float64" in proc.stdout, _subproc.describe(proc)
    assert "library: False False False" in proc.stdout, _subproc.describe(proc)
    assert "real numpy: False" in proc.stdout
    # The script and its module both used np.float: one note.
    assert proc.stderr.count("np.float was removed") == 1, proc.stderr
    assert proc.stderr.count("np.asscalar was removed") == 1, proc.stderr


@pytest.mark.slow
def test_no_numpy_compat_gives_numpy_as_installed(tmp_path):
    script = tmp_path / "old.py"
    script.write_text("import numpy as np\nprint(np.float)\n")
    proc = _subproc.run(["-m", "tf1mem.run", "--no-numpy-compat", script], cwd=tmp_path,
                        check_rc=1)
    assert "AttributeError" in proc.stderr and "np.float" in proc.stderr
    assert f'{script}", line 2' in proc.stderr
    assert "tf1mem: np.float" not in proc.stderr
