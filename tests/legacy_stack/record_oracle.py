"""Records SciPy 1.1.0's scipy.misc image results (with Pillow 6.2.2) and scikit-learn
0.19.2's sklearn.cross_validation results into ``oracle_stack.json``: run with the TF
1.15.5 oracle's Python and those packages, e.g. ``/work/oracle/bin/pip install --target
/work/oracle-sci --no-deps scipy==1.1.0 pillow==6.2.2 scikit-learn==0.19.2``
then ``PYTHONPATH=/work/oracle-sci /work/oracle/bin/python tests/legacy_stack/record_oracle.py``.
It also writes the imread inputs (``in_*.png``) with that Pillow."""

import json
import os
import platform
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402

if __name__ == "__main__":
    warnings.simplefilter("ignore")  # scipy.misc's own deprecation warnings
    import numpy
    import PIL
    import scipy
    import scipy.misc
    import sklearn
    from sklearn import cross_validation

    cases.write_inputs()
    with tempfile.TemporaryDirectory() as tmp:
        results = cases.run(scipy.misc, tmp)
    record = {"scipy": scipy.__version__, "pillow": PIL.__version__,
              "numpy": numpy.__version__, "python": platform.python_version(),
              "sklearn": sklearn.__version__, "results": results,
              "cross_validation": cases.run_cv(cross_validation)}
    with open(os.path.join(cases.HERE, "oracle_stack.json"), "w") as f:
        json.dump(record, f, indent=0, sort_keys=True)
        f.write("\n")
