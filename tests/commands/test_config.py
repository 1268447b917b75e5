"""Fast in-process tests of tf1mem.config: build, validate, env, merge, warn, describe.

The tests here: the commands in subprocesses; the rest: tests/tf/test_config.py,
tests/unit/test_config.py.
"""

import subprocess
import sys

import pytest

from tests import _subproc


# ----------------------------------------------------------------- registry


@pytest.mark.slow  # a child process that imports TensorFlow: about 4 s
def test_real_probe_and_gpu_query_do_not_create_devices():
    # In a child process, so this process's eager state is not touched.
    code = (
        "import tensorflow as tf\n"
        "from tf1mem import config as c\n"
        "assert c.eager_devices_initialized() is False\n"
        "c.gpu_available()\n"
        "assert c.eager_devices_initialized() is False\n"
        "tf.constant(1) + 1\n"
        "assert c.eager_devices_initialized() is True\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True,
        timeout=_subproc.bound(60))
    assert result.returncode == 0 and "ok" in result.stdout, (
        f"command: {sys.executable} -c ...\nstdout:\n{result.stdout}\n"
        f"stderr:\n{result.stderr}"
    )
