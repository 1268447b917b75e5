"""tf.contrib.factorization's estimators and Gaussian mixtures under tf1mem.

The tests here: TensorFlow in the test process; the rest:
tests/unit/test_contrib_factorization.py, tests/commands/test_contrib_factorization.py.
"""

import numpy as np
import pytest

from tf1mem.compat.tf.contrib.factorization import estimators as fe


def test_gmm_fit_says_to_pass_an_input_fn_instead_of_numpy_arrays(tmp_path):
    gmm = fe.GMM(num_clusters=2, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"GMM\.fit: x .* pass input_fn instead"):
        gmm.fit(x=np.zeros([4, 2], np.float32), steps=1)
