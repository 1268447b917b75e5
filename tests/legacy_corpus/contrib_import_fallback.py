"""The optional-contrib import idiom: try `from tensorflow.contrib import X` and fall back on
ImportError (many 2017-2019 projects guard nccl / tensorrt / tensor_forest this way)."""
import tensorflow as tf

try:
    from tensorflow.contrib import nccl
    print('nccl: available')
except ImportError as e:
    print('nccl: unavailable')
    print('message: %s' % str(e).replace('\n', ' '))
print('still running: %g' % tf.Session().run(tf.add(1.0, 2.0)))
