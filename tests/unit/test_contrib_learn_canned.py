"""tf.contrib.learn's canned estimators and the tf.contrib.layers feature columns. Their
outputs against TF 1.15.5 are the corpus scripts contrib_learn_canned.py and
contrib_learn_feature_columns.py; these tests check the edges: the order the numpy feeder
reads rows in (TF 1.15.5's DataFeeder, measured on the oracle), the columns' records and
ids (TF 1.15.5's reprs and keys), bad input named with what to do, TF 1.15's op-seed rule
scoped to building the model, and the names still removed.

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_learn_canned.py.
"""

import numpy as np
import pytest

from tests.tf.test_contrib_learn_canned import _learn
from tf1mem.compat import errors as compat_errors
from tf1mem.compat.runtime import composite
from tf1mem.compat.tf.contrib.layers import feature_column, feature_column_ops
from tf1mem.compat.tf.contrib.learn import data_feeder, estimators


@pytest.mark.parametrize("kwargs, message", [
    (dict(x=np.zeros((3, 2)), y=np.zeros(4)), r"x has 3 rows but y has 4"),
    (dict(x=np.zeros((3, 2)), y=np.zeros(3), batch_size=0), r"Invalid batch_size 0"),
    (dict(x={"a": np.zeros(3), "b": np.zeros(2)}, y=None), r"different numbers of rows"),
    (dict(x=np.array([None, "a"], dtype=object), y=None), r"numeric numpy array"),
])
def test_feeder_rejects_bad_arrays_naming_the_value(kwargs, message):
    with pytest.raises(ValueError, match=message):
        data_feeder.NumpyFeeder(**kwargs)


def test_names_resolve_and_the_rest_stay_removed_with_advice():
    learn = _learn()
    layers = composite.make_composite("tensorflow.contrib.layers", "layers")
    assert learn.DNNClassifier is estimators.DNNClassifier
    assert learn.DNNLinearCombinedClassifier is estimators.DNNLinearCombinedClassifier
    assert learn.SKCompat is estimators.SKCompat
    for name in ("real_valued_column", "sparse_column_with_keys",
                 "sparse_column_with_hash_bucket", "bucketized_column", "embedding_column",
                 "crossed_column"):
        assert getattr(layers, name) is getattr(feature_column, name)
    assert layers.input_from_feature_columns is feature_column_ops.input_from_feature_columns
    assert learn.monitors.ValidationMonitor.__name__ == "ValidationMonitor"
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"LoggingTensorHook"):
        learn.monitors.PrintTensor


@pytest.mark.parametrize("kwargs, message", [
    (dict(mode="train", loss=1.0), r"Missing train_op"),
    (dict(mode="eval"), r"Missing loss: mode EVAL"),
    (dict(mode="infer"), r"Missing predictions"),
    (dict(mode="predict", predictions=1.0), r"mode='predict' unrecognized.*INFER"),
])
def test_model_fn_ops_checks_what_each_mode_needs(kwargs, message):
    with pytest.raises(ValueError, match=message):
        estimators.ModelFnOps(**kwargs)


def test_contrib_estimator_checks_model_fn_and_params(tmp_path):
    def model_fn(features, targets, mode):
        raise AssertionError("not called")

    with pytest.raises(ValueError, match=r"model_fn must be callable"):
        estimators.Estimator(model_fn=None, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"does not have a params argument"):
        estimators.Estimator(model_fn=model_fn, params={"a": 1}, model_dir=str(tmp_path))
    learn = _learn()
    assert learn.Estimator is estimators.Estimator and learn.ModelFnOps is estimators.ModelFnOps


@pytest.mark.parametrize("metric_fn, call", [
    (lambda labels, predictions, weights=None: ("named", labels, predictions),
     ("named", "L", "P")),
    (lambda targets, logits: ("named, other names", targets, logits),
     ("named, other names", "L", "P")),
    (lambda labels, p: ("labels first", labels, p), ("labels first", "L", "P")),
    (lambda p, labels: ("labels not first", p, labels), ("labels not first", "P", "L")),
    (lambda predictions: ("predictions only", predictions), ("predictions only", "P")),
    (lambda p: ("positional", p), ("positional", "P")),
])
def test_metric_spec_calls_the_metric_fn_by_tf115s_rules(metric_fn, call):
    spec = estimators.MetricSpec(metric_fn, prediction_key="classes")
    assert spec.create_metric_ops({}, "L", {"classes": "P", "logits": "X"}) == call


def test_metric_spec_key_errors_say_what_to_set():
    spec = estimators.MetricSpec(lambda labels, predictions: None)
    with pytest.raises(ValueError, match=r"without specified prediction_key.*set prediction_key"):
        spec.create_metric_ops({}, "L", {"classes": 1, "logits": 2})
    with pytest.raises(ValueError, match=r"at most one of"):
        estimators.MetricSpec(lambda labels, targets, predictions: None)
    with pytest.raises(ValueError, match=r"no argument named one of \['weights', 'weight'\]"):
        estimators.MetricSpec(lambda labels, predictions: None, weight_key="w")
    assert estimators.PredictionKey.CLASSES == "classes"
