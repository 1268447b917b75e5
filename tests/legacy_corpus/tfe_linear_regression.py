"""Linear regression with the TF 1.5-era eager API (TensorFlow-Examples style):
tfe.enable_eager_execution(), tfe.Variable, tfe.implicit_gradients and
tfe.implicit_value_and_gradients with a tf.train optimizer; tfe.gradients_function."""
from __future__ import absolute_import, division, print_function

import numpy as np
import tensorflow as tf
import tensorflow.contrib.eager as tfe

# Set Eager API
tfe.enable_eager_execution()

# Training Data
train_X = [3.3, 4.4, 5.5, 6.71, 6.93, 4.168, 9.779, 6.182, 7.59, 2.167,
           7.042, 10.791, 5.313, 7.997, 5.654, 9.27, 3.1]
train_Y = [1.7, 2.76, 2.09, 3.19, 1.694, 1.573, 3.366, 2.596, 2.53, 1.221,
           2.827, 3.465, 1.65, 2.904, 2.42, 2.94, 1.3]
n_samples = len(train_X)

# Parameters
learning_rate = 0.01
display_step = 100
num_steps = 1000

np.random.seed(3)
# Weight and Bias
W = tfe.Variable(np.random.randn())
b = tfe.Variable(np.random.randn())


# Linear regression (Wx + b)
def linear_regression(inputs):
    return inputs * W + b


# Mean square error
def mean_square_fn(model_fn, inputs, labels):
    return tf.reduce_sum(tf.pow(model_fn(inputs) - labels, 2)) / (2 * n_samples)


# SGD Optimizer
optimizer = tf.train.GradientDescentOptimizer(learning_rate=learning_rate)
# Compute gradients
grad = tfe.implicit_gradients(mean_square_fn)

print('executing eagerly: %s' % tfe.executing_eagerly())
print('variable type: %s' % type(W).__name__)
# Initial cost, before optimizing
print("Initial cost= {:.9f}".format(
    mean_square_fn(linear_regression, train_X, train_Y)),
    "W=", '%.6f' % W.numpy(), "b=", '%.6f' % b.numpy())

# Training
for step in range(num_steps):
    optimizer.apply_gradients(grad(linear_regression, train_X, train_Y))
    if (step + 1) % display_step == 0 or step == 0:
        print("Epoch:", '%04d' % (step + 1), "cost=",
              "{:.9f}".format(mean_square_fn(linear_regression, train_X, train_Y)),
              "W=", '%.6f' % W.numpy(), "b=", '%.6f' % b.numpy())

grads_and_vars = grad(linear_regression, train_X, train_Y)
print('grads for: %s' % ' '.join(type(v).__name__ for _, v in grads_and_vars))
value_and_grad = tfe.implicit_value_and_gradients(mean_square_fn)
value, gv = value_and_grad(linear_regression, train_X, train_Y)
print('value: %.9f grads: %s' % (value.numpy(), ' '.join('%.6f' % g.numpy() for g, _ in gv)))


def f(x, y):
    return x * x * y


print('gradients_function: %s' % [float(g) for g in tfe.gradients_function(f)(3.0, 2.0)])
print('params=[1]: %s' % [float(g) for g in tfe.gradients_function(f, params=[1])(3.0, 2.0)])
v, g = tfe.value_and_gradients_function(f)(3.0, 2.0)
print('value_and_gradients_function: %s %s' % (v.numpy(), [float(x) for x in g]))
try:
    tfe.implicit_gradients(lambda x: x * 2.0)(tf.constant(1.0))
except ValueError as e:
    print('no variables: %s' % e)
