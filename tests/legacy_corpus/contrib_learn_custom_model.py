"""A custom tf.contrib.learn.Estimator as the 2017 abalone tutorial wrote it: a
model_fn(features, targets, mode, params) built from tf.contrib.layers.relu / linear,
returning ModelFnOps (imported from its TF1 module path) with eval_metric_ops, and a
model_fn returning the older (predictions, loss, train_op) tuple; fit / evaluate /
predict on numpy arrays."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.estimators import model_fn as model_fn_lib

out_dir = sys.argv[1]
rng = np.random.RandomState(3)
x = rng.uniform(0, 1, size=(40, 7)).astype(np.float32)
y = (x.dot(np.arange(1, 8) / 7.0) + 1 + rng.normal(scale=0.05, size=40)).astype(np.float32)
new_x = x[:3]


def model_fn(features, targets, mode, params):
    first_hidden_layer = tf.contrib.layers.relu(features, 10)
    output_layer = tf.contrib.layers.linear(first_hidden_layer, 1)
    predictions = tf.reshape(output_layer, [-1])
    predictions_dict = {"ages": predictions}
    loss = tf.losses.mean_squared_error(targets, predictions)
    eval_metric_ops = {"rmse": tf.metrics.root_mean_squared_error(
        tf.cast(targets, tf.float64), tf.cast(predictions, tf.float64))}
    train_op = tf.contrib.layers.optimize_loss(
        loss=loss, global_step=tf.contrib.framework.get_global_step(),
        learning_rate=params["learning_rate"], optimizer="SGD")
    return model_fn_lib.ModelFnOps(mode=mode, predictions=predictions_dict, loss=loss,
                                   train_op=train_op, eval_metric_ops=eval_metric_ops)


print("mode keys:", tf.contrib.learn.ModeKeys.TRAIN, tf.contrib.learn.ModeKeys.INFER)
nn = tf.contrib.learn.Estimator(model_fn=model_fn, params={"learning_rate": 0.1},
                                model_dir=os.path.join(out_dir, "abalone"),
                                config=tf.contrib.learn.RunConfig(tf_random_seed=5))
nn.fit(x=x, y=y, steps=200, batch_size=10)
ev = nn.evaluate(x=x, y=y, steps=1)
print("metric keys:", " ".join(sorted(ev)))
print("loss: %.5f rmse: %.5f global_step: %d" % (ev["loss"], ev["rmse"], ev["global_step"]))
for i, p in enumerate(nn.predict(x=new_x, as_iterable=True)):
    print("Prediction %s: %.4f" % (i + 1, p["ages"]))
print("variables:", " ".join(nn.get_variable_names()))


def tuple_model_fn(features, labels, mode):
    w = tf.get_variable("w", [7, 1], initializer=tf.zeros_initializer())
    predictions = tf.squeeze(tf.matmul(features, w), 1)
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=tf.train.get_global_step())
    return predictions, loss, train_op


old_style = tf.contrib.learn.Estimator(model_fn=tuple_model_fn,
                                       model_dir=os.path.join(out_dir, "tuple"))
old_style.fit(x=x, y=y, steps=30)
print("tuple metric keys:", " ".join(sorted(old_style.evaluate(x=x, y=y))))
print("tuple predictions:", " ".join("%.4f" % p for p in old_style.predict(x=new_x)))
print("tuple w:", " ".join("%.4f" % v for v in old_style.get_variable_value("w").ravel()))
try:
    tf.contrib.learn.Estimator(model_fn=model_fn, params={"learning_rate": 0.1}).fit(
        x=x, y=y, steps=1, max_steps=2)
except ValueError as e:
    print("steps and max_steps:", type(e).__name__)
