"""tf.data: Dataset.from_tensor_slices().map().batch() + make_one_shot_iterator, loop to OutOfRangeError."""
import numpy as np
import tensorflow as tf

features = np.arange(10, dtype=np.float32)
labels = features * 2
dataset = tf.data.Dataset.from_tensor_slices((features, labels))
dataset = dataset.map(lambda f, l: (f + 1.0, l))
dataset = dataset.filter(lambda f, l: f < 9.0)
dataset = dataset.batch(3).repeat(2)
iterator = dataset.make_one_shot_iterator()
next_f, next_l = iterator.get_next()
print('output shapes: %s' % str(dataset.output_shapes))
print('output types: %s' % str(dataset.output_types))

with tf.Session() as sess:
    n = 0
    while True:
        try:
            f, l = sess.run([next_f, next_l])
        except tf.errors.OutOfRangeError:
            break
        print('batch %d: %s | %s' % (n, ' '.join('%g' % v for v in f), ' '.join('%g' % v for v in l)))
        n += 1
    print('batches: %d' % n)
