"""tf.contrib.factorization.KMeansClustering, the estimator, as in TF 1.x's docs example: an
input_fn returning limit_epochs(convert_to_tensor(points), num_epochs=1), train() in a loop
(one full-batch Lloyd iteration per call), cluster_centers(), score(), predict_cluster_index(),
transform(), evaluate(); then the mini-batch default with given initial centres, k-means++ with
the cosine distance, and relative_tolerance. Argument: a folder for the model_dirs."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

base_dir = sys.argv[1]
rng = np.random.RandomState(42)
means = np.array([[0., 0.], [6., 1.], [2., 7.]])
points = np.concatenate([rng.normal(m, 1.0, size=(20, 2)) for m in means]).astype(np.float32)


def input_fn():
    return tf.train.limit_epochs(tf.convert_to_tensor(points, dtype=tf.float32), num_epochs=1)


def fmt(a):
    return ' '.join('%.4f' % v for v in np.ravel(a))


kmeans = tf.contrib.factorization.KMeansClustering(
    num_clusters=3, model_dir=os.path.join(base_dir, 'full'), use_mini_batch=False)
previous_centers = None
for i in range(5):
    kmeans.train(input_fn)
    cluster_centers = kmeans.cluster_centers()
    if previous_centers is not None:
        print('iteration %d delta: %.4f' % (i, np.abs(cluster_centers - previous_centers).max()))
    previous_centers = cluster_centers
    print('iteration %d score: %.4f' % (i, kmeans.score(input_fn)))
print('cluster centers:', fmt(cluster_centers))
print('global step:', kmeans.get_variable_value('global_step'))
print('variables:', kmeans.get_variable_names())
cluster_indices = list(kmeans.predict_cluster_index(input_fn))
print('cluster indices:', ' '.join(str(c) for c in cluster_indices))
print('cluster sizes:', np.bincount(cluster_indices, minlength=3).tolist())
distances = list(kmeans.transform(input_fn))
print('transform:', len(distances), distances[0].shape, fmt(distances[0]))
assert np.allclose(np.min(distances, axis=1),
                   np.sum((points - cluster_centers[cluster_indices]) ** 2, axis=1), atol=1e-3)
metrics = kmeans.evaluate(input_fn)
print('evaluate:', sorted(metrics), 'score=%.4f loss=%.4f step=%d' % (
    metrics['score'], metrics['loss'], metrics['global_step']))
predictions = next(kmeans.predict(input_fn))
print('predict keys:', sorted(predictions))

# The default, use_mini_batch=True: a batch-by-batch update of the centres, from given centres.
mini = tf.contrib.factorization.KMeansClustering(
    num_clusters=3, model_dir=os.path.join(base_dir, 'mini'),
    initial_clusters=np.array([[1., 1.], [5., 0.], [3., 6.]], np.float32))


def batches_fn():
    dataset = tf.data.Dataset.from_tensor_slices(points).batch(15)
    return dataset.make_one_shot_iterator().get_next()


mini.train(batches_fn)
print('mini-batch centers:', fmt(mini.cluster_centers()))
print('mini-batch variables:', mini.get_variable_names())
print('mini-batch score: %.4f' % mini.score(input_fn))

# k-means++ with the cosine distance, and a relative tolerance that stops training early.
cos = tf.contrib.factorization.KMeansClustering(
    num_clusters=2, model_dir=os.path.join(base_dir, 'cosine'), use_mini_batch=False,
    initial_clusters=tf.contrib.factorization.KMeansClustering.KMEANS_PLUS_PLUS_INIT,
    distance_metric=tf.contrib.factorization.KMeansClustering.COSINE_DISTANCE,
    relative_tolerance=1e-4, random_seed=3)
cos.train(lambda: tf.convert_to_tensor(points), steps=20)
print('cosine step:', cos.get_variable_value('global_step'))
print('cosine centers:', fmt(cos.cluster_centers()))
print('cosine score: %.4f' % cos.score(input_fn))

try:
    tf.contrib.factorization.KMeansClustering(num_clusters=2, distance_metric='manhattan')
except ValueError as e:
    print('ValueError:', e)
