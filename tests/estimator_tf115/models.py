"""The models of the TF 1.15.5 fixture, shared by make_fixture.py (oracle) and the tests.

Written against the TF1 API (``tf`` is TF 1.15.5's module in make_fixture.py, tf1mem's
TF1 module in the tests).
"""
import numpy as np


def custom_data():
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(6, 2)
    y = (x[:, :1] * 2 - x[:, 1:] + 0.5).astype(np.float32)
    return x, y


def dnn_data():
    rng = np.random.RandomState(3)
    labels = np.arange(9) % 3
    features = (labels[:, None] * 1.5 + 0.2 * rng.randn(9, 3)).astype(np.float32)
    return features, labels


def numpy_fn(x, y, epochs, key="x"):
    import tensorflow as tf

    return tf.estimator.inputs.numpy_input_fn({key: x}, y, batch_size=4, num_epochs=epochs,
                                              shuffle=False)


def custom_model_fn(features, labels, mode, params):
    import tensorflow as tf

    hidden = tf.layers.dense(features["x"], params["hidden"], activation=tf.nn.tanh,
                             kernel_initializer=tf.glorot_uniform_initializer(seed=1),
                             name="hidden")
    out = tf.layers.dense(hidden, 1, kernel_initializer=tf.glorot_uniform_initializer(seed=2),
                          name="out")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": out})
    loss = tf.losses.mean_squared_error(labels, out)
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops={
        "rmse": tf.metrics.root_mean_squared_error(labels, out)})


def dnn_classifier(tf, model_dir):
    return tf.estimator.DNNClassifier(
        hidden_units=[5], feature_columns=[tf.feature_column.numeric_column("m", shape=[3])],
        n_classes=3, model_dir=model_dir, config=tf.estimator.RunConfig(tf_random_seed=5))
