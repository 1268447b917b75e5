"""The scientific stack of TF 1.x's time for user code (tf1mem.compat.legacy.stack_view):
SciPy 1.1's scipy.misc image functions, Pillow 6's Image.ANTIALIAS, scikit-learn 0.19's
sklearn.cross_validation, checked against SciPy 1.1.0 / Pillow 6.2.2 / scikit-learn 0.19.2
(tests/legacy_stack/oracle_stack.json).

The tests here: TensorFlow in the test process; the rest: tests/unit/test_legacy_stack.py,
tests/commands/test_legacy_stack.py.
"""

import pytest


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
# The scanner installs the shim in this process, which warns when an earlier test (or the
# collection of tests/tf/test_config.py) imported Keras 3 with TensorFlow; nothing scanned
# here builds a Keras layer.
@pytest.mark.filterwarnings("ignore:Keras 3 was imported before tf1mem's shim:RuntimeWarning")
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
