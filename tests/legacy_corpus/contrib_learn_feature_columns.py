"""tf.contrib.layers' feature columns with tf.contrib.learn's canned estimators, as the 2017
wide-and-deep tutorial used them: sparse_column_with_keys, sparse_column_with_hash_bucket and
bucketized_column in a LinearClassifier, embedding_column in a
DNNClassifier, both in a DNNLinearCombinedClassifier; features from an input_fn of
constant tensors; predict on an input_fn of constants reads one batch."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

out_dir = sys.argv[1]
layers = tf.contrib.layers
learn = tf.contrib.learn

rng = np.random.RandomState(1)
n = 48
education = np.array(["Bachelors", "HS-grad", "Masters", "Doctorate", "Some-college"])[
    rng.randint(0, 5, n)]
gender = np.array(["Female", "Male"])[rng.randint(0, 2, n)]
age = rng.uniform(18, 65, n).astype(np.float32)
label = ((age > 40) & (education != "HS-grad") | (gender == "Male") & (age > 55)).astype(
    np.int64)


def input_fn():
    features = {"education": tf.constant(education[:, None]),
                "gender": tf.constant(gender[:, None]), "age": tf.constant(age[:, None])}
    return features, tf.constant(label[:, None])


gender_col = layers.sparse_column_with_keys("gender", keys=["Female", "Male"])
education_col = layers.sparse_column_with_hash_bucket("education", hash_bucket_size=10)
age_col = layers.real_valued_column("age")
age_buckets = layers.bucketized_column(age_col, boundaries=[25, 35, 45, 55])
print("columns:", gender_col.name, education_col.name, age_buckets.name)
print("lengths:", gender_col.length, education_col.length, age_buckets.length)

wide = [gender_col, education_col, age_buckets]
linear = learn.LinearClassifier(feature_columns=wide, model_dir=os.path.join(out_dir, "wide"))
linear.fit(input_fn=input_fn, steps=50)
scores = linear.evaluate(input_fn=input_fn, steps=1)
print("wide accuracy: %.5f loss: %.5f auc: %.5f" % (scores["accuracy"], scores["loss"],
                                                   scores["auc"]))
print("wide variables:", " ".join(v for v in linear.get_variable_names()
                                  if not v.endswith(("Ftrl", "Ftrl_1"))))
print("gender weights:", " ".join("%.4f" % v for v in linear.get_variable_value(
    "linear/gender/weights").ravel()))
print("wide classes:", [int(c) for c in linear.predict_classes(input_fn=input_fn)][:12])

deep = [layers.embedding_column(education_col, dimension=3),
        layers.embedding_column(gender_col, dimension=2), age_col]
dnn = learn.DNNClassifier(feature_columns=deep, hidden_units=[6], model_dir=os.path.join(
    out_dir, "deep"), config=learn.RunConfig(tf_random_seed=2))
dnn.fit(input_fn=input_fn, steps=40)
scores = dnn.evaluate(input_fn=input_fn, steps=1)
print("deep accuracy: %.5f loss: %.5f" % (scores["accuracy"], scores["loss"]))
print("deep variables:", " ".join(v for v in dnn.get_variable_names()
                                  if not v.endswith("Adagrad")))
print("deep proba:", " ".join("%.4f" % p for p in np.ravel(
    list(dnn.predict_proba(input_fn=input_fn))[:3])))

both = learn.DNNLinearCombinedClassifier(
    linear_feature_columns=wide, dnn_feature_columns=deep, dnn_hidden_units=[6],
    model_dir=os.path.join(out_dir, "both"), config=learn.RunConfig(tf_random_seed=2))
both.fit(input_fn=input_fn, steps=40)
scores = both.evaluate(input_fn=input_fn, steps=1)
print("wide+deep keys:", " ".join(sorted(scores)))
print("wide+deep accuracy: %.5f loss: %.5f" % (scores["accuracy"], scores["loss"]))
# Both optimizers count a step (fix_global_step_increment_bug=False, TF 1.15's default), so
# fit(steps=40) stops past step 40, at 42.
print("wide+deep global_step:", scores["global_step"])
print("wide+deep variables:", " ".join(v for v in both.get_variable_names()
                                       if not v.endswith(("Adagrad", "Ftrl", "Ftrl_1"))))
print("wide+deep classes:", [int(c) for c in both.predict_classes(input_fn=input_fn)][:12])
