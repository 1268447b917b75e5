"""Which modules user code gets a legacy view of, and which view: data only.

The shim's import hook (:mod:`tf1mem.compat.runtime.imports`) reads this table; it
imports nothing. Each view is made only when user code imports the real module (or,
for a module its library has since removed, the library it belonged to) and that
import succeeds: a library that is not installed gets no view, and nothing here
imports SciPy, Pillow or scikit-learn.

- :data:`NUMPY`: ``numpy`` and its submodules imported without a from-list get
  :mod:`tf1mem.compat.legacy.numpy_view` (option ``numpy_compat``).
- :data:`STDLIB`: standard-library modules with Python 3.7 names
  (:mod:`tf1mem.compat.legacy.stdlib_view`, option ``python_compat``).
- :data:`STACK`: the scientific stack of 2017 (SciPy 1.1, Pillow 6, scikit-learn 0.19)
  (:mod:`tf1mem.compat.legacy.stack_view`, option ``stack_compat``): module name ->
  ``"view"`` (a view of the real module, with the names :data:`STACK_ALIASES` of
  stack_view adds) or ``"virtual"`` (a module the library removed; the view stands in
  for it when the real import finds nothing).
"""

__all__ = ["NUMPY", "STDLIB", "STACK", "STACK_ROOTS", "stack_parents"]

NUMPY = "numpy"

STDLIB = frozenset({"inspect", "time", "collections", "fractions", "base64", "cgi"})

STACK = {
    "PIL.Image": "view",                    # Image.ANTIALIAS, LINEAR, CUBIC (Pillow 10)
    "scipy.misc": "view",                   # imread, imresize, imsave, ... (SciPy 1.2/1.3)
    "scipy.ndimage": "view",                # ndimage.imread (SciPy 1.2)
    "sklearn.cross_validation": "virtual",  # scikit-learn 0.20
    "sklearn.externals.joblib": "virtual",  # scikit-learn 0.23
}

STACK_ROOTS = frozenset(name.partition(".")[0] for name in STACK)


def stack_parents():
    """Every package above a :data:`STACK` module (``PIL``, ``scipy``, ``sklearn``,
    ``sklearn.externals``): its view leads to the views below it."""
    parents = set()
    for name in STACK:
        parts = name.split(".")
        parents.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return frozenset(parents)
