import tensorflow as tf


def test_sum_of_constants(sess):
    total = sess.run(tf.reduce_sum(tf.constant([1.0, 2.0])))
    assert total == 4.0
