"""tf.contrib.learn's canned estimators and the tf.contrib.layers feature columns. Their
outputs against TF 1.15.5 are the corpus scripts contrib_learn_canned.py and
contrib_learn_feature_columns.py; these tests check the edges: the order the numpy feeder
reads rows in (TF 1.15.5's DataFeeder, measured on the oracle), the columns' records and
ids (TF 1.15.5's reprs and keys), bad input named with what to do, TF 1.15's op-seed rule
scoped to building the model, and the names still removed.

The tests here: TensorFlow in the test process; the rest:
tests/unit/test_contrib_learn_canned.py.
"""

import numpy as np
import pytest

from tf1mem.compat.runtime import composite
from tf1mem.compat.tf.contrib.layers import feature_column, feature_column_ops
from tf1mem.compat.tf.contrib.learn import data_feeder, estimators


def _learn():
    return composite.make_composite("tensorflow.contrib.learn", "learn")


def _classifier(tmp_path, **kwargs):
    return estimators.DNNClassifier(
        hidden_units=[4], n_classes=3, model_dir=str(tmp_path),
        feature_columns=[feature_column.real_valued_column("", dimension=2)], **kwargs)


def _fed_rows(feeder, runs):
    x_ph, y_ph = feeder.input_fn()
    rows = []
    for _ in range(runs):
        feed = feeder.feed_fn()
        rows.append((feed[x_ph].ravel().astype(int).tolist(), feed[y_ph].tolist()))
    return rows


def test_feeder_reads_rows_in_tf115s_shuffled_order():
    import tensorflow as tf

    x = np.arange(10, dtype=np.float64).reshape(10, 1)
    with tf.Graph().as_default():
        feeder = data_feeder.NumpyFeeder(x, np.arange(10), batch_size=4, shuffle=True)
        rows = _fed_rows(feeder, 7)
        assert feeder._x_ph.dtype == tf.float64 and feeder._x_ph.shape.as_list() == [None, 1]
        assert feeder._y_ph.dtype == tf.int64 and feeder._y_ph.shape.as_list() == [None]
    # TF 1.15.5's DataFeeder(batch_size=4, shuffle=True) on the same arrays: the epoch's
    # last batch is short, each epoch a new permutation of RandomState(42).
    assert rows == [([8, 1, 5, 0], [8, 1, 5, 0]), ([7, 2, 9, 4], [7, 2, 9, 4]),
                    ([3, 6], [3, 6]), ([0, 1, 8, 5], [0, 1, 8, 5]),
                    ([3, 4, 7, 9], [3, 4, 7, 9]), ([6, 2], [6, 2]),
                    ([9, 2, 0, 6], [9, 2, 0, 6])]


def test_feeder_without_shuffle_reads_every_row_once_then_stops():
    import tensorflow as tf

    with tf.Graph().as_default():
        feeder = data_feeder.NumpyFeeder(np.arange(6.).reshape(6, 1), np.arange(6)[:, None],
                                         shuffle=False, epochs=1)
        assert _fed_rows(feeder, 1) == [([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5])]
        assert feeder._y_ph.shape.as_list() == [None]  # [rows, 1] labels fed as [rows]
        with pytest.raises(StopIteration):
            feeder.feed_fn()


@pytest.mark.parametrize("call, message", [
    (lambda c: c.fit(steps=1), r"Either x or input_fn must be provided"),
    (lambda c: c.fit(x=np.zeros((2, 2)), y=np.zeros(2), input_fn=lambda: None),
     r"Can not provide both input_fn and x or y"),
    (lambda c: c.fit(input_fn=lambda: None, batch_size=2), r"input_fn and batch_size"),
    (lambda c: c.fit(x=np.zeros((2, 2)), y=np.zeros(2), steps=1, max_steps=2),
     r"Can not provide both steps and max_steps"),
    (lambda c: c.fit(x=np.zeros((2, 2)), steps=1), r"fit\(x=\.\.\.\) needs the labels"),
    (lambda c: c.evaluate(x=np.zeros((2, 2)), y=np.zeros(2), metrics={"m": None}),
     r"MetricSpec"),
    (lambda c: c.fit(x=np.zeros((2, 2)), y=np.zeros(2), steps=1, monitors=["not a hook"]),
     r"SessionRunHook"),
])
def test_input_errors_name_the_value_and_what_to_do(tmp_path, call, message):
    with pytest.raises(ValueError, match=message):
        call(_classifier(tmp_path))


def test_tensors_as_x_ask_for_an_input_fn(tmp_path):
    import tensorflow as tf

    with tf.Graph().as_default():
        x = tf.zeros([2, 2])
        with pytest.raises(ValueError, match=r"Inputs cannot be tensors.*input_fn"):
            _classifier(tmp_path).fit(x=x, y=np.zeros(2), steps=1)


def test_evaluate_and_predict_before_fit_are_not_fitted_errors(tmp_path):
    classifier = _classifier(tmp_path)
    with pytest.raises(estimators.NotFittedError, match=r"Couldn't find trained model.*fit"):
        classifier.evaluate(x=np.zeros((2, 2), np.float32), y=np.zeros(2, np.int64))
    with pytest.raises(estimators.NotFittedError):
        list(classifier.predict(x=np.zeros((2, 2), np.float32)))
    assert issubclass(estimators.NotFittedError, (ValueError, AttributeError))


def test_missing_feature_is_named(tmp_path):
    classifier = estimators.DNNClassifier(
        hidden_units=[4], model_dir=str(tmp_path),
        feature_columns=[feature_column.real_valued_column("petals", dimension=2)],
        config=_learn().RunConfig(tf_random_seed=1))
    with pytest.raises(ValueError, match=r"'petals' is not among the features \[''\]"):
        classifier.fit(x=np.zeros((2, 2), np.float32), y=np.zeros(2, np.int64), steps=1)


def test_real_valued_column_is_tf115s_record_and_checks_its_arguments():
    import tensorflow as tf

    column = feature_column.real_valued_column("", dimension=4)
    assert repr(column) == ("_RealValuedColumn(column_name='', dimension=4, "
                            "default_value=None, dtype=tf.float32, normalizer=None)")
    assert feature_column.real_valued_column("a", 2, default_value=1).default_value == (1., 1.)
    with pytest.raises(ValueError, match=r"dimension must be an integer >= 1, got 0"):
        feature_column.real_valued_column("a", dimension=0)
    with pytest.raises(ValueError, match=r"dtype must be an integer or float dtype"):
        feature_column.real_valued_column("a", dtype=tf.string)
    with pytest.raises(ValueError, match=r"default_value has 3 entries, dimension is 2"):
        feature_column.real_valued_column("a", 2, default_value=[1, 2, 3])


def test_infer_columns_keep_each_features_dtype_and_size():
    import tensorflow as tf

    columns = estimators.infer_real_valued_columns_from_input(
        {"a": np.zeros(3), "b": np.zeros((3, 2, 2), np.float32), "c": np.zeros((3, 2), int)})
    assert [(c.column_name, c.dimension, c.dtype) for c in columns] == [
        ("a", 1, tf.float64), ("b", 4, tf.float32), ("c", 2, tf.int64)]


@pytest.mark.parametrize("build, message", [
    (lambda d: estimators.DNNClassifier([4], [], model_dir=d), r"feature_columns must not"),
    (lambda d: estimators.DNNClassifier([0], [feature_column.real_valued_column("")],
                                        model_dir=d), r"hidden_units must be"),
    (lambda d: estimators.DNNClassifier([4], [feature_column.real_valued_column("")],
                                        n_classes=1, model_dir=d), r"n_classes must be > 1"),
    (lambda d: estimators.LinearRegressor(["age"], model_dir=d), r"real_valued_column"),
    (lambda d: estimators.DNNRegressor([4], [feature_column.real_valued_column("")],
                                       activation_fn="elu", model_dir=d),
     r"Activation name should be one of \[relu, tanh, sigmoid\], you provided elu"),
])
def test_bad_model_arguments_are_named(tmp_path, build, message):
    with pytest.raises(ValueError, match=message):
        build(str(tmp_path))


def test_options_not_provided_say_what_to_do(tmp_path):
    columns = [feature_column.real_valued_column("")]
    with pytest.raises(NotImplementedError, match=r"enable_centered_bias=True.*leave it"):
        estimators.LinearClassifier(columns, enable_centered_bias=True, model_dir=str(tmp_path))
    with pytest.raises(NotImplementedError, match=r"label_keys.*label_vocabulary"):
        estimators.DNNClassifier([2], columns, n_classes=3, label_keys=["a", "b", "c"],
                                 model_dir=str(tmp_path))


def test_sparse_columns_print_and_sort_as_tf115s():
    gender = feature_column.sparse_column_with_keys("gender", keys=["Female", "Male"])
    education = feature_column.sparse_column_with_hash_bucket("education", hash_bucket_size=10)
    # TF 1.15.5's repr (and key) of the same columns.
    assert repr(gender) == (
        "_SparseColumnKeys(column_name='gender', is_integerized=False, bucket_size=None, "
        "lookup_config=_SparseIdLookupConfig(vocabulary_file=None, keys=('Female', 'Male'), "
        "num_oov_buckets=0, vocab_size=2, default_value=-1), combiner='sum', dtype=tf.string)")
    assert education.key == (
        "_SparseColumnHashed(column_name='education', is_integerized=False, bucket_size=10, "
        "lookup_config=None, combiner='sum', dtype=tf.string)")
    age = feature_column.real_valued_column("age")
    assert age.key == ("_RealValuedColumn(column_name=age, dimension=1, default_value=None, "
                       "dtype=<dtype: 'float32'>)")
    embedding = feature_column.embedding_column(education, dimension=3)
    assert embedding.key.startswith("_EmbeddingColumn(sparse_id_column=_SparseColumnHashed(")
    assert "initializer" not in embedding.key and "combiner=mean" in embedding.key
    assert (gender.length, education.length, embedding.name) == (2, 10, "education_embedding")
    assert feature_column.bucketized_column(age, [25, 35]).name == "age_bucketized"


def test_ids_of_keys_and_buckets():
    import tensorflow as tf

    gender = feature_column.sparse_column_with_keys("gender", keys=["Female", "Male"])
    buckets = feature_column.bucketized_column(
        feature_column.real_valued_column("x", dimension=2), [25, 35, 45, 55])
    with tf.Graph().as_default():
        ids = gender.sparse_ids({"gender": tf.constant([["Male"], ["Other"], [""]])})
        bucket_ids = buckets.sparse_ids({"x": tf.constant([[20., 60.], [35., 44.]])})
        with tf.compat.v1.Session() as session:
            session.run(tf.compat.v1.tables_initializer())
            got, got_buckets = session.run([ids, bucket_ids])
    # "" is no value (dropped, as TF 1.15's DenseToSparseTensor); an unknown key is -1.
    assert got.indices.tolist() == [[0, 0], [1, 0]] and got.values.tolist() == [1, -1]
    # Bucket b of dimension d is d * 5 + b.
    assert got_buckets.values.tolist() == [0, 9, 2, 7]
    assert got_buckets.dense_shape.tolist() == [2, 2]


@pytest.mark.parametrize("build, error, message", [
    (lambda: feature_column.bucketized_column(feature_column.real_valued_column("a"), [3, 1]),
     ValueError, r"boundaries must be a sorted list, got \[3, 1\]"),
    (lambda: feature_column.bucketized_column("a", [1]), TypeError, r"real_valued_column"),
    (lambda: feature_column.embedding_column(feature_column.real_valued_column("a"), 2),
     ValueError, r"sparse_column_with_\* column"),
    (lambda: feature_column.sparse_column_with_hash_bucket("a", 0), ValueError,
     r"hash_bucket_size must be an integer >= 1, got 0"),
    (lambda: feature_column.sparse_column_with_keys("a", []), ValueError, r"keys must not"),
    (lambda: feature_column.sparse_column_with_keys("a", ["x"], combiner="max"), ValueError,
     r"combiner must be 'sum', 'mean' or 'sqrtn', got 'max'"),
])
def test_bad_column_arguments_are_named(build, error, message):
    with pytest.raises(error, match=message):
        build()


def test_columns_in_the_wrong_model_say_what_to_use():
    import tensorflow as tf

    education = feature_column.sparse_column_with_hash_bucket("education", 10)
    with tf.Graph().as_default():
        features = {"education": tf.constant([["a"]])}
        with pytest.raises(ValueError, match=r"SparseColumn is not supported in DNN.*"
                                             r"embedding_column"):
            feature_column_ops.dnn_input(features, [education], "input")
        with pytest.raises(ValueError, match=r"not supported in linear models.*sparse_column"):
            feature_column_ops.linear_logits(
                features, [feature_column.embedding_column(education, 2)], 1, "linear")


def test_combined_model_needs_columns_and_hidden_units(tmp_path):
    with pytest.raises(ValueError, match=r"Either linear_feature_columns or dnn_feature"):
        estimators.DNNLinearCombinedClassifier(model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"dnn_hidden_units must be defined"):
        estimators.DNNLinearCombinedRegressor(
            model_dir=str(tmp_path),
            dnn_feature_columns=[feature_column.real_valued_column("a")])


def test_contrib_model_fn_must_return_model_fn_ops_or_a_triple(tmp_path):
    def model_fn(features, labels):
        return {"predictions": features}

    estimator = estimators.Estimator(model_fn=model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"must return ModelFnOps or a \(predictions, loss, "
                                         r"train_op\) tuple"):
        estimator.fit(x=np.zeros((2, 2), np.float32), y=np.zeros(2, np.float32), steps=1)


def test_evaluate_metrics_must_be_metric_specs(tmp_path):
    with pytest.raises(ValueError, match=r"'acc' must be a tf\.contrib\.learn\.MetricSpec"):
        _classifier(tmp_path).evaluate(x=np.zeros((2, 2), np.float32), y=np.zeros(2, np.int64),
                                       metrics={"acc": lambda p, l: None})
