"""tf.contrib.factorization.GMM, the (contrib.learn) estimator, on deterministic 2-D blobs:
fit(input_fn, steps) with full and diagonal covariances, weights(), clusters(), covariances(),
predict_assignments(), score(); given initial means with params='mc'; then the graph-level
tf.contrib.factorization.gmm(...) six-tuple in a Session. Argument: a folder for the model_dirs."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf

base_dir = sys.argv[1]
rng = np.random.RandomState(0)
points = np.concatenate([
    rng.multivariate_normal([0., 0.], [[1., 0.6], [0.6, 1.]], 25),
    rng.multivariate_normal([6., 2.], [[0.5, 0.], [0., 2.]], 25),
    rng.multivariate_normal([1., 7.], [[1.5, -0.5], [-0.5, 0.8]], 25)]).astype(np.float32)


def train_input_fn():
    return tf.constant(points), None


def eval_input_fn():
    return tf.train.limit_epochs(tf.constant(points), num_epochs=1), None


def fmt(a):
    return ' '.join('%.4f' % v for v in np.ravel(a))


for covariance_type in ['full', 'diag']:
    gmm = tf.contrib.factorization.GMM(num_clusters=3, random_seed=3,
                                       covariance_type=covariance_type,
                                       model_dir=os.path.join(base_dir, covariance_type))
    gmm.fit(input_fn=train_input_fn, steps=1)
    print('%s after 1 step weights:' % covariance_type, fmt(gmm.weights()))
    gmm.fit(input_fn=train_input_fn, steps=19)
    print('%s weights:' % covariance_type, fmt(gmm.weights()))
    print('%s clusters:' % covariance_type, gmm.clusters().shape, fmt(gmm.clusters()))
    print('%s covariances:' % covariance_type, gmm.covariances().shape, fmt(gmm.covariances()))
    assignments = list(gmm.predict_assignments(input_fn=eval_input_fn))
    print('%s assignments:' % covariance_type, ''.join(str(a) for a in assignments))
    print('%s score: %.4f' % (covariance_type, gmm.score(input_fn=train_input_fn, steps=1)))
    print('%s global step:' % covariance_type, gmm.get_variable_value('global_step'))
print('variables:', gmm.get_variable_names())
print('clusters variable:', gmm.get_variable_value('clusters').shape)

# Given initial means; the weights stay fixed (params='mc').
fixed = tf.contrib.factorization.GMM(
    num_clusters=3, model_dir=os.path.join(base_dir, 'fixed'), params='mc',
    initial_clusters=np.array([[1., 1.], [5., 0.], [0., 5.]], np.float32))
fixed.fit(input_fn=train_input_fn, steps=5)
print('mc weights:', fmt(fixed.weights()))
print('mc clusters:', fmt(fixed.clusters()))
results = fixed.evaluate(input_fn=train_input_fn, steps=1)
print('mc evaluate:', sorted(results), 'loss=%.4f' % results['loss'],
      'scores:', np.shape(results['scores']), '%.4f' % np.sum(results['scores']))
predictions = list(fixed.predict(input_fn=eval_input_fn))
print('mc predict:', len(predictions), sorted(predictions[0]))

# The graph-level op: (loss, scores, assignments, training_op, init_op, is_initialized).
with tf.Graph().as_default():
    data = tf.placeholder(tf.float32, [None, 2])
    loss, scores, assignments, train_op, init_op, is_initialized = \
        tf.contrib.factorization.gmm(data, 'random', 3, 1, covariance_type='diag')
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(init_op, {data: points})
        print('gmm initialized:', sess.run(is_initialized))
        print('gmm variables:', ' '.join(v.op.name for v in tf.global_variables()))
        losses = []
        for _ in range(8):
            _, l = sess.run([train_op, loss], {data: points})
            losses.append(l)
        print('gmm losses:', fmt(losses))
        s, a = sess.run([scores, assignments], {data: points})
        print('gmm scores:', np.shape(s), '%.4f' % np.sum(s))
        print('gmm assignments:', ''.join(str(v) for v in np.ravel(a)))

try:
    bad = tf.contrib.factorization.GMM(num_clusters=2, covariance_type='spherical',
                                       model_dir=os.path.join(base_dir, 'bad'))
    bad.fit(input_fn=train_input_fn, steps=1)
except Exception as e:
    print('bad covariance_type:', type(e).__name__, e)
