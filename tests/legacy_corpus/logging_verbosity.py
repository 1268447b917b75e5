"""tf.logging: set_verbosity(INFO), info/warning/debug; debug must be filtered out."""
import tensorflow as tf

tf.logging.set_verbosity(tf.logging.INFO)
tf.logging.info('corpus info message %d', 42)
tf.logging.warning('corpus warning message')
tf.logging.debug('corpus debug message should not appear')
print('verbosity is INFO: %s' % (tf.logging.get_verbosity() == tf.logging.INFO))
tf.logging.set_verbosity(tf.logging.ERROR)
tf.logging.info('corpus info after ERROR should not appear')
print('done')
