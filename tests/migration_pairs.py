"""TF1 form and TF 2 form of each idiom of docs/MIGRATION.md, computed side by side.

Run as a script (``python tests/migration_pairs.py PAIR [MNIST_DIR]``) by
tests/commands/test_migration_pairs.py, in its own process with ``TF_USE_LEGACY_KERAS=1`` (what
tf1mem.run sets, so ``tf.compat.v1.layers`` and tf-slim work). Each pair builds its TF1
form in its own ``tf.Graph`` with a ``tf.compat.v1.Session`` and its TF 2 form eagerly,
and returns both results; the script prints ``[tf1, tf2]`` as JSON. The test
asserts they are equal.
"""

import gzip
import json
import os
import sys
import tempfile

import numpy as np

PAIRS = {}


def pair(fn):
    PAIRS[fn.__name__] = fn
    return fn


def _v1_run(build, fetch_init=True):
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        fetches = build()
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=graph) as sess:
        if fetch_init:
            sess.run(init)
        return sess.run(fetches)


@pair
def variables_and_initialisers():
    import tensorflow as tf

    v1 = tf.compat.v1

    def build():
        with v1.variable_scope("model"):
            w = v1.get_variable("w", shape=[2, 3], initializer=v1.constant_initializer(0.5))
            b = v1.get_variable("b", shape=[3], initializer=v1.zeros_initializer())
        return [w, b], w.name

    graph = tf.Graph()
    with graph.as_default():
        fetches, name1 = build()
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        w1, b1 = sess.run(fetches)

    class Model(tf.Module):
        def __init__(self):
            super().__init__(name="model")
            with self.name_scope:
                self.w = tf.Variable(tf.fill([2, 3], 0.5), name="w")
                self.b = tf.Variable(tf.zeros([3]), name="b")

    m = Model()
    return [[name1, w1.tolist(), b1.tolist()], [m.w.name, m.w.numpy().tolist(),
                                                 m.b.numpy().tolist()]]


def _quadratic_steps_v1(make_opt, steps=5):
    import tensorflow as tf

    v1 = tf.compat.v1

    def build():
        w = v1.get_variable("w", initializer=tf.constant([1.0, -2.0]))
        loss = tf.reduce_sum(tf.square(w - tf.constant([3.0, 0.5])))
        return w, make_opt().minimize(loss)

    graph = tf.Graph()
    with graph.as_default():
        w, train = build()
        init = v1.global_variables_initializer()
    out = []
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        for _ in range(steps):
            sess.run(train)
            out.append(sess.run(w).tolist())
    return out


def _quadratic_steps_tf2(opt, steps=5):
    import tensorflow as tf

    w = tf.Variable([1.0, -2.0])
    out = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w - tf.constant([3.0, 0.5])))
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        out.append(w.numpy().tolist())
    return out


@pair
def optimisers_adam():
    import tensorflow as tf

    return [_quadratic_steps_v1(lambda: tf.compat.v1.train.AdamOptimizer(0.1)),
            _quadratic_steps_tf2(tf.keras.optimizers.Adam(0.1, epsilon=1e-8))]


@pair
def optimisers_momentum():
    import tensorflow as tf

    return [_quadratic_steps_v1(lambda: tf.compat.v1.train.MomentumOptimizer(0.05, 0.9)),
            _quadratic_steps_tf2(tf.keras.optimizers.SGD(0.05, momentum=0.9))]


@pair
def optimisers_gradient_descent():
    import tensorflow as tf

    return [_quadratic_steps_v1(lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1)),
            _quadratic_steps_tf2(tf.keras.optimizers.SGD(0.1))]


@pair
def optimisers_clip_gradients_by_norm():
    # The TF1 form is what tf.contrib.estimator.clip_gradients_by_norm is under tf1mem.
    # The first gradient, (-4, -5), has norm 6.4: clipping to 1.0 changes every step.
    import tensorflow as tf

    from tf1mem.compat.tf.estimator import extenders

    return [_quadratic_steps_v1(lambda: extenders.clip_gradients_by_norm(
                tf.compat.v1.train.GradientDescentOptimizer(0.1), 1.0)),
            _quadratic_steps_tf2(tf.keras.optimizers.SGD(0.1, global_clipnorm=1.0))]


_X = [[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]]


def _dense_tf2():
    import tensorflow as tf

    dense = tf.keras.layers.Dense(3, activation="relu",
                                  kernel_initializer=tf.keras.initializers.Constant(0.1),
                                  bias_initializer=tf.keras.initializers.Constant(0.2))
    return dense(tf.constant(_X)).numpy().tolist()


@pair
def tflayers_dense():
    import tensorflow as tf

    v1 = tf.compat.v1
    init = v1.constant_initializer(0.1)

    def build():
        x = tf.constant(_X)
        return v1.layers.dense(x, 3, activation=tf.nn.relu, kernel_initializer=init,
                               bias_initializer=v1.constant_initializer(0.2))

    # TF 2 first: a tf_keras layer made inside a tf.Graph invalidates earlier ones
    tf2 = _dense_tf2()
    return [_v1_run(build).tolist(), tf2]


@pair
def slim_fully_connected():
    import tensorflow as tf
    import tf_slim as slim  # what tf.contrib.slim is under tf1mem

    def build():
        x = tf.constant(_X)
        return slim.fully_connected(x, 3, weights_initializer=tf.compat.v1.constant_initializer(
            0.1), biases_initializer=tf.compat.v1.constant_initializer(0.2))

    # TF 2 first: a tf_keras layer made inside a tf.Graph invalidates earlier ones
    tf2 = _dense_tf2()
    return [_v1_run(build).tolist(), tf2]


@pair
def queues_slice_batch():
    import tensorflow as tf

    v1 = tf.compat.v1
    xs = np.arange(12, dtype=np.float32).reshape(6, 2)
    graph = tf.Graph()
    with graph.as_default():
        x, = v1.train.slice_input_producer([tf.constant(xs)], shuffle=False)
        batch = v1.train.batch([x], batch_size=4)
    tf1 = []
    with v1.Session(graph=graph) as sess:
        coord = v1.train.Coordinator()
        threads = v1.train.start_queue_runners(sess, coord=coord)
        for _ in range(3):
            tf1.append(sess.run(batch).tolist())
        coord.request_stop()
        coord.join(threads)
    dataset = tf.data.Dataset.from_tensor_slices(xs).repeat().batch(4)
    tf2 = [b.numpy().tolist() for b in dataset.take(3)]
    return [tf1, tf2]


@pair
def saver_to_checkpoint():
    import tensorflow as tf

    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    graph = tf.Graph()
    with graph.as_default():
        w = v1.get_variable("w", initializer=tf.constant([1.5, 2.5]))
        saver = v1.train.Saver()
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        path = saver.save(sess, os.path.join(folder, "model.ckpt"))
        tf1 = sess.run(w).tolist()
    # TF 2: read the TF1 checkpoint by name; write and restore an object checkpoint
    loaded = tf.train.load_checkpoint(path).get_tensor("w").tolist()
    v = tf.Variable(loaded)
    ckpt = tf.train.Checkpoint(w=v)
    saved = ckpt.write(os.path.join(folder, "tf2"))
    v.assign([0.0, 0.0])
    tf.train.Checkpoint(w=v).read(saved).assert_consumed()
    return [tf1, v.numpy().tolist()]


@pair
def summaries_scalar():
    import tensorflow as tf

    v1 = tf.compat.v1
    folder1, folder2 = tempfile.mkdtemp(), tempfile.mkdtemp()
    graph = tf.Graph()
    with graph.as_default():
        value = v1.placeholder(tf.float32, [])
        summary = v1.summary.scalar("loss", value)
    with v1.Session(graph=graph) as sess:
        writer = v1.summary.FileWriter(folder1)
        for step, loss in enumerate([0.5, 0.25]):
            writer.add_summary(sess.run(summary, {value: loss}), step)
        writer.close()
    writer = tf.summary.create_file_writer(folder2)
    with writer.as_default():
        for step, loss in enumerate([0.5, 0.25]):
            # tf.summary.scalar is TensorBoard's wrapper of this core op (TensorBoard is
            # not installed here); the event holds the same tag, step and value.
            tf.summary.write("loss", tf.constant(loss, tf.float32), step=step)
    writer.close()

    def read(folder, tensor):
        found = []
        for name in sorted(os.listdir(folder)):
            for event in v1.train.summary_iterator(os.path.join(folder, name)):
                for val in event.summary.value:
                    number = (float(tf.make_ndarray(val.tensor)) if tensor
                              else val.simple_value)
                    found.append([val.tag, event.step, number])
        return found

    return [read(folder1, False), read(folder2, True)]


@pair
def gradients_tape():
    import tensorflow as tf

    def build():
        w = tf.constant([1.0, 2.0])
        y = tf.reduce_sum(w ** 3)
        return tf.compat.v1.gradients(y, w)[0]

    w = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.reduce_sum(w ** 3)
    return [_v1_run(build, fetch_init=False).tolist(), tape.gradient(y, w).numpy().tolist()]


def _idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * dims).reshape(shape)


@pair
def input_data_test_set():
    import tensorflow as tf

    from tf1mem.data import input_data

    mnist = input_data.read_data_sets(sys.argv[2], one_hot=True)
    images = _idx(os.path.join(sys.argv[2], "t10k-images-idx3-ubyte.gz"))
    labels = _idx(os.path.join(sys.argv[2], "t10k-labels-idx1-ubyte.gz"))
    # TF 2: the arrays straight into tf.data, scaled as the TF1 loader scales them
    dataset = tf.data.Dataset.from_tensor_slices(
        (images.reshape(-1, 784).astype(np.float32) / 255.0,
         tf.one_hot(labels, 10))).batch(10000)
    x2, y2 = next(iter(dataset))
    return [[mnist.test.images.shape[0], float(np.sum(mnist.test.images, dtype=np.float64)),
             float(mnist.test.labels.sum()), float(np.abs(mnist.test.images - x2).max())],
            [int(x2.shape[0]), float(np.sum(x2.numpy(), dtype=np.float64)),
             float(y2.numpy().sum()), 0.0]]


_EST_X = [[1.0, 2.0], [2.0, -1.0], [0.5, 0.5], [-1.0, 3.0]]
_EST_Y = [[3.0], [1.5], [1.0], [4.0]]
_EST_STEPS = 5


def _estimator_weights():
    """TF1: a custom model_fn Estimator (tf1mem's tf.estimator, what tf1mem.run gives a TF1
    script), full-batch gradient descent on mean squared error, from zeros."""
    import tensorflow as tf

    from tf1mem.compat.tf import estimator as tf1_estimator

    v1 = tf.compat.v1

    def model_fn(features, labels, mode):
        w = v1.get_variable("w", [2, 1], initializer=v1.zeros_initializer())
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
        pred = tf.matmul(features["x"], w) + b
        loss = v1.losses.mean_squared_error(labels, pred)
        train = v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=v1.train.get_global_step())
        return tf1_estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    def input_fn():
        data = tf.data.Dataset.from_tensors(({"x": tf.constant(_EST_X)}, tf.constant(_EST_Y)))
        return data.repeat()

    est = tf1_estimator.Estimator(model_fn, model_dir=tempfile.mkdtemp())
    est.train(input_fn, steps=_EST_STEPS)
    return [est.get_variable_value("w").ravel().tolist(),
            est.get_variable_value("b").tolist()]


@pair
def estimator_keras_fit():
    import tensorflow as tf

    tf1 = _estimator_weights()
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        1, kernel_initializer="zeros", bias_initializer="zeros", input_shape=(2,))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    model.fit(np.array(_EST_X), np.array(_EST_Y), batch_size=len(_EST_X),
              epochs=_EST_STEPS, shuffle=False, verbose=0)
    kernel, bias = model.layers[0].get_weights()
    return [tf1, [kernel.ravel().tolist(), bias.tolist()]]


@pair
def estimator_custom_loop():
    import tensorflow as tf

    tf1 = _estimator_weights()
    w, b = tf.Variable(tf.zeros([2, 1])), tf.Variable(tf.zeros([1]))
    x, y = tf.constant(_EST_X), tf.constant(_EST_Y)
    for _ in range(_EST_STEPS):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - (tf.matmul(x, w) + b)))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
    return [tf1, [w.numpy().ravel().tolist(), b.numpy().tolist()]]


if __name__ == "__main__":
    # One pair per process: tf_keras layers made inside a tf.Graph invalidate those made
    # outside it, so pairs must not share a process.
    print(json.dumps(PAIRS[sys.argv[1]]()))
