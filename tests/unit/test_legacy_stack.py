"""The scientific stack of TF 1.x's time for user code (tf1mem.compat.legacy.stack_view):
SciPy 1.1's scipy.misc image functions, Pillow 6's Image.ANTIALIAS, scikit-learn 0.19's
sklearn.cross_validation, checked against SciPy 1.1.0 / Pillow 6.2.2 / scikit-learn 0.19.2
(tests/legacy_stack/oracle_stack.json).

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_legacy_stack.py, tests/tf/test_legacy_stack.py.
"""

import json
import re
import sys
from pathlib import Path

import numpy
import pytest


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


def test_flag_parses():
    from tf1mem import run

    assert run.parse_args([__file__]).stack_compat is True
    assert run.parse_args(["--no-stack-compat", __file__]).stack_compat is False
