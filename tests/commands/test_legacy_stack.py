"""The scientific stack of TF 1.x's time for user code (tf1mem.compat.legacy.stack_view):
SciPy 1.1's scipy.misc image functions, Pillow 6's Image.ANTIALIAS, scikit-learn 0.19's
sklearn.cross_validation, checked against SciPy 1.1.0 / Pillow 6.2.2 / scikit-learn 0.19.2
(tests/legacy_stack/oracle_stack.json).

The tests here: the commands in subprocesses; the rest: tests/unit/test_legacy_stack.py,
tests/tf/test_legacy_stack.py.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import _subproc
from tests.unit.test_legacy_stack import HERE, ORACLE


_ORACLE_PYTHON = Path("/work/oracle/bin/python")


_ORACLE_SCI = Path("/work/oracle-sci")  # scipy 1.1.0, pillow 6.2.2, scikit-learn 0.19.2


@pytest.mark.skipif(not (_ORACLE_PYTHON.exists() and (_ORACLE_SCI / "scipy").is_dir()),
                    reason="needs the oracle with SciPy 1.1.0 and Pillow 6.2.2 "
                           "(tests/legacy_stack/record_oracle.py says how)")
def test_on_pillow_6_every_case_is_scipy_11s(tmp_path):
    # tf1mem's functions themselves, run by the oracle's Python 3.7 on Pillow 6.2.2.
    code = (f"import json, sys; sys.path[:0] = [{str(HERE)!r}, {str(_subproc.REPO)!r}]\n"
            "import importlib.util as u, cases\n"
            "spec = u.spec_from_file_location('m', sys.argv[1]); m = u.module_from_spec(spec)\n"
            "spec.loader.exec_module(m)\n"
            "print(json.dumps(cases.run(m, sys.argv[2])))\n")
    module = _subproc.REPO / "tf1mem" / "compat" / "legacy" / "scipy_misc.py"
    proc = subprocess.run([str(_ORACLE_PYTHON), "-c", code, str(module), str(tmp_path)],
                          env={**os.environ, "PYTHONPATH": str(_ORACLE_SCI)},
                          capture_output=True, text=True, timeout=_subproc.bound(300))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    differ = [k for k in results if results[k] != ORACLE["results"][k]]
    assert differ == [], differ


_SCRIPT = """\
import numpy as np
from PIL import Image
import PIL.Image
import scipy.misc
from scipy import misc, ndimage
from scipy.misc import imread, imresize, imsave
from sklearn.cross_validation import train_test_split, KFold
import sklearn.cross_validation as cv
from sklearn.externals import joblib
import probe_lib
print("pil:", Image.ANTIALIAS == Image.LANCZOS, PIL.Image.CUBIC == Image.BICUBIC)
a = (np.arange(24).reshape(4, 6) * 10).astype(np.uint8)
imsave("x.png", a)
print("misc:", imresize(a, (2, 3)).shape, misc.imresize(a, 50).shape,
      (imread("x.png") == a).all(), ndimage.imread("x.png").shape)
print("cv:", [len(t) for t in train_test_split(np.arange(10), random_state=0)],
      len(list(KFold(6, 3))), cv.KFold is KFold, joblib.__name__)
try:
    cv.LeaveOneOut
except AttributeError as exc:
    print("missing:", exc)
print("library:", *probe_lib.probe())
"""


_LIBRARY = """\
def probe():
    import scipy.misc
    from PIL import Image
    import sklearn
    return hasattr(scipy.misc, "imread"), hasattr(Image, "ANTIALIAS"), \\
        hasattr(sklearn, "cross_validation")
"""


@pytest.mark.slow
def test_run_gives_user_code_the_2017_stack_and_libraries_the_real_one(tmp_path):
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "probe_lib.py").write_text(_LIBRARY)
    work = tmp_path / "work"
    work.mkdir()
    (work / "old.py").write_text(_SCRIPT)
    env = {"PYTHONPATH": f"{_subproc.REPO}:{site}"}
    proc = _subproc.run(["-m", "tf1mem.run", "old.py"], cwd=work, env=env, check_rc=0)
    assert proc.stdout.splitlines() == [
        "pil: True True", "misc: (2, 3) (2, 3) True (4, 6)", "cv: [7, 3] 3 True joblib",
        "missing: module 'sklearn.cross_validation' (tf1mem's view of the removed module) "
        "does not provide 'LeaveOneOut': use sklearn.model_selection.LeaveOneOut().split(X)",
        "library: False False False"], _subproc.describe(proc)
    for name in ("PIL.Image.ANTIALIAS", "PIL.Image.CUBIC", "scipy.misc.imread",
                 "scipy.misc.imresize", "scipy.misc.imsave", "scipy.ndimage.imread",
                 "sklearn.cross_validation.train_test_split", "sklearn.cross_validation.KFold",
                 "sklearn.externals.joblib"):
        assert proc.stderr.count(f"tf1mem: {name} was removed in") == 1, (name, proc.stderr)
    assert "Write Image.LANCZOS instead." in proc.stderr

    off = _subproc.run(["-m", "tf1mem.run", "--no-stack-compat", "old.py"], cwd=work, env=env,
                       check_rc=1)
    assert "ImportError: cannot import name 'imread' from 'scipy.misc'" in off.stderr
    assert "tf1mem: scipy.misc" not in off.stderr


_UNINSTALL = """\
import importlib, sys
from tf1mem import compat as shim
sys.path.insert(0, sys.argv[1])
shim.install(import_hook="modules", lazy=True, stack_compat=True)
mod = importlib.import_module("stack_user_mod")
print("installed:", mod.Image.ANTIALIAS, mod.KFold.__module__)
shim.uninstall()
sys.modules.pop("stack_user_mod")
try:
    importlib.import_module("stack_user_mod")
except ImportError as exc:
    print("uninstalled:", type(exc).__name__)
"""


def test_install_gives_it_and_uninstall_takes_it_back(tmp_path):
    (tmp_path / "stack_user_mod.py").write_text(
        "from PIL import Image\nfrom sklearn.cross_validation import KFold\n")
    proc = _subproc.run(["-c", _UNINSTALL, tmp_path], cwd=tmp_path, check_rc=0)
    assert proc.stdout.splitlines() == [
        "installed: 1 tf1mem.compat.legacy.sklearn_cv", "uninstalled: ModuleNotFoundError"], \
        _subproc.describe(proc)
