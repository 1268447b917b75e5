"""Views of the Python of 2017 for user code: NumPy 1.x names, Python 3.7's standard
library names, and hints for Python 2 lines. Real modules are never changed."""
