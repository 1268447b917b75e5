"""K-Means on MNIST with tf.contrib.factorization.KMeans (the TensorFlow-Examples style):
training_graph(), init_op, Lloyd iterations, then each cluster labelled by its majority class.
Argument: the MNIST_data folder. A 1000-image subset keeps it fast."""
from __future__ import print_function

import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib.factorization import KMeans
from tensorflow.examples.tutorials.mnist import input_data

mnist = input_data.read_data_sets(sys.argv[1], one_hot=True)
full_data_x = mnist.test.images[:1000]
labels = mnist.test.labels[:1000]

num_steps = 8
k = 10
num_classes = 10
num_features = 784


def run(distance_metric, initial_clusters):
    with tf.Graph().as_default():
        X = tf.placeholder(tf.float32, shape=[None, num_features])
        kmeans = KMeans(inputs=X, num_clusters=k, distance_metric=distance_metric,
                        initial_clusters=initial_clusters, use_mini_batch=False)
        training_graph = kmeans.training_graph()
        if len(training_graph) > 6:  # Tensorflow 1.4+
            (all_scores, cluster_idx, scores, cluster_centers_initialized,
             cluster_centers_var, init_op, train_op) = training_graph
        else:
            (all_scores, cluster_idx, scores, cluster_centers_initialized,
             init_op, train_op) = training_graph
        cluster_idx = cluster_idx[0]  # fix for cluster_idx being a tuple
        avg_distance = tf.reduce_mean(scores)
        init_vars = tf.global_variables_initializer()
        sess = tf.Session()
        sess.run(init_vars, feed_dict={X: full_data_x})
        sess.run(init_op, feed_dict={X: full_data_x})
        print('%s/%s initialized: %s' % (distance_metric, initial_clusters,
                                         sess.run(cluster_centers_initialized)))
        print('variables: %s' % ' '.join(v.op.name for v in tf.global_variables()))
        distances = []
        for i in range(1, num_steps + 1):
            _, d, idx = sess.run([train_op, avg_distance, cluster_idx],
                                 feed_dict={X: full_data_x})
            distances.append(d)
        print('avg distances: %s' % ' '.join('%.4f' % d for d in distances))
        print('cluster sizes: %s' % ' '.join(str(c) for c in np.bincount(idx, minlength=k)))
        counts = np.zeros(shape=(k, num_classes))
        for i in range(len(idx)):
            counts[idx[i]] += labels[i]
        labels_map = [np.argmax(c) for c in counts]
        labels_map = tf.convert_to_tensor(labels_map)
        cluster_label = tf.nn.embedding_lookup(labels_map, cluster_idx)
        correct_prediction = tf.equal(cluster_label, tf.cast(tf.argmax(labels, 1), tf.int32))
        accuracy_op = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
        print('accuracy: %.4f' % sess.run(accuracy_op, feed_dict={X: full_data_x}))
        centers = sess.run(tf.global_variables()[0])
        print('centers shape: %s sum: %.3f' % (list(centers.shape), centers.sum()))
        sess.close()


run('squared_euclidean', 'random')
run('cosine', 'kmeans_plus_plus')
