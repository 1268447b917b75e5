"""A seeded tf.estimator.Estimator whose input_fn returns a tf.data.Dataset (the TF 1.13+
idiom): RunConfig(tf_random_seed=7), a tf.layers model, five steps of SGD, then evaluate and
predict. With the graph seed as its only seed, the initial weights depend on how many ops
the Estimator built before the model: TF 1.15 built the hooks' global-step read before
input_fn and three dataset-option ops before each iterator, so the printed weights, loss and
logits are TF 1.15's only if the same op count is rebuilt. (No shuffle().repeat(): TF 1.15
fused the two into a ShuffleAndRepeatDataset whose kernel draws another order from the same
seeds than TF 2.21's; README lists it.)"""
import tempfile

import numpy as np
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.ERROR)
rng = np.random.RandomState(0)
X = rng.randn(64, 3).astype(np.float32)
y = (X.sum(1) > 0).astype(np.int32)


def input_fn():
    ds = tf.data.Dataset.from_tensor_slices(({'x': X}, y))
    return ds.repeat().batch(16)


def model_fn(features, labels, mode):
    h = tf.layers.dense(features['x'], 4, activation=tf.nn.relu)
    h = tf.layers.dropout(h, rate=0.25, training=mode == tf.estimator.ModeKeys.TRAIN)
    logits = tf.layers.dense(h, 2)
    pred = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={'p': pred, 'logits': logits})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops={'acc': tf.metrics.accuracy(labels, pred)})


est = tf.estimator.Estimator(model_fn, model_dir=tempfile.mkdtemp(),
                             config=tf.estimator.RunConfig(tf_random_seed=7))
est.train(input_fn, steps=5)
for name in ('dense/kernel', 'dense_1/bias'):
    print('%s after 5 steps: %s' % (name, np.round(est.get_variable_value(name), 4).tolist()))
r = est.evaluate(lambda: tf.data.Dataset.from_tensor_slices(({'x': X}, y)).batch(32))
print('eval loss %.4f accuracy %.4f step %d' % (r['loss'], r['acc'], r['global_step']))
p = list(est.predict(lambda: tf.data.Dataset.from_tensor_slices({'x': X[:3]}).batch(3)))
print('logits: %s' % [np.round(q['logits'], 4).tolist() for q in p])
print('classes: %s' % [int(q['p']) for q in p])
