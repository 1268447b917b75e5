"""Idioms of the 2016-2019 era for user code: NumPy <= 1.23's ragged object arrays and
``np.array(copy=False)``, TF <= 1.4's ``FLAGS._parse_flags()`` / ``FLAGS.__flags``.

The tests here: the commands in subprocesses; the rest: tests/unit/test_legacy_era.py.
"""

import pytest

from tests import _subproc


# --- TF <= 1.4's tf.flags ---------------------------------------------------------------


_FLAGS_SCRIPT = """\
import sys
import tensorflow as tf
tf.flags.DEFINE_integer("batch_size", 64, "Batch Size")
tf.flags.DEFINE_string("checkpoint_dir", "", "Checkpoint directory")
tf.flags.DEFINE_boolean("eval_train", False, "Evaluate on all training data")
tf.app.flags.DEFINE_float("keep-prob", 0.5, "a dashed name, as argparse allowed")
FLAGS = tf.flags.FLAGS
print("same:", FLAGS is tf.app.flags.FLAGS)
from absl import flags as absl_flags
print("tf15 dict:", all(isinstance(v, absl_flags.Flag) for v in FLAGS.__flags.values()),
      FLAGS.__flags["batch_size"].value)
rest = FLAGS._parse_flags()
print("unparsed:", rest)
for attr, value in sorted(FLAGS.__flags.items()):
    print("{}={}".format(attr.upper(), value))
print("read:", FLAGS.batch_size, FLAGS.eval_train, FLAGS.keep_prob)
print("args:", FLAGS._parse_flags(["--batch_size", "5", "x"]), FLAGS.batch_size)
print("values dict:", FLAGS.flag_values_dict()["batch_size"])
"""


@pytest.mark.slow
def test_parse_flags_and_flags_dict_as_tf_1_4(tmp_path):
    script = tmp_path / "eval_like.py"
    script.write_text(_FLAGS_SCRIPT)
    proc = _subproc.run(["-m", "tf1mem.run", script, "--batch_size=3", "pos", "--eval_train",
                         "--unknown=1"], cwd=tmp_path, check_rc=0)
    out = proc.stdout.splitlines()
    assert out[:3] == ["same: True", "tf15 dict: True 64",
                       "unparsed: ['pos', '--unknown=1']"], _subproc.describe(proc)
    # TF 1.4's dict: the program's own flags only (absl's and TensorFlow's left out).
    assert out[3:7] == ["BATCH_SIZE=3", "CHECKPOINT_DIR=", "EVAL_TRAIN=True", "KEEP_PROB=0.5"]
    assert out[7:] == ["read: 3 True 0.5", "args: ['x'] 5", "values dict: 5"]
    for note in ("FLAGS._parse_flags() is TF <= 1.4's", "FLAGS.__flags held the flags' values",
                 "FLAGS.keep_prob read the flag defined as 'keep-prob'"):
        assert proc.stderr.count(note) == 1, proc.stderr


@pytest.mark.slow
def test_tf_1_5_to_1_15_code_keeps_flag_objects_and_libraries_keep_absl(tmp_path):
    # pointer-generator style: FLAGS.__flags[name].value, never _parse_flags().
    script = tmp_path / "hps.py"
    script.write_text(
        "import tensorflow as tf\nfrom absl import flags as absl_flags\n"
        "tf.app.flags.DEFINE_integer('hidden_dim', 8, 'h')\nFLAGS = tf.app.flags.FLAGS\n"
        "def main(_):\n"
        "    print({k: v.value for k, v in FLAGS.__flags.items() if k == 'hidden_dim'})\n"
        "    print(hasattr(absl_flags.FLAGS, '_parse_flags'), "
        "type(absl_flags.FLAGS).__name__)\n"
        "tf.app.run(main)\n")
    proc = _subproc.run(["-m", "tf1mem.run", script, "--hidden_dim=4"], cwd=tmp_path,
                        check_rc=0)
    assert proc.stdout.splitlines() == ["{'hidden_dim': 4}", "False FlagValues"], \
        _subproc.describe(proc)
    assert "tf1mem: FLAGS" not in proc.stderr
