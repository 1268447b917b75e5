"""`from tensorflow.contrib import tensor_forest` with no fallback: must fail with a clear message."""
import tensorflow as tf
from tensorflow.contrib.tensor_forest.python import tensor_forest

params = tensor_forest.ForestHParams(num_classes=2, num_features=4, num_trees=2, max_nodes=10)
print('built params: %d trees' % params.num_trees)
