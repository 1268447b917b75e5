"""Fast in-process tests of tf1mem.config: build, validate, env, merge, warn, describe.

The tests here: no TensorFlow in the test process; the rest: tests/tf/test_config.py,
tests/commands/test_config.py.
"""

import subprocess
import sys

from tests import _subproc


# ----------------------------------------------------------------- hygiene


def test_import_does_not_import_tensorflow():
    result = subprocess.run(
        [sys.executable, "-c",
         "import sys, tf1mem.config; print('tensorflow' in sys.modules)"],
        capture_output=True, text=True, timeout=_subproc.bound(60),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


# ----------------------------------------------------------------- flags


def test_a_commands_own_default_shows_in_the_flags_help_and_the_value_stays_unset():
    import argparse

    import pytest

    from tf1mem import config
    from tf1mem.errors import ConfigError

    parser = argparse.ArgumentParser()
    config.add_argparse_flags(parser, defaults={"inter_op_parallelism_threads": "1 here"})
    text = " ".join(parser.format_help().split())
    assert ("--inter-op-threads N inter-op thread pool size, 0 lets TensorFlow choose "
            "(default: 1 here; env TF1MEM_INTER_OP_THREADS)") in text
    assert "(default" not in text.rsplit("--intra-op-threads N", 1)[1]
    assert parser.parse_args([]).inter_op_parallelism_threads is None
    with pytest.raises(ConfigError, match="unknown session option"):
        config.add_argparse_flags(argparse.ArgumentParser(), defaults={"inter_op": "1"})
