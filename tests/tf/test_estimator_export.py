"""SavedModel export of a tf.estimator under tf1mem (export_saved_model, tf.contrib.predictor).

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_estimator_export.py.
"""

import pytest

from tf1mem.compat.tf.estimator import export


def test_serving_receivers_check_their_inputs():
    with pytest.raises(ValueError, match="feature_spec"):
        export.build_parsing_serving_input_receiver_fn({})
    with pytest.raises(ValueError, match="features must be given"):
        export.ServingInputReceiver(None, {})
