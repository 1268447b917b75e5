"""ConfigProto: gpu_options.allow_growth, per_process_gpu_memory_fraction, allow_soft_placement,
log_device_placement=False, tf.device('/cpu:0'), tf.GPUOptions, intra/inter-op threads."""
import tensorflow as tf

config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False,
                        intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
config.gpu_options.allow_growth = True
gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.3)
config2 = tf.ConfigProto(gpu_options=gpu_options)
with tf.device('/cpu:0'):
    a = tf.constant([1.0, 2.0, 3.0], name='a')
    b = a * 2.0
with tf.device('/gpu:0'):  # soft placement falls back to CPU when there is no GPU
    c = b + 1.0
print('a device: %s' % a.device)
print('allow_growth: %s fraction: %.1f' % (config.gpu_options.allow_growth,
                                          config2.gpu_options.per_process_gpu_memory_fraction))
with tf.Session(config=config) as sess:
    print('c: %s' % sess.run(c).tolist())
    print('devices listed: %s' % any('CPU' in d.name for d in sess.list_devices()))
print('gpu available (bool): %s' % isinstance(tf.test.is_gpu_available(), bool))
