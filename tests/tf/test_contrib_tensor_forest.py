"""tf.contrib.tensor_forest under tf1mem: ForestHParams, RandomForestGraphs, the estimator.

``fill()`` against what TF 1.15.5 set (recorded on the oracle, 2026-12-07); the graphs'
types and shapes as TF1 returned them; a forest trained on a small separable set; the
``TensorForestEstimator``'s fit / evaluate / predict with TF 1.15.5's keys; the refusals.

The tests here: TensorFlow in the test process; the rest: the corpus case
tests/legacy_corpus/random_forest_mnist.py (tests/corpus/test_legacy_corpus.py) and the
table's tests in tests/unit/test_contrib_table.py.
"""

import numpy as np
import pytest
import tensorflow as tf

from tf1mem.compat.tf.contrib.tensor_forest.client import random_forest
from tf1mem.compat.tf.contrib.tensor_forest.python import tensor_forest

v1 = tf.compat.v1

# What TF 1.15.5's ForestHParams(...).fill().values() held (oracle, 2026-12-07).
_COMMON = {
    "bagging_fraction": 1.0, "base_random_seed": 0, "checkpoint_stats": False,
    "collate_examples": False, "dominate_fraction": 0.99, "dominate_method": "bootstrap",
    "early_finish_check_every_samples": 0, "feature_bagging_fraction": 1.0, "finish_type": 0,
    "inference_tree_paths": False, "initialize_average_splits": False, "leaf_model_type": 0,
    "max_fertile_nodes": 0, "model_name": "all_dense", "num_outputs": 1, "param_file": None,
    "prune_every_samples": 0, "pruning_type": 0, "regression": False,
    "split_after_samples": 250, "split_finish_name": "basic", "split_name": "less_or_equal",
    "split_pruning_name": "none", "split_type": 0, "stats_model_type": 0,
    "use_running_stats_method": False, "valid_leaf_threshold": 1, "bagged_features": None,
}
FILLED = [
    (dict(num_classes=10, num_features=784, num_trees=10, max_nodes=1000),
     dict(_COMMON, bagged_num_features=784, max_nodes=1000, num_classes=10, num_features=784,
          num_output_columns=11, num_splits_to_consider=28, num_trees=10)),
    (dict(num_classes=3, num_features=4),
     dict(_COMMON, bagged_num_features=4, max_nodes=10000, num_classes=3, num_features=4,
          num_output_columns=4, num_splits_to_consider=10, num_trees=100)),
]


@pytest.mark.parametrize("kwargs, want", FILLED)
def test_fill_sets_what_tf115_set(kwargs, want):
    params = tensor_forest.ForestHParams(**kwargs)
    assert params.fill() is params
    assert params.values() == want


def test_fill_with_regression_and_feature_bagging_as_tf115():
    params = tensor_forest.ForestHParams(
        num_classes=2, num_features=5000, regression=True, feature_bagging_fraction=0.5,
        num_trees=2, base_random_seed=7).fill()
    values = dict(params.values())
    bagged = values.pop("bagged_features")
    assert (values["bagged_num_features"], values["num_outputs"], values["num_output_columns"],
            values["num_splits_to_consider"], values["leaf_model_type"],
            values["stats_model_type"], values["base_random_seed"]) == (2500, 2, 3, 70, 2, 2, 7)
    assert [len(b) for b in bagged] == [2500, 2500]
    assert all(len(set(b)) == 2500 and max(b) < 5000 for b in bagged)


def test_fill_raises_tf115_errors():
    with pytest.raises(AttributeError, match="num_features"):
        tensor_forest.ForestHParams(num_classes=3).fill()
    with pytest.raises(AttributeError, match="num_classes"):
        tensor_forest.ForestHParams(num_features=3).fill()
    with pytest.raises(KeyError, match="'x'"):
        tensor_forest.ForestHParams(num_features=3, num_classes=2, model_name="x").fill()


def _blobs(n=300, seed=0):
    rng = np.random.RandomState(seed)
    centers = np.array([[0, 0, 0, 0], [3, 3, 0, 0], [0, 3, 3, 3]], np.float32)
    y = rng.randint(0, 3, size=n)
    return (centers[y] + rng.normal(size=(n, 4))).astype(np.float32), y.astype(np.int32)


def _train_forest(seed, steps=20, **extra):
    x, y = _blobs()
    with tf.Graph().as_default():
        X = v1.placeholder(tf.float32, [None, 4])
        Y = v1.placeholder(tf.int32, [None])
        params = tensor_forest.ForestHParams(num_classes=3, num_features=4, num_trees=4,
                                             max_nodes=31, split_after_samples=20,
                                             base_random_seed=seed, **extra).fill()
        forest = tensor_forest.RandomForestGraphs(params)
        train = forest.training_graph(X, Y)
        loss = forest.training_loss(X, Y)
        probs, paths, variance = forest.inference_graph(X)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            initial = sess.run(loss)
            for _ in range(steps):
                sess.run(train, {X: x, Y: y})
            out = sess.run({"probs": probs, "paths": paths, "variance": variance,
                            "loss": loss, "importances": forest.feature_importances()},
                           {X: x})
        out.update(initial=initial, train=train, tensors=(probs, paths, variance, loss), y=y)
        return out


def test_graphs_have_tf1s_types_and_the_forest_learns():
    out = _train_forest(seed=3)
    probs, paths, variance, loss = out["tensors"]
    assert isinstance(out["train"], tf.Operation)
    assert (probs.dtype, probs.shape.as_list()) == (tf.float32, [None, 3])
    assert (paths.dtype, paths.shape.as_list()) == (tf.string, [0, 4])
    assert (variance.dtype, variance.shape.as_list()) == (tf.float32, [None, 3])
    assert (loss.dtype, loss.shape.as_list()) == (tf.float32, [])
    assert out["initial"] == -1.0  # one node per tree, TF1's first loss
    assert -31.0 <= out["loss"] < -1.0  # grown, within max_nodes
    np.testing.assert_allclose(out["probs"].sum(1), 1.0, rtol=1e-5)
    assert (out["variance"] >= 0).all()
    accuracy = (out["probs"].argmax(1) == out["y"]).mean()
    assert accuracy > 0.9, accuracy
    assert out["importances"].shape == (4,) and abs(out["importances"].sum() - 1) < 1e-5


def test_a_seeded_forest_repeats_and_another_seed_differs():
    first, again, other = (_train_forest(seed=s, steps=5) for s in (11, 11, 12))
    np.testing.assert_array_equal(first["probs"], again["probs"])
    assert not np.array_equal(first["probs"], other["probs"])


def test_bagging_and_feature_bagging_train():
    out = _train_forest(seed=5, bagging_fraction=0.7, feature_bagging_fraction=0.5)
    assert (out["probs"].argmax(1) == out["y"]).mean() > 0.8


def test_max_nodes_caps_every_tree():
    out = _train_forest(seed=4, steps=40)
    assert out["loss"] >= -31.0


@pytest.mark.parametrize("kwargs, needle", [
    (dict(regression=True), r"classification forests only"),
    (dict(model_name="all_sparse"), r"model_name='all_sparse'.* leave the default"),
    (dict(split_finish_name="hoeffding"), r"split_finish_name='hoeffding'"),
    (dict(num_trees=0), r"num_trees must be a positive int, got 0"),
    (dict(max_nodes=10 ** 9), r"MiB, over its limit"),
    (dict(feature_bagging_fraction=0.1), r"feature_bagging_fraction=0\.1 leaves no feature of 4"),
    (dict(bagging_fraction=0.0), r"bagging_fraction must be in \(0, 1\], got 0\.0"),
])
def test_refusals_name_the_value(kwargs, needle):
    args = dict(num_classes=3, num_features=4)
    args.update(kwargs)
    params = tensor_forest.ForestHParams(**args).fill()
    with tf.Graph().as_default(), pytest.raises(ValueError, match=needle):
        tensor_forest.RandomForestGraphs(params)


def test_unfilled_params_are_refused():
    with tf.Graph().as_default(), pytest.raises(ValueError, match=r"\.fill\(\)"):
        tensor_forest.RandomForestGraphs(tensor_forest.ForestHParams(num_classes=2,
                                                                     num_features=2))


def test_estimator_fit_evaluate_predict_with_tf115s_keys(tmp_path):
    x, y = _blobs()
    params = tensor_forest.ForestHParams(num_classes=3, num_features=4, num_trees=3,
                                         max_nodes=50, split_after_samples=20)
    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path))
    assert params.num_splits_to_consider == 10  # filled by the constructor, as in TF1
    est.fit(x=x, y=y, steps=30)
    result = est.evaluate(x=x, y=y)
    assert sorted(result) == ["accuracy", "global_step", "loss"]
    assert result["global_step"] == 30
    assert result["accuracy"] > 0.9, result
    predictions = list(est.predict(x=x[:5]))
    assert sorted(predictions[0]) == ["classes", "logits", "prediction_variance",
                                      "probabilities"]
    first = predictions[0]
    assert first["classes"].dtype == np.int64 and first["logits"].shape == (3,)
    # TF 1.15's head took the forest's probabilities as logits: its probabilities are their
    # softmax (oracle: logits [1, 0, 0] -> probabilities [0.576, 0.212, 0.212]).
    soft = np.exp(first["logits"]) / np.exp(first["logits"]).sum()
    np.testing.assert_allclose(first["probabilities"], soft, rtol=1e-5)
    assert abs(first["logits"].sum() - 1.0) < 1e-5


def test_estimator_early_stopping_ends_training_when_the_loss_stalls(tmp_path):
    x, y = _blobs()
    params = tensor_forest.ForestHParams(num_classes=3, num_features=4, num_trees=2,
                                         max_nodes=7, split_after_samples=20)
    est = random_forest.TensorForestEstimator(params, model_dir=str(tmp_path),
                                              early_stopping_rounds=5)
    est.fit(x=x, y=y, steps=200)
    assert est.evaluate(x=x, y=y)["global_step"] < 200


def test_estimator_refuses_what_it_does_not_provide():
    params = tensor_forest.ForestHParams(num_classes=3, num_features=4)
    with pytest.raises(ValueError, match=r"feature_columns=.* not supported"):
        random_forest.TensorForestEstimator(params, feature_columns=[object()])
    with pytest.raises(ValueError, match=r"num_trainers=2"):
        random_forest.TensorForestEstimator(params, num_trainers=2)
