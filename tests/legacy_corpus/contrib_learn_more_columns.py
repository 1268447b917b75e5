"""tf.contrib.layers' other feature columns (TF 1.15): sparse_column_with_integerized_feature,
sparse_column_with_vocabulary_file, weighted_sparse_column, one_hot_column,
shared_embedding_columns and crossed_column, through input_from_feature_columns and
weighted_sum_from_feature_columns and in tf.contrib.learn's LinearClassifier, DNNClassifier
and DNNLinearCombinedClassifier; a small seeded dataset from constant tensors."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

out_dir = sys.argv[1]
layers = tf.contrib.layers
learn = tf.contrib.learn

vocab_file = os.path.join(out_dir, "cities.txt")
with open(vocab_file, "w") as f:
    f.write("Paris\nLima\nOslo\nCairo\n")

rng = np.random.RandomState(3)
n = 40
city = np.array(["Paris", "Lima", "Oslo", "Cairo", "Quito", "Rome"])[rng.randint(0, 6, n)]
device = rng.randint(0, 9, n).astype(np.int64)
gender = np.array(["F", "M"])[rng.randint(0, 2, n)]
age = rng.uniform(18, 70, n).astype(np.float32)
tag_names = np.array(["red", "green", "blue", "gold"])
tag_rows, tag_values, tag_weights = [], [], []
for row in range(n):
    for position, tag in enumerate(sorted(set(rng.randint(0, 4, 2)))):
        tag_rows.append([row, position])
        tag_values.append(tag_names[tag])
        tag_weights.append(round(rng.uniform(0.5, 2.0), 2))
label = (((age > 45) & (city != "Lima")) | (device % 3 == 0)).astype(np.int64)


def features():
    tags = tf.SparseTensor(tag_rows, tag_values, [n, 2])
    return {"city": tf.constant(city[:, None]), "device": tf.constant(device[:, None]),
            "gender": tf.constant(gender[:, None]), "age": tf.constant(age[:, None]),
            "tags": tags, "tag_w": tf.SparseTensor(tag_rows, np.float32(tag_weights), [n, 2])}


def input_fn():
    return features(), tf.constant(label[:, None])


city_col = layers.sparse_column_with_vocabulary_file("city", vocab_file, num_oov_buckets=2,
                                                     vocab_size=4)
device_col = layers.sparse_column_with_integerized_feature("device", bucket_size=5)
gender_col = layers.sparse_column_with_keys("gender", keys=["F", "M"])
tags_col = layers.sparse_column_with_hash_bucket("tags", hash_bucket_size=8)
weighted_tags = layers.weighted_sparse_column(tags_col, "tag_w")
age_col = layers.real_valued_column("age")
age_buckets = layers.bucketized_column(age_col, boundaries=[30, 45, 60])
city_x_gender = layers.crossed_column([city_col, gender_col], hash_bucket_size=50)
age_x_city_x_device = layers.crossed_column([age_buckets, city_col, device_col],
                                            hash_bucket_size=1000)
keyed_cross = layers.crossed_column([tags_col, gender_col], hash_bucket_size=64, hash_key=7)
one_hot_device = layers.one_hot_column(device_col)
shared = layers.shared_embedding_columns(
    [device_col, layers.sparse_column_with_integerized_feature("device2", bucket_size=5)],
    dimension=2)
print("names:", city_col.name, device_col.name, weighted_tags.name, one_hot_device.name,
      city_x_gender.name, age_x_city_x_device.name, keyed_cross.name,
      " ".join(c.name for c in shared))
print("lengths:", city_col.length, device_col.length, weighted_tags.length,
      one_hot_device.length, city_x_gender.length, age_x_city_x_device.length)
print("shared name:", shared[0].shared_embedding_name, type(shared).__name__)
print(repr(device_col))
print(repr(keyed_cross))

# The ids: with a [length, 1] weight of 0, 1, 2, ... for one column (zeros for the others),
# an example's sum is the sum of its ids (times their weights, for a weighted column).
with tf.Graph().as_default():
    feats = features()
    columns = [city_x_gender, age_x_city_x_device, keyed_cross, city_col, device_col,
               weighted_tags]
    out, column_to_variable, bias = layers.weighted_sum_from_feature_columns(
        feats, columns, num_outputs=1)
    print("weighted sum:", out.shape.as_list(), out.dtype.name, bias.op.name,
          type(column_to_variable).__name__)
    print("column variables:", " ".join(
        "%s=%s" % (c.name, ",".join(v.op.name for v in column_to_variable[c]))
        for c in sorted(column_to_variable, key=lambda c: c.name)))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        for column in columns:
            for other in columns:
                variable = column_to_variable[other][0]
                sess.run(tf.assign(variable, np.arange(other.length, dtype=np.float32)[
                    :, None] if other is column else tf.zeros_like(variable)))
            print("ids %s:" % column.name, " ".join("%g" % v for v in sess.run(out).ravel()[:16]))

with tf.Graph().as_default():
    tf.set_random_seed(5)
    feats = features()
    deep = [one_hot_device, layers.embedding_column(city_col, dimension=3),
            layers.embedding_column(weighted_tags, dimension=2, combiner="sqrtn"),
            age_col] + list(shared[:1])
    net = layers.input_from_feature_columns(feats, deep)
    print("input layer:", net.shape.as_list(), "ops:", len(tf.get_default_graph().get_operations()))
    print("input variables:", " ".join(v.op.name for v in tf.global_variables()))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        value = sess.run(net)
    for row in range(3):
        print("input row %d:" % row, " ".join("%.4f" % v for v in value[row]))

wide = [city_x_gender, age_x_city_x_device, weighted_tags, device_col, city_col]
linear = learn.LinearClassifier(feature_columns=wide, model_dir=os.path.join(out_dir, "wide"))
linear.fit(input_fn=input_fn, steps=30)
scores = linear.evaluate(input_fn=input_fn, steps=1)
print("wide accuracy: %.5f loss: %.5f" % (scores["accuracy"], scores["loss"]))
print("wide variables:", " ".join(v for v in linear.get_variable_names()
                                  if not v.endswith(("Ftrl", "Ftrl_1"))))
print("cross weights:", " ".join("%.4f" % v for v in linear.get_variable_value(
    "linear/city_X_gender/weights").ravel()[:10]))
print("wide classes:", [int(c) for c in linear.predict_classes(input_fn=input_fn)][:12])

deep = [one_hot_device, layers.embedding_column(city_col, dimension=3),
        layers.embedding_column(weighted_tags, dimension=2), age_col]
dnn = learn.DNNClassifier(feature_columns=deep, hidden_units=[5], model_dir=os.path.join(
    out_dir, "deep"), config=learn.RunConfig(tf_random_seed=4))
dnn.fit(input_fn=input_fn, steps=30)
scores = dnn.evaluate(input_fn=input_fn, steps=1)
print("deep accuracy: %.5f loss: %.5f" % (scores["accuracy"], scores["loss"]))
print("deep variables:", " ".join(v for v in dnn.get_variable_names()
                                  if not v.endswith("Adagrad")))
print("deep proba:", " ".join("%.4f" % p for p in np.ravel(
    list(dnn.predict_proba(input_fn=input_fn))[:3])))

both = learn.DNNLinearCombinedClassifier(
    linear_feature_columns=[city_x_gender, weighted_tags, device_col],
    dnn_feature_columns=[one_hot_device] + list(shared[:1]) + [age_col],
    dnn_hidden_units=[4], model_dir=os.path.join(out_dir, "both"),
    config=learn.RunConfig(tf_random_seed=4))
both.fit(input_fn=input_fn, steps=20)
scores = both.evaluate(input_fn=input_fn, steps=1)
print("wide+deep accuracy: %.5f loss: %.5f" % (scores["accuracy"], scores["loss"]))
print("wide+deep global_step:", scores["global_step"])
print("wide+deep variables:", " ".join(v for v in both.get_variable_names()
                                       if not v.endswith(("Adagrad", "Ftrl", "Ftrl_1"))))
print("wide+deep classes:", [int(c) for c in both.predict_classes(input_fn=input_fn)][:12])
