"""tf.contrib.learn's canned estimators as the 2017 Iris tutorial used them: DNNClassifier
over tf.contrib.layers.real_valued_column, fit / evaluate / predict with numpy x and y and
with an input_fn, SKCompat, evaluate(metrics=MetricSpec), then DNNRegressor,
LinearRegressor and a binary LinearClassifier, and the input errors."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

out_dir = sys.argv[1]
learn = tf.contrib.learn

# An Iris-like set: 3 classes x 4 features, 20 rows each, fixed.
rng = np.random.RandomState(0)
centers = np.array([[5.0, 3.4, 1.5, 0.2], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.6, 2.0]])
y = np.repeat(np.arange(3), 20)
x = (centers[y] + rng.normal(scale=0.3, size=(60, 4))).astype(np.float32)
def fmt(values):
    return " ".join("%.4f" % v for v in np.ravel(values))


new_samples = np.array([[6.4, 3.2, 4.5, 1.5], [5.8, 3.1, 5.0, 1.7]], dtype=np.float32)

print("inferred:", learn.infer_real_valued_columns_from_input(x))
feature_columns = [tf.contrib.layers.real_valued_column("", dimension=4)]
classifier = learn.DNNClassifier(
    feature_columns=feature_columns, hidden_units=[10, 20, 10], n_classes=3,
    model_dir=os.path.join(out_dir, "iris"), config=learn.RunConfig(tf_random_seed=1))
classifier.fit(x=x, y=y, steps=100, batch_size=16)
print("w0 after fit:", fmt(classifier.get_variable_value("dnn/hiddenlayer_0/weights")[0, :4]))
scores = classifier.evaluate(x=x, y=y, steps=1)
print("metric keys:", " ".join(sorted(scores)))
print("accuracy: %.5f loss: %.5f global_step: %d" % (
    scores["accuracy"], scores["loss"], scores["global_step"]))


def train_input_fn():
    return tf.constant(x), tf.constant(y)


classifier.fit(input_fn=train_input_fn, steps=50)
scores = classifier.evaluate(input_fn=train_input_fn, steps=1)
print("input_fn accuracy: %.5f loss: %.5f global_step: %d" % (
    scores["accuracy"], scores["loss"], scores["global_step"]))
predictions = classifier.predict(x=new_samples, as_iterable=True)
print("predict is a generator:", not isinstance(predictions, (list, np.ndarray)))
print("predictions:", [int(p) for p in predictions])
print("predict_classes:", [int(p) for p in classifier.predict_classes(x=new_samples)])
print("proba:", fmt(list(classifier.predict_proba(x=new_samples))))
print("variables:", " ".join(classifier.get_variable_names()))
print("checkpoints:", sorted(f for f in os.listdir(os.path.join(out_dir, "iris"))
                             if f.endswith(".index")))

print("classes as array:", classifier.predict(x=new_samples, as_iterable=False).tolist())
print("proba as array:", fmt(classifier.predict_proba(x=new_samples, as_iterable=False)))
sk = learn.SKCompat(classifier)
sk.fit(x, y, steps=10)
scores = sk.score(x, y)
print("skcompat score: accuracy %.5f loss %.5f global_step %d" % (
    scores["accuracy"], scores["loss"], scores["global_step"]))
sk_predictions = sk.predict(new_samples)
print("skcompat predict:", " ".join(sorted(sk_predictions)), sk_predictions["classes"].tolist(),
      fmt(sk_predictions["logits"]))

metrics = {"my_accuracy": learn.MetricSpec(metric_fn=tf.contrib.metrics.streaming_accuracy,
                                           prediction_key=learn.PredictionKey.CLASSES)}
scores = classifier.evaluate(x=x, y=y, steps=1, metrics=metrics)
print("with MetricSpec:", " ".join(sorted(scores)), "%.5f" % scores["my_accuracy"])

# Regression: petal width from the other three features.
reg_x, reg_y = x[:, :3], x[:, 3]
reg_columns = learn.infer_real_valued_columns_from_input(reg_x)
regressor = learn.DNNRegressor(feature_columns=reg_columns, hidden_units=[8, 4],
                               model_dir=os.path.join(out_dir, "dnnreg"),
                               config=learn.RunConfig(tf_random_seed=1))
regressor.fit(x=reg_x, y=reg_y, steps=60, batch_size=20)
scores = regressor.evaluate(x=reg_x, y=reg_y, steps=1)
print("dnn regressor keys:", " ".join(sorted(scores)))
print("dnn regressor loss: %.5f" % scores["loss"])
scores = regressor.evaluate(x=reg_x, y=reg_y, steps=1, metrics={
    "mae": learn.MetricSpec(metric_fn=tf.metrics.mean_absolute_error)})
print("dnn regressor mae: %.5f" % scores["mae"])
print("dnn regressor predict:", fmt(list(regressor.predict_scores(x=new_samples[:, :3]))))
print("dnn regressor variables:", " ".join(regressor.get_variable_names()))

linear = learn.LinearRegressor(feature_columns=reg_columns,
                               model_dir=os.path.join(out_dir, "linreg"))
linear.fit(x=reg_x, y=reg_y, steps=100)
scores = linear.evaluate(x=reg_x, y=reg_y, steps=1)
print("linear regressor loss: %.5f step: %d" % (scores["loss"], scores["global_step"]))
print("linear regressor predict:", fmt(list(linear.predict(x=new_samples[:, :3]))))
print("linear regressor variables:", " ".join(linear.get_variable_names()))

binary_y = (y == 2).astype(np.int64)
binary = learn.LinearClassifier(feature_columns=feature_columns,
                                model_dir=os.path.join(out_dir, "linclf"))
binary.fit(x=x, y=binary_y, steps=100)
scores = binary.evaluate(x=x, y=binary_y, steps=1)
print("binary keys:", " ".join(sorted(scores)))
print("binary accuracy: %.5f auc: %.5f loss: %.5f" % (scores["accuracy"], scores["auc"],
                                                     scores["loss"]))
print("binary predict:", [int(p) for p in binary.predict(x=new_samples)],
      fmt(list(binary.predict_proba(x=new_samples))))
print("binary variables:", " ".join(binary.get_variable_names()))

for what, call in [("no input", lambda: classifier.fit(steps=1)),
                   ("x and input_fn", lambda: classifier.fit(x=x, y=y, input_fn=train_input_fn)),
                   ("steps and max_steps", lambda: classifier.fit(x=x, y=y, steps=1, max_steps=5))]:
    try:
        call()
    except ValueError as e:
        print(what + ":", type(e).__name__)
