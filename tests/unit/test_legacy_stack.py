"""The scientific stack of TF 1.x's time for user code (tf1mem.compat.legacy.stack_view):
SciPy 1.1's scipy.misc image functions, Pillow 6's Image.ANTIALIAS, scikit-learn 0.19's
sklearn.cross_validation, checked against SciPy 1.1.0 / Pillow 6.2.2 / scikit-learn 0.19.2
(tests/legacy_stack/oracle_stack.json)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

from tests import _subproc

HERE = Path(__file__).resolve().parents[1] / "legacy_stack"
sys.path.insert(0, str(HERE))
import cases  # noqa: E402  (tests/legacy_stack/cases.py)

ORACLE = json.loads((HERE / "oracle_stack.json").read_text())

# Where today's Pillow itself computes other pixels than Pillow 6.2.2 did: downscaling
# with a filter (Pillow 7 reworked its resampling), any resize of an RGBA image (Pillow 7
# premultiplies alpha) and the RGB -> L conversion (rounding). The same cases give SciPy
# 1.1.0's very pixels when tf1mem's functions run on Pillow 6.2.2 (the oracle test below).
_PILLOW_RESAMPLES = re.compile(
    r"^imresize/(\w+/(lanczos|bilinear|bicubic|cubic)/tuple|rgba_u8/.*)$"
    r"|^imrotate/rgba_u8/|^imread/\w+/L$")


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    from tf1mem.compat.legacy import scipy_misc

    return cases.run(scipy_misc, str(tmp_path_factory.mktemp("misc")))


def test_scipy_misc_gives_scipy_11s_results(ours):
    expected = ORACLE["results"]
    assert (ORACLE["scipy"], ORACLE["pillow"]) == ("1.1.0", "6.2.2")
    assert set(ours) == set(expected)
    exact = [k for k in expected if not _PILLOW_RESAMPLES.match(k)]
    assert len(exact) > 90
    for key in exact:
        assert ours[key] == expected[key], key
    for key in set(expected) - set(exact):
        # Pillow's resampling: the same shape and dtype; values as today's Pillow gives.
        assert ours[key][:3] == expected[key][:3], key


def test_bilinear_and_grey_differ_by_pillow_rounding_only(ours):
    for key, record in ORACLE["results"].items():
        if re.match(r"^imresize/(grey_f|rgb_f)/bilinear/tuple$|^imread/\w+/L$", key):
            diff = numpy.abs(numpy.array(record[3]) - numpy.array(ours[key][3]))
            assert diff.max() <= 1, key


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
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    differ = [k for k in results if results[k] != ORACLE["results"][k]]
    assert differ == [], differ


def test_cross_validation_gives_scikit_learn_019s_splits():
    from tf1mem.compat.legacy import sklearn_cv

    assert ORACLE["sklearn"] == "0.19.2"
    assert cases.run_cv(sklearn_cv) == ORACLE["cross_validation"]


def test_pillow_constants_are_pillow_6s():
    from PIL import Image

    from tf1mem.compat.legacy import stack_view

    views = {}
    image = stack_view.view_of(sys.modules["PIL.Image"], views)
    assert image.ANTIALIAS == image.LANCZOS == 1  # Pillow 6.2.2: ANTIALIAS = LANCZOS = 1
    assert image.LINEAR == Image.BILINEAR == 2 and image.CUBIC == Image.BICUBIC == 3
    assert image.open is Image.open and not hasattr(Image, "ANTIALIAS")
    assert stack_view.view_of(sys.modules["PIL.Image"], views) is image


def test_advice_in_the_notes_works(tmp_path):
    # What the notes say to write, for a uint8 image.
    from PIL import Image
    from scipy import special

    from tf1mem.compat.legacy import scipy_misc

    a = (numpy.arange(48).reshape(6, 8) * 5).astype(numpy.uint8)
    Image.fromarray(a).save(tmp_path / "a.png")
    assert (numpy.asarray(Image.open(tmp_path / "a.png")) == scipy_misc.imread(
        tmp_path / "a.png")).all()
    resized = numpy.array(Image.fromarray(a).resize((4, 3), Image.BILINEAR))
    assert (resized == scipy_misc.imresize(a, (3, 4))).all()
    assert special.logsumexp([0.0, 0.0]) == pytest.approx(numpy.log(2))
    from sklearn.model_selection import KFold

    assert len(list(KFold(3, shuffle=True, random_state=0).split(numpy.zeros(9)))) == 3


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


def test_flag_parses():
    from tf1mem import run

    assert run.parse_args([__file__]).stack_compat is True
    assert run.parse_args(["--no-stack-compat", __file__]).stack_compat is False


_SCANNED = """\
import time
import collections
from PIL import Image
import scipy.misc
from scipy.misc import imread
import sklearn.cross_validation as cv
from sklearn.externals import joblib
size = Image.ANTIALIAS
resized = scipy.misc.imresize(imread("a.png"), (2, 2))
folds = cv.KFold(10, n_folds=3)
loo = cv.LeaveOneOut(10)
start = time.clock()
ok = isinstance({}, collections.Mapping)
now = time.time()
"""


@pytest.mark.slow
def test_scanner_judges_the_legacy_names_as_the_views_serve_them(tmp_path):
    # One table for both: what a view provides "runs"; what it does not "stops".
    from tf1mem.migrate import scanner

    report = scanner.scan_source(_SCANNED, "old.py")
    found = {f.name: f.category for f in report.findings}
    assert found == {
        "PIL.Image.ANTIALIAS": "reimplemented", "scipy.misc.imread": "reimplemented",
        "scipy.misc.imresize": "reimplemented", "sklearn.cross_validation": "reimplemented",
        "sklearn.externals.joblib": "mapped",
        "sklearn.cross_validation.LeaveOneOut": "removed-replacement",
        "time.clock": "reimplemented", "collections.Mapping": "reimplemented"}, found
    assert report.stop.line == 11 and "LeaveOneOut" in report.verdict()
    by_name = {f.name: f for f in report.findings}
    assert by_name["PIL.Image.ANTIALIAS"].tf2.startswith("write Image.LANCZOS")
    assert by_name["sklearn.cross_validation.LeaveOneOut"].tf2 == \
        "sklearn.model_selection.LeaveOneOut().split(X)"
