"""`from tensorflow.contrib.bayesflow.python.ops import monte_carlo` with no fallback: must fail
with a clear message."""
import tensorflow as tf
from tensorflow.contrib.bayesflow.python.ops import monte_carlo

print('monte_carlo.expectation callable: %s' % callable(monte_carlo.expectation))
