"""tf.contrib.resampler and tf.contrib.image.dense_image_warp: bilinear sampling as
depth-from-video and optical-flow models used it (a view synthesised from pixel
coordinates, an image warped by a flow), with the gradients a training step takes."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=4, suppress=True)
data = np.arange(2 * 3 * 4 * 2, dtype=np.float32).reshape(2, 3, 4, 2)
points = np.array([[-1.0, 0.0], [-0.5, 0.0], [-0.999, 1.0], [0.0, 0.0], [3.0, 2.0],
                   [3.5, 1.25], [3.999, 2.0], [4.0, 2.0], [1.5, -0.5], [1.25, 2.75],
                   [2.0, 3.0], [0.3, 0.7]], np.float32)
warp = np.stack([points, points[::-1]]).reshape(2, 3, 4, 2)  # [batch, 3, 4, (x, y)]

d = tf.placeholder(tf.float32, [None, 3, 4, 2])
w = tf.Variable(warp)
sampled = tf.contrib.resampler.resampler(d, w)
print("resampled shape:", sampled.shape.as_list())
loss = tf.reduce_sum(sampled * 1.5)
grad_data, grad_warp = tf.gradients(loss, [d, w])
step = tf.train.GradientDescentOptimizer(0.01).minimize(tf.reduce_mean(tf.square(sampled - 5.0)))

rng = np.random.RandomState(0)
image = rng.rand(2, 4, 5, 3).astype(np.float32)
flow = (rng.randn(2, 4, 5, 2) * 2).astype(np.float32)
img = tf.placeholder(tf.float32, [None, None, None, 3])
flw = tf.placeholder(tf.float32, [None, None, None, 2])
warped = tf.contrib.image.dense_image_warp(img, flw)
g_img, g_flow = tf.gradients(tf.reduce_sum(warped ** 2), [img, flw])
static = tf.contrib.image.dense_image_warp(tf.constant(image), tf.constant(flow))
print("warped shape:", static.shape.as_list())

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    out, gd, gw = sess.run([sampled, grad_data, grad_warp], {d: data})
    print("resampled batch 0:")
    print(out[0].reshape(-1, 2))
    print("resampled batch 1 sum: %.4f" % out[1].sum())
    print("grad warp batch 0:")
    print(gw[0].reshape(-1, 2))
    print("grad data sum: %.4f" % gd.sum())
    print("grad data [0, :, :, 0]:")
    print(gd[0, :, :, 0])
    before = sess.run(tf.reduce_mean(tf.square(sampled - 5.0)), {d: data})
    for _ in range(3):
        sess.run(step, {d: data})
    after = sess.run(tf.reduce_mean(tf.square(sampled - 5.0)), {d: data})
    print("loss: %.4f -> %.4f" % (before, after))
    o, o2, gi, gf = sess.run([warped, static, g_img, g_flow], {img: image, flw: flow})
    print("static equals fed:", np.abs(o - o2).max() < 1e-6)
    print("warped [0, :, :, 0]:")
    print(o[0, :, :, 0])
    print("warped sum: %.4f" % o.sum())
    print("grad flow [1, :, :, 1]:")
    print(gf[1, :, :, 1])
    print("grad image sum: %.4f" % gi.sum())
