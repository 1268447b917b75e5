"""An MNIST classifier in the TF 1.5-1.7 eager style (tensorflow/contrib/eager/python/examples/
mnist): a tfe.Network subclass with track_layer, tfe.Iterator over tf.data,
optimizer.minimize(callable), tfe.metrics.Mean/Accuracy, tfe.Saver save and restore.
Arguments: the MNIST_data folder, a checkpoint folder. 2000 training images keep it fast."""
from __future__ import absolute_import, division, print_function

import functools
import os
import sys

import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data

tfe = tf.contrib.eager
tfe.enable_eager_execution()
tf.set_random_seed(0)


class MNISTModel(tfe.Network):
    """A two-layer perceptron, as a tfe.Network."""

    def __init__(self):
        super(MNISTModel, self).__init__(name='mnist_model')
        init = tf.glorot_uniform_initializer(seed=1)
        self.fc1 = self.track_layer(tf.layers.Dense(64, activation=tf.nn.relu,
                                                    kernel_initializer=init))
        self.fc2 = self.track_layer(tf.layers.Dense(10, kernel_initializer=init))
        self.dropout = self.track_layer(tf.layers.Dropout(0.5))

    def call(self, inputs, training=False):
        x = self.fc1(inputs)
        if training:
            x = self.dropout(x, training=False)  # dropout off: keeps the run deterministic
        return self.fc2(x)


def loss(predictions, labels):
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
        logits=predictions, labels=labels))


def compute_accuracy(predictions, labels):
    return tf.reduce_sum(tf.cast(tf.equal(
        tf.argmax(predictions, axis=1, output_type=tf.int64),
        tf.argmax(labels, axis=1, output_type=tf.int64)), dtype=tf.float32)) / float(
            predictions.shape[0].value)


def train_one_epoch(model, optimizer, dataset, log_interval=None):
    tf.train.get_or_create_global_step()

    def model_loss(labels, images):
        prediction = model(images, training=True)
        return loss(prediction, labels)

    for (batch, (images, labels)) in enumerate(tfe.Iterator(dataset)):
        batch_model_loss = functools.partial(model_loss, labels, images)
        optimizer.minimize(batch_model_loss, global_step=tf.train.get_global_step())
        if log_interval and batch % log_interval == 0:
            print('Batch #%d\tLoss: %.6f' % (batch, batch_model_loss()))


def test(model, dataset):
    avg_loss = tfe.metrics.Mean('loss')
    accuracy = tfe.metrics.Accuracy('accuracy')
    for (images, labels) in tfe.Iterator(dataset):
        predictions = model(images, training=False)
        avg_loss(loss(predictions, labels))
        accuracy(tf.argmax(predictions, axis=1, output_type=tf.int64),
                 tf.argmax(labels, axis=1, output_type=tf.int64))
    print('Test set: Average loss: %.4f, Accuracy: %4f%%' %
          (avg_loss.result(), 100 * accuracy.result()))
    return accuracy.result()


mnist = input_data.read_data_sets(sys.argv[1], one_hot=True)
train_ds = tf.data.Dataset.from_tensor_slices(
    (mnist.train.images[:2000], mnist.train.labels[:2000])).batch(100)
test_ds = tf.data.Dataset.from_tensor_slices(
    (mnist.test.images[:1000], mnist.test.labels[:1000])).batch(500)

model = MNISTModel()
optimizer = tf.train.MomentumOptimizer(0.05, 0.9)
print('executing eagerly: %s' % tf.executing_eagerly())
for epoch in range(2):
    train_one_epoch(model, optimizer, train_ds, log_interval=10)
    acc = test(model, test_ds)
print('global step: %d' % tf.train.get_global_step().numpy())
print('network: %s layers %d' % (model.name, len(model.layers)))
print('variables: %s' % ' '.join(v.name for v in model.variables))
print('trainable: %d' % len(model.trainable_variables))
print('metric result dtype: %s' % acc.dtype.name)

checkpoint_prefix = os.path.join(sys.argv[2], 'ckpt')
saver = tfe.Saver(model.variables)
path = saver.save(checkpoint_prefix, global_step=tf.train.get_global_step())
print('saved: %s' % os.path.basename(path))
for v in model.variables:
    v.assign(tf.zeros_like(v))
test(model, test_ds)
saver.restore(path)
test(model, test_ds)
print('checkpoint variables: %s' % ' '.join(
    name for name, _ in tf.train.list_variables(path)))
