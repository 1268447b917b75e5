"""An unavailable contrib module: tf.contrib.factorization.KMeans. Under TF 2 this must fail
with a clear error naming the symbol, saying it was removed in TF 2 and naming a replacement."""
import numpy as np
import tensorflow as tf

points = tf.constant(np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]], np.float32))
print('before contrib: built %d points' % points.get_shape().as_list()[0])
kmeans = tf.contrib.factorization.KMeans(inputs=points, num_clusters=2, use_mini_batch=False)
print('kmeans built: %s' % type(kmeans).__name__)
