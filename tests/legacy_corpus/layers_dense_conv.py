"""tf.layers: conv2d, max_pooling2d, flatten, dense, dropout (the TF 1.x core layers API)."""
import numpy as np
import tensorflow as tf

tf.set_random_seed(1)
images = tf.placeholder(tf.float32, [None, 8, 8, 1], name='images')
training = tf.placeholder_with_default(False, [], name='training')
conv = tf.layers.conv2d(images, filters=4, kernel_size=3, padding='same',
                        activation=tf.nn.relu,
                        kernel_initializer=tf.constant_initializer(0.1), name='conv1')
pool = tf.layers.max_pooling2d(conv, pool_size=2, strides=2)
flat = tf.layers.flatten(pool)
drop = tf.layers.dropout(flat, rate=0.5, training=training)
logits = tf.layers.dense(drop, 3, kernel_initializer=tf.constant_initializer(0.05),
                         bias_initializer=tf.constant_initializer(0.01), name='logits')
hidden = tf.layers.dense(flat, 5, activation=tf.nn.tanh, name='hidden')  # glorot init, seeded

print('conv shape: %s' % conv.get_shape().as_list())
print('pool shape: %s' % pool.get_shape().as_list())
print('flat shape: %s' % flat.get_shape().as_list())
print('logits shape: %s' % logits.get_shape().as_list())
print('trainable: %s' % ' '.join(v.name for v in tf.trainable_variables()))
n_params = sum(int(np.prod(v.get_shape().as_list())) for v in tf.trainable_variables())
print('params: %d' % n_params)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    batch = np.arange(2 * 64, dtype=np.float32).reshape(2, 8, 8, 1) / 128.0
    out, h = sess.run([logits, hidden], feed_dict={images: batch})
    print('logits[0]: %s' % ' '.join('%.5f' % v for v in out[0]))
    print('logits[1]: %s' % ' '.join('%.5f' % v for v in out[1]))
    print('hidden in (-1,1): %s' % bool((np.abs(h) < 1).all()))
