"""tf.contrib.tfprof as 2017 training scripts used it: print_model_analysis with
TRAINABLE_VARS_PARAMS_STAT_OPTIONS to count parameters (the report on stdout and
`param_stats.total_parameters`), the default options, FLOAT_OPS_OPTIONS on a graph with
known shapes, the 'op' view, tfprof_logger.write_op_log; the option dicts' contents."""
import os
import sys

import tensorflow as tf

x = tf.placeholder(tf.float32, [8, 4])
with tf.variable_scope('layer1'):
    w = tf.get_variable('w', [4, 3])
    b = tf.get_variable('b', [3], initializer=tf.zeros_initializer())
y = tf.matmul(x, w) + b
with tf.variable_scope('layer2'):
    w2 = tf.get_variable('w', [3, 2])
steps = tf.Variable(0, trainable=False, name='steps')
z = tf.matmul(y, w2)
opts = tf.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
print('options:', sorted(opts.items()))
print('float options select:', tf.contrib.tfprof.model_analyzer.FLOAT_OPS_OPTIONS['select'])
sys.stdout.flush()
param_stats = tf.contrib.tfprof.model_analyzer.print_model_analysis(
    tf.get_default_graph(), tfprof_options=opts)
sys.stdout.flush()
print('total_params: %d' % param_stats.total_parameters)
print('children:', [c.name for c in param_stats.children])
print('layer1 children:', [(c.name, c.parameters) for c in param_stats.children[0].children])
print('type:', type(param_stats).__name__)
sys.stdout.flush()
flops = tf.contrib.tfprof.model_analyzer.print_model_analysis(
    tf.get_default_graph(), tfprof_options=tf.contrib.tfprof.model_analyzer.FLOAT_OPS_OPTIONS)
sys.stdout.flush()
print('float ops:', flops.total_float_ops)
sys.stdout.flush()
default = tf.contrib.tfprof.model_analyzer.print_model_analysis(tf.get_default_graph())
sys.stdout.flush()
print('default total_parameters:', default.total_parameters)
sys.stdout.flush()
by_op = tf.contrib.tfprof.model_analyzer.print_model_analysis(
    tf.get_default_graph(), tfprof_cmd='op', tfprof_options=opts)
sys.stdout.flush()
print('op view:', type(by_op).__name__, by_op.total_parameters)
log_dir = sys.argv[1]
tf.contrib.tfprof.tfprof_logger.write_op_log(tf.get_default_graph(), log_dir)
print('op log written:', os.listdir(log_dir))
