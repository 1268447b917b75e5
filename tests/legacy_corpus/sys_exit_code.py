"""sys.exit(3) after some TF work: the exit code must be preserved by the runner."""
import sys

import tensorflow as tf

with tf.Session() as sess:
    value = sess.run(tf.reduce_sum(tf.constant([1, 2, 3])))
print('value: %d' % value)
sys.stdout.flush()
if value == 6:
    sys.exit(3)
print('not reached')
