"""TensorNets' quick start: a model graph on a placeholder (MobileNet25, random weights: no
download), its preprocessing, and a forward pass in a Session."""
import numpy as np
import tensorflow as tf
import tensornets as nets

tf.set_random_seed(1)
inputs = tf.placeholder(tf.float32, [None, 96, 96, 3])
model = nets.MobileNet25(inputs, is_training=False, classes=10)
print("output:", model.shape.as_list(), model.name)
print("weights:", len(model.get_weights()))
print("params:", sum(int(np.prod(w.shape.as_list())) for w in model.get_weights()))
print("middles:", len(model.get_middles()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    img = np.linspace(0, 1, 96 * 96 * 3, dtype=np.float32).reshape(1, 96, 96, 3) * 255
    probs = sess.run(model, {inputs: model.preprocess(img)})
    print("probs:", probs.shape, "sum %.4f" % probs.sum())
