"""tf.contrib.image: rotate, translate, transform (output_shape), the projective
transform helpers and compose_transforms on small arrays, NEAREST and BILINEAR."""
import math

import numpy as np
import tensorflow as tf

np.set_printoptions(precision=4, suppress=True, linewidth=200)
img = np.arange(20, dtype=np.float32).reshape(4, 5)
batch = np.stack([img, img[::-1]])[..., None]          # [2, 4, 5, 1]

rot90 = tf.contrib.image.rotate(img, math.pi / 2)
rot30 = tf.contrib.image.rotate(batch, [math.pi / 6, -0.4], interpolation='BILINEAR')
rot_u8 = tf.contrib.image.rotate(tf.constant(img[None, :, :, None].astype(np.uint8)), 0.3)
shift = tf.contrib.image.translate(img[:, :, None], [1.5, -1.0], interpolation='BILINEAR')
shift_n = tf.contrib.image.translate(batch, [[1, 0], [0, 2]])
t_rot = tf.contrib.image.angles_to_projective_transforms([0.5, 1.0], 4, 5)
t_tr = tf.contrib.image.translations_to_projective_transforms([[1.0, 2.0]])
composed = tf.contrib.image.compose_transforms(t_rot[:1], t_tr)
mats = tf.contrib.image.flat_transforms_to_matrices(composed)
flat = tf.contrib.image.matrices_to_flat_transforms(mats * 2.0)
scaled = tf.contrib.image.transform(img, [0.5, 0, 0, 0, 0.5, 0, 0, 0], output_shape=[6, 7],
                                    interpolation='BILINEAR')
proj = tf.contrib.image.transform(batch, [[1, 0.2, 0, 0.1, 1, 0, 0.01, 0.02, ],
                                          [1, 0, -1, 0, 1, 0, 0, 0]])
with tf.Session() as sess:
    for name, t in [('rot90', rot90), ('rot30', rot30), ('rot_u8', rot_u8),
                    ('shift', shift), ('shift_n', shift_n), ('t_rot', t_rot), ('t_tr', t_tr),
                    ('composed', composed), ('mats', mats), ('flat', flat),
                    ('scaled', scaled), ('proj', proj)]:
        v = sess.run(t)
        print('%s %s %s %s' % (name, v.dtype, list(v.shape),
                               ' '.join('%.6f' % x for x in v.ravel())))
