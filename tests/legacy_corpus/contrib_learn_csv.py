"""The Iris tutorial's data loading (TF 1.0-1.4 getting-started guide):
tf.contrib.learn.datasets.base.load_csv_with_header / load_csv_without_header, through
tf.contrib and through the TF1 module path of the same reader."""
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.datasets import base

folder = sys.argv[1]
IRIS_TRAINING = os.path.join(folder, "iris_training.csv")
IRIS_TEST = os.path.join(folder, "iris_test.csv")
rng = np.random.RandomState(7)
for path, n in ((IRIS_TRAINING, 12), (IRIS_TEST, 6)):
    with open(path, "w") as f:
        f.write("%d,4,setosa,versicolor,virginica\n" % n)
        for i in range(n):
            label = i % 3
            f.write(",".join("%.1f" % v for v in rng.rand(4) * 2 + label * 2) + ",%d\n" % label)

training_set = tf.contrib.learn.datasets.base.load_csv_with_header(
    filename=IRIS_TRAINING, target_dtype=np.int, features_dtype=np.float32)
test_set = base.load_csv_with_header(
    filename=IRIS_TEST, target_dtype=np.int, features_dtype=np.float32)
print("training:", training_set.data.shape, training_set.data.dtype,
      training_set.target.dtype, training_set.target.tolist())
print("first row:", training_set.data[0].tolist())
print("test targets:", test_set.target.tolist())
print("fields:", type(test_set).__name__, test_set._fields)
first_column = base.load_csv_with_header(IRIS_TEST, np.float32, np.float64, target_column=0)
print("target_column=0:", first_column.target.tolist(), first_column.data.dtype,
      first_column.data[0].tolist())
with open(os.path.join(folder, "plain.csv"), "w") as f:
    f.write("5.1,3.5,0\n6.2,2.9,1\n")
plain = tf.contrib.learn.datasets.base.load_csv_without_header(
    os.path.join(folder, "plain.csv"), target_dtype=np.int, features_dtype=np.float32)
print("without header:", plain.data.tolist(), plain.target.tolist(), plain.target.dtype)
print("datasets:", tf.contrib.learn.datasets.base.Datasets._fields)
