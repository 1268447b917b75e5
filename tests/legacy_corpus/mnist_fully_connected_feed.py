"""fully_connected_feed.py-style training with the tutorial mnist module and fake data."""
import sys
import time

import tensorflow as tf
from tensorflow.examples.tutorials.mnist import input_data
from tensorflow.examples.tutorials.mnist import mnist

batch_size = 100
max_steps = 10
data_dir = sys.argv[1] if len(sys.argv) > 1 else '/tmp/tensorflow/mnist/input_data'


def placeholder_inputs(batch_size):
    images_placeholder = tf.placeholder(tf.float32, shape=(batch_size, mnist.IMAGE_PIXELS))
    labels_placeholder = tf.placeholder(tf.int32, shape=(batch_size))
    return images_placeholder, labels_placeholder


def fill_feed_dict(data_set, images_pl, labels_pl):
    images_feed, labels_feed = data_set.next_batch(batch_size, True)
    return {images_pl: images_feed, labels_pl: labels_feed}


def do_eval(sess, eval_correct, images_placeholder, labels_placeholder, data_set):
    true_count = 0
    steps_per_epoch = data_set.num_examples // batch_size
    num_examples = steps_per_epoch * batch_size
    for step in range(steps_per_epoch):
        feed_dict = fill_feed_dict(data_set, images_placeholder, labels_placeholder)
        true_count += sess.run(eval_correct, feed_dict=feed_dict)
    precision = float(true_count) / num_examples
    print('Num examples: %d  Num correct: %d  Precision @ 1: %0.04f' %
          (num_examples, true_count, precision))


data_sets = input_data.read_data_sets(data_dir, fake_data=True)
with tf.Graph().as_default():
    tf.set_random_seed(0)
    images_placeholder, labels_placeholder = placeholder_inputs(batch_size)
    logits = mnist.inference(images_placeholder, 16, 8)
    loss = mnist.loss(logits, labels_placeholder)
    train_op = mnist.training(loss, 0.1)
    eval_correct = mnist.evaluation(logits, labels_placeholder)
    summary = tf.summary.merge_all()
    saver = tf.train.Saver()
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    print('trainable: %s' % ' '.join(v.op.name for v in tf.trainable_variables()))
    losses = []
    for step in range(max_steps):
        start_time = time.time()
        feed_dict = fill_feed_dict(data_sets.train, images_placeholder, labels_placeholder)
        _, loss_value = sess.run([train_op, loss], feed_dict=feed_dict)
        losses.append(loss_value)
        duration = time.time() - start_time
    print('Step %d: loss = %.2f' % (step, loss_value))
    print('loss decreased: %s' % (losses[-1] < losses[0]))
    print('global_step: %d' % sess.run(tf.train.get_global_step()))
    print('Training Data Eval:')
    do_eval(sess, eval_correct, images_placeholder, labels_placeholder, data_sets.train)
    sess.close()
