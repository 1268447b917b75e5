"""Tensorpack's quick start: a ModelDesc (Conv2D, MaxPooling, FullyConnected under argscope),
a DataFlow, a TrainConfig with a callback, launch_train_with_config with SimpleTrainer."""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorpack import *
from tensorpack.dataflow import BatchData, DataFromList

INIT = tf.truncated_normal_initializer(stddev=0.3, seed=3)


class Model(ModelDesc):
    def inputs(self):
        return [tf.TensorSpec((None, 8, 8, 1), tf.float32, "image"),
                tf.TensorSpec((None,), tf.int32, "label")]

    def build_graph(self, image, label):
        with argscope([Conv2D, FullyConnected], kernel_initializer=INIT):
            l = Conv2D("conv0", image, 4, kernel_size=3, activation=tf.nn.relu)
            l = MaxPooling("pool0", l, 2)
            logits = FullyConnected("fc", l, 3)
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
            logits=logits, labels=label), name="cost")

    def optimizer(self):
        return tf.train.GradientDescentOptimizer(0.1)


class PrintCost(Callback):
    def _setup_graph(self):
        self.cost = tf.get_default_graph().get_tensor_by_name("cost:0")

    def _before_run(self, _):
        return tf.train.SessionRunArgs(fetches=self.cost)

    def _after_run(self, _, values):
        print("step %d cost %.6f" % (self.global_step, values.results))


rng = np.random.RandomState(0)
data = [[rng.rand(8, 8, 1).astype(np.float32), np.int32(i % 3)] for i in range(8)]
logger.set_logger_dir(os.path.join(tempfile.mkdtemp(), "log"), action="d")
config = TrainConfig(model=Model(), dataflow=BatchData(DataFromList(data, shuffle=False), 4),
                     callbacks=[PrintCost()], extra_callbacks=[], monitors=[],
                     steps_per_epoch=2, max_epoch=2)
launch_train_with_config(config, SimpleTrainer())
print("variables:", " ".join(sorted(v.name for v in tf.global_variables())))
