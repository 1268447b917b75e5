"""The scipy.misc image cases, run alike on SciPy 1.1.0 (the recorder) and on tf1mem's
legacy view (tests/unit/test_legacy_stack.py). Python 3.7 compatible; imports no tf1mem."""

import hashlib
import os

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = ("rgb", "p", "pt", "1", "l")  # in_<name>.png, written by record_oracle.py


def _arrays():
    rs = np.random.RandomState(0)
    return [("grey_f", rs.rand(6, 9) * 3 - 1),
            ("rgb_f", rs.rand(6, 9, 3).astype(np.float32)),
            ("rgb_u8", (rs.rand(7, 5, 3) * 255).astype(np.uint8)),
            ("rgba_u8", (rs.rand(7, 5, 4) * 255).astype(np.uint8)),
            ("grey_i", rs.randint(0, 1000, size=(5, 4))),
            ("grey_u16", rs.randint(0, 60000, size=(5, 4)).astype(np.uint16)),
            ("chw", rs.rand(3, 6, 5))]


def write_inputs():
    """The imread inputs, from the first RGB array (run once, by the recorder)."""
    rgb = dict(_arrays())["rgb_u8"]
    image = Image.fromarray(rgb)
    image.save(os.path.join(HERE, "in_rgb.png"))
    image.convert("P").save(os.path.join(HERE, "in_p.png"))
    image.convert("P").save(os.path.join(HERE, "in_pt.png"), transparency=0)
    image.convert("1").save(os.path.join(HERE, "in_1.png"))
    image.convert("L").save(os.path.join(HERE, "in_l.png"))


def _reopen(path):
    with Image.open(path) as im:
        im.load()
        return im.copy()


def run(m, out_dir):
    """Every case's result with the module ``m`` (scipy.misc or tf1mem's), as JSON data."""
    res = {}

    def rec(name, f):
        try:
            a = f()
        except Exception as e:  # noqa: BLE001 - the error is the recorded result
            res[name] = ["error", type(e).__name__]
            return
        if isinstance(a, Image.Image):
            res[name] = ["image", a.mode, list(a.size), hashlib.md5(a.tobytes()).hexdigest()]
        else:
            a = np.asarray(a)
            res[name] = ["array", list(a.shape), str(a.dtype),
                         np.round(a.astype(np.float64), 4).ravel().tolist()]

    arrays = _arrays()
    for nm, arr in arrays:
        rec("bytescale/" + nm, lambda: m.bytescale(arr))
        rec("toimage/" + nm, lambda: m.toimage(arr))
        for interp in ("nearest", "lanczos", "bilinear", "bicubic", "cubic"):
            rec("imresize/%s/%s/tuple" % (nm, interp),
                lambda: m.imresize(arr, (4, 11), interp=interp))
        rec("imresize/%s/nearest/int" % nm, lambda: m.imresize(arr, 150, interp="nearest"))
        rec("imresize/%s/nearest/float" % nm, lambda: m.imresize(arr, 0.5, interp="nearest"))
        rec("imresize/%s/bilinear/int" % nm, lambda: m.imresize(arr, 150))
        rec("imrotate/%s/nearest" % nm, lambda: m.imrotate(arr, 30, interp="nearest"))
        rec("imrotate/%s/bilinear" % nm, lambda: m.imrotate(arr, 30))
    grey_f, grey_i = arrays[0][1], arrays[4][1]
    rgb_f, rgb_u8, rgba_u8, chw = arrays[1][1], arrays[2][1], arrays[3][1], arrays[6][1]
    rec("bytescale/cmin_cmax", lambda: m.bytescale(grey_f, cmin=0, cmax=1, high=200, low=10))
    rec("bytescale/constant", lambda: m.bytescale(np.ones((2, 2))))
    rec("bytescale/high_300", lambda: m.bytescale(grey_f, high=300))
    for mode in ("F", "L", "P", "1", "I", "RGB", "X"):
        rec("toimage/grey_f/" + mode, lambda: m.toimage(grey_f, mode=mode))
    rec("toimage/pal", lambda: m.toimage(grey_i, pal=np.arange(768).reshape(256, 3) % 256))
    rec("toimage/rgb_f/YCbCr", lambda: m.toimage(rgb_f, mode="YCbCr"))
    rec("toimage/rgba/CMYK", lambda: m.toimage(rgba_u8, mode="CMYK"))
    rec("toimage/rgb/RGBA", lambda: m.toimage(rgb_u8, mode="RGBA"))
    rec("toimage/1d", lambda: m.toimage(np.zeros(5)))
    rec("toimage/complex", lambda: m.toimage(np.zeros((2, 2), complex)))
    rec("toimage/channel_axis_0", lambda: m.toimage(chw, channel_axis=0))
    rec("imresize/grey_f/mode_F", lambda: m.imresize(grey_f, (3, 4), mode="F"))
    rec("imresize/bad_interp", lambda: m.imresize(grey_f, (3, 4), interp="area"))
    for nm, arr in (("rgb", rgb_u8), ("rgba", rgba_u8), ("grey", grey_f)):
        for ext in ("png", "bmp"):
            path = os.path.join(out_dir, "%s.%s" % (nm, ext))
            rec("imsave/%s/%s" % (nm, ext), lambda: (m.imsave(path, arr), _reopen(path))[1])
    path = os.path.join(out_dir, "no_suffix")
    m.imsave(path, rgb_u8, format="jpeg")
    with Image.open(path) as im:
        res["imsave/format_jpeg"] = ["format", im.format]
    for nm in INPUTS:
        f = os.path.join(HERE, "in_%s.png" % nm)
        rec("imread/" + nm, lambda: m.imread(f))
        rec("imread/%s/flatten" % nm, lambda: m.imread(f, flatten=True))
        rec("imread/%s/L" % nm, lambda: m.imread(f, mode="L"))
        rec("imread/%s/RGB" % nm, lambda: m.imread(f, mode="RGB"))
    rec("fromimage/not_an_image", lambda: m.fromimage(np.zeros(3)))
    return res


def run_cv(cv):
    """The sklearn.cross_validation cases with the module ``cv`` (0.19's or tf1mem's)."""
    from sklearn.linear_model import LinearRegression
    from sklearn.neighbors import KNeighborsClassifier

    X = np.arange(40).reshape(20, 2)
    y = np.array([0, 1] * 7 + [2] * 6)
    res = {}

    def rec(name, f):
        try:
            res[name] = f()
        except Exception as e:  # noqa: BLE001 - the error is the recorded result
            res[name] = ["error", type(e).__name__, str(e)]

    def lists(arrays):
        return [np.asarray(a).tolist() for a in arrays]

    def folds(splits):
        return [[train.tolist(), test.tolist()] for train, test in splits]

    rec("train_test_split", lambda: lists(cv.train_test_split(X, y, test_size=0.25,
                                                              random_state=42)))
    rec("train_test_split/default", lambda: lists(cv.train_test_split(X, random_state=0)))
    rec("train_test_split/int", lambda: lists(cv.train_test_split(X, y, test_size=3,
                                                                  random_state=1)))
    rec("train_test_split/stratify", lambda: lists(cv.train_test_split(
        X, y, test_size=0.3, random_state=3, stratify=y)))
    rec("train_test_split/list", lambda: [type(a).__name__ for a in cv.train_test_split(
        list(range(10)), random_state=0)])
    for shuffle in (False, True):
        rec("KFold/%s" % shuffle, lambda: folds(cv.KFold(10, n_folds=3, shuffle=shuffle,
                                                         random_state=0)))
        rec("KFold/len/%s" % shuffle, lambda: len(cv.KFold(10, n_folds=4, shuffle=shuffle)))
        rec("StratifiedKFold/%s" % shuffle, lambda: folds(cv.StratifiedKFold(
            y, n_folds=3, shuffle=shuffle, random_state=0)))
    rec("KFold/default", lambda: folds(cv.KFold(7)))
    kf = cv.KFold(6, 2, shuffle=True, random_state=1)
    rec("KFold/twice", lambda: [folds(kf), folds(kf)])
    rec("KFold/too_many_folds", lambda: list(cv.KFold(3, n_folds=4)))
    rec("ShuffleSplit", lambda: folds(cv.ShuffleSplit(10, n_iter=3, test_size=0.2,
                                                      random_state=0)))
    knn = KNeighborsClassifier(n_neighbors=1)
    rec("cross_val_score/classifier", lambda: np.round(cv.cross_val_score(knn, X, y),
                                                       6).tolist())
    rec("cross_val_score/regressor", lambda: np.round(cv.cross_val_score(
        LinearRegression(), X, y * 1.5 + X[:, 0]), 6).tolist())
    rec("cross_val_score/KFold", lambda: np.round(cv.cross_val_score(
        knn, X, y, cv=cv.KFold(20, 4, shuffle=True, random_state=0)), 6).tolist())
    rec("cross_val_score/cv_5", lambda: np.round(cv.cross_val_score(knn, X, y, cv=5),
                                                 6).tolist())
    return res
