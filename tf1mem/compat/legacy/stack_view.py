"""The scientific stack of TF 1.x's time (SciPy 1.1, Pillow 6, scikit-learn 0.19), for the
user's own code only.

TF1 code of 2016-2019 stops at import on names its libraries have since removed:
Pillow 10 dropped ``Image.ANTIALIAS`` (and ``LINEAR``, ``CUBIC``), SciPy 1.3 dropped
``scipy.misc.imread`` / ``imresize`` / ``imsave`` / ``toimage`` and moved
``logsumexp`` / ``comb`` / ``factorial`` to ``scipy.special``, scikit-learn 0.20 removed
``sklearn.cross_validation`` and 0.23 ``sklearn.externals.joblib``. This module owns
:data:`ALIASES` (module -> name -> what it was, where it went, what to write instead),
:data:`VIRTUAL` (removed modules that stand for another one) and
:class:`LegacyStackModule`, the view of a real module (or, for a removed module, of an
empty one) that the shim's import hook gives *user code* for these imports (see
:mod:`tf1mem.compat.legacy.table`, option ``stack_compat``). Every other name is read
live from the real module, which is never changed: libraries see their dependencies as
installed. Each legacy name, the first time user code uses it, prints one note to
stderr naming what to write instead. ``scipy.misc``'s image functions are SciPy 1.1's
(:mod:`tf1mem.compat.legacy.scipy_misc`), ``sklearn.cross_validation`` is scikit-learn
0.19's (:mod:`tf1mem.compat.legacy.sklearn_cv`).

Not provided: methods of classes (``ImageDraw.Draw(...).textsize``,
``ImageFont.getsize``, ``DataFrame.as_matrix``, ``DataFrame.ix``): a method of a class
cannot change for some callers only. Nothing here imports SciPy, Pillow or
scikit-learn at import time; a view is made only of a module the program imported.
"""

import importlib
import types

from tf1mem.compat.legacy import module_view, table

__all__ = ["ALIASES", "VIRTUAL", "LegacyStackModule", "reset_notes", "view_of",
           "virtual_module"]


def _attr(module, name):
    def resolve():
        return getattr(importlib.import_module(module), name)

    return resolve


_MISC = "tf1mem.compat.legacy.scipy_misc"
_CV = "tf1mem.compat.legacy.sklearn_cv"
_PIL = "Pillow 10 (deprecated since 9.1)"
_SCIPY_IMAGE = "SciPy 1.3 (deprecated since 1.0)"
_SCIPY_MOVED = "SciPy 1.3 (moved to scipy.special in 1.0)"
_SKLEARN_CV = "scikit-learn 0.20 (deprecated since 0.18)"

# module -> {name: (resolver of the old value, removed in, what to write instead)}
ALIASES = {
    "PIL.Image": {
        "ANTIALIAS": (_attr("PIL.Image", "LANCZOS"), _PIL, "Image.LANCZOS"),
        "LINEAR": (_attr("PIL.Image", "BILINEAR"), _PIL, "Image.BILINEAR"),
        "CUBIC": (_attr("PIL.Image", "BICUBIC"), _PIL, "Image.BICUBIC"),
    },
    "scipy.misc": {
        "imread": (_attr(_MISC, "imread"), _SCIPY_IMAGE,
                   "numpy.asarray(PIL.Image.open(name)) (.convert(mode) first for mode=)"),
        "imresize": (_attr(_MISC, "imresize"), _SCIPY_IMAGE,
                     "numpy.array(PIL.Image.fromarray(arr).resize((columns, rows), "
                     "PIL.Image.BILINEAR)) for a uint8 arr"),
        "imsave": (_attr(_MISC, "imsave"), _SCIPY_IMAGE,
                   "PIL.Image.fromarray(arr).save(name) for a uint8 arr"),
        "toimage": (_attr(_MISC, "toimage"), _SCIPY_IMAGE,
                    "PIL.Image.fromarray(arr) for a uint8 arr"),
        "fromimage": (_attr(_MISC, "fromimage"), _SCIPY_IMAGE, "numpy.asarray(image)"),
        "bytescale": (_attr(_MISC, "bytescale"), _SCIPY_IMAGE,
                      "a scaling of your own to 0..255, then .astype(numpy.uint8)"),
        "imrotate": (_attr(_MISC, "imrotate"), _SCIPY_IMAGE,
                     "numpy.array(PIL.Image.fromarray(arr).rotate(angle, "
                     "resample=PIL.Image.BILINEAR)) for a uint8 arr"),
        "logsumexp": (_attr("scipy.special", "logsumexp"), _SCIPY_MOVED,
                      "scipy.special.logsumexp"),
        "comb": (_attr("scipy.special", "comb"), _SCIPY_MOVED, "scipy.special.comb"),
        "factorial": (_attr("scipy.special", "factorial"), _SCIPY_MOVED,
                      "scipy.special.factorial"),
        "factorial2": (_attr("scipy.special", "factorial2"), _SCIPY_MOVED,
                       "scipy.special.factorial2"),
    },
    "scipy.ndimage": {
        "imread": (_attr(_MISC, "imread"), _SCIPY_IMAGE,
                   "numpy.asarray(PIL.Image.open(name)) (.convert(mode) first for mode=)"),
    },
    "sklearn.cross_validation": {
        "train_test_split": (_attr(_CV, "train_test_split"), _SKLEARN_CV,
                             "sklearn.model_selection.train_test_split"),
        "KFold": (_attr(_CV, "KFold"), _SKLEARN_CV,
                  "sklearn.model_selection.KFold(n_splits, shuffle=..., "
                  "random_state=...).split(X)"),
        "StratifiedKFold": (_attr(_CV, "StratifiedKFold"), _SKLEARN_CV,
                            "sklearn.model_selection.StratifiedKFold(n_splits, ...)"
                            ".split(X, y) (its folds differ from 0.19's)"),
        "ShuffleSplit": (_attr(_CV, "ShuffleSplit"), _SKLEARN_CV,
                         "sklearn.model_selection.ShuffleSplit(n_splits, test_size=...)"
                         ".split(X)"),
        "cross_val_score": (_attr(_CV, "cross_val_score"), _SKLEARN_CV,
                            "sklearn.model_selection.cross_val_score(..., cv=3) (its "
                            "default is 5 folds)"),
    },
}

# removed module -> (the module it stands for, removed in, what to write instead)
VIRTUAL = {
    "sklearn.externals.joblib": ("joblib", "scikit-learn 0.23 (deprecated since 0.21)",
                                 "import joblib"),
}

# Names of a removed module that tf1mem does not provide -> what to use.
_NOT_PROVIDED = {"sklearn.cross_validation": _CV}

_NOTES = module_view.Notes()


def reset_notes():
    """Forgets which names were noted (an uninstall does this)."""
    _NOTES.reset()


class LegacyStackModule(module_view.ModuleView):
    """A module of the scientific stack with the names its 2017 release had.

    Attribute reads go to the real module; a name it lacks comes from :data:`ALIASES`
    (noted once on stderr), and a submodule with a view of its own (or a removed one,
    :data:`tf1mem.compat.legacy.table.STACK`) is given as that view. ``views`` is the
    install's cache (module name -> view), shared by all the views it makes.
    """

    def __init__(self, real, views):
        super().__init__(real, extra_names=ALIASES.get(real.__name__, ()))
        self.__dict__["_tf1mem_views"] = views

    def __getattr__(self, name):
        real = self.__dict__["_tf1mem_real"]
        views = self.__dict__["_tf1mem_views"]
        full = f"{real.__name__}.{name}"
        try:
            value = getattr(real, name)
        except AttributeError:
            if full in table.STACK:
                value = virtual_module(full, views)
            else:
                value = self._tf1mem_legacy(real.__name__, name)
        else:
            if isinstance(value, types.ModuleType) and _has_view(full):
                value = view_of(value, views)
        self.__dict__[name] = value  # later reads are plain dict hits
        return value

    @staticmethod
    def _tf1mem_legacy(module, name):
        names = ALIASES.get(module, {})
        if name not in names:
            where = _NOT_PROVIDED.get(module)
            if where is not None:
                instead = importlib.import_module(where).NOT_PROVIDED.get(name)
                if instead is not None:
                    raise AttributeError(f"module {module!r} (tf1mem's view of the removed "
                                         f"module) does not provide {name!r}: use {instead}")
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        resolve, removed, instead = names[name]
        value = resolve()
        _NOTES.note(f"{module}.{name}", f"{module}.{name} was removed in {removed}; tf1mem "
                                        f"gives it as it was. Write {instead} instead.")
        return value


def _has_view(name):
    return name in table.STACK or name in table.stack_parents()


def view_of(module, views):
    """The view of the real ``module`` (made once per install, kept in ``views``), or
    ``module`` itself when no legacy name lies in or below it."""
    name = module.__name__
    if not _has_view(name):
        return module
    view = views.get(name)
    if view is None or view.__dict__["_tf1mem_real"] is not module:
        view = views[name] = LegacyStackModule(module, views)
    return view


def virtual_module(name, views):
    """The module user code gets for ``name``, a module its library removed.

    Its parent package is imported (really); a module of :data:`VIRTUAL` is the module
    it stands for, any other an empty module with :data:`ALIASES`' names.

    Raises:
      ModuleNotFoundError: the parent package (the library) is not installed, or the
        module it stands for is not.
    """
    view = views.get(name)
    if view is not None:
        return view
    importlib.import_module(name.rpartition(".")[0])
    if name in VIRTUAL:
        target, removed, instead = VIRTUAL[name]
        try:
            view = importlib.import_module(target)
        except ModuleNotFoundError:
            raise ModuleNotFoundError(
                f"No module named {name!r}: it was removed in {removed}, and {target!r}, "
                f"which it was, is not installed: pip install {target}", name=name) from None
        _NOTES.note(name, f"{name} was removed in {removed}; tf1mem gives the module it "
                          f"was, {target}. Write {instead} instead.")
    else:
        empty = types.ModuleType(name, f"tf1mem's stand-in for {name}, which its library "
                                       f"removed: the names of tf1mem.compat.legacy.stack_view"
                                       f".ALIASES[{name!r}].")
        view = LegacyStackModule(empty, views)
    views[name] = view
    return view
