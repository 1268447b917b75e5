"""A TF1 script that asks whether it can use a GPU gets TF 1.15.5's answer for the
machine: with no GPU visible, is_built_with_cuda() is False and the script takes its
CPU path (nfmcclure's 02_using_multiple_devices.py branches this way)."""

from tests import _subproc

_SCRIPT = """
import tensorflow as tf
print('cuda:', tf.test.is_built_with_cuda(), tf.test.is_built_with_gpu_support())
device = '/gpu:0' if tf.test.is_built_with_cuda() else '/cpu:0'
with tf.device(device):
    a = tf.constant([1.0, 2.0])
    b = a * 3
with tf.Session(config=tf.ConfigProto(allow_soft_placement=False)) as sess:
    print('on', device, sess.run(b))
print('TestCase is TF 2.21 own:', tf.test.TestCase is tf.compat.v1.test.TestCase)
"""


def test_no_visible_gpu_takes_the_cpu_path_and_says_why(tmp_path):
    script = tmp_path / "devices.py"
    script.write_text(_SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path,
                        env={"CUDA_VISIBLE_DEVICES": ""}, check_rc=0)
    assert proc.stdout.splitlines() == ["cuda: False False", "on /cpu:0 [3. 6.]",
                                        "TestCase is TF 2.21 own: True"]
    assert proc.stderr.count("tf1mem: tf.test.is_built_with_cuda() answers False") == 1
    assert "itself is built with CUDA" in proc.stderr
