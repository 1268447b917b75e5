"""tests/_forkrun.py's forked runs are the cold runs the corpus tier stands in for.

The corpus cases (tests/corpus/test_legacy_corpus.py) and the migration pairs
(tests/commands/test_migration_pairs.py) run forked from one TensorFlow start-up; these
tests keep that honest: a forked run gives a cold run's exit code and stdout byte for
byte, and its stderr less only what TensorFlow prints while it is imported; the loopback
safeguard is in force in a forked ``tf1mem.run``; no run sees what an earlier one did.
"""

import re
import subprocess
import sys

import pytest

from tests import _forkrun, _subproc
from tests.corpus.test_legacy_corpus import CORPUS, _env

pytestmark = pytest.mark.slow

RUNNER = ["-m", "tf1mem.run"]
# A plain run, an exit code of the script's, an uncaught error with its traceback.
SCRIPTS = ["cond_while.py", "sys_exit_code.py", "contrib_import_removed.py"]
# TensorFlow's log lines start with level, time and thread id, which differ run to run.
_LOG_PREFIX = re.compile(r"^([IWEF])\d{4} [\d:.]+\s+\d+ ", re.M)
# What TensorFlow prints while it is imported: in a cold run's stderr, in the server's log
# for a forked one.
_IMPORT_TIME = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\) is called are written to "
    r"STDERR|[IWEF] (port|cudart_stub|cpu_feature_guard)\.cc:\d+\] .*"
    r"|To enable the following instructions: .*)\n", re.M)


def _stderr(text):
    return _IMPORT_TIME.sub("", _LOG_PREFIX.sub(r"\1 ", text))


@pytest.fixture(scope="module")
def server():
    server = _forkrun.ForkServer(_env(), start_timeout=_subproc.bound(120), loopback=True)
    yield server
    server.close()


def _both(server, args, cwd):
    cold = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=_subproc.bound(120))
    forked = server.run(args, cwd=cwd, timeout=_subproc.bound(120))
    assert forked.args == cold.args
    both = _subproc.describe(cold, "cold") + _subproc.describe(forked, "forked")
    assert (forked.returncode, forked.stdout) == (cold.returncode, cold.stdout), both
    assert _stderr(forked.stderr) == _stderr(cold.stderr), both
    return forked


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_forked_runner_run_is_the_cold_run(server, tmp_path, name):
    _both(server, [*RUNNER, CORPUS / name], tmp_path)


def test_a_forked_script_run_is_the_cold_run(server, tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "s.py").write_text(
        "import os, sys, tensorflow as tf\n"
        "print(sys.argv, __name__, __file__, sys.path[0] == os.path.dirname(__file__))\n"
        "print(tf.constant(2.0).numpy() * 3, tf.executing_eagerly())\n"
        "sys.exit(sys.argv[1])\n")
    forked = _both(server, [sub.relative_to(tmp_path) / "s.py", "bye"], tmp_path)
    assert forked.returncode == 1 and forked.stderr.endswith("bye\n"), forked.stderr


def test_a_forked_scripts_server_listens_on_loopback_only(server, tmp_path):
    # tf1mem.run checks with the kernel where each server listens, and stops with exit 4
    # (shutting it down) where the loopback bind shim did not take effect.
    script = tmp_path / "serve.py"
    script.write_text(
        "import os, socket, tensorflow as tf\n"
        "with socket.socket() as s:\n"
        "    s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]\n"
        "cluster = tf.train.ClusterSpec({'local': ['localhost:%d' % port]})\n"
        "server = tf.train.Server(cluster, job_name='local', task_index=0)\n"
        "print('serving', server.target.startswith('grpc://localhost:'))\n"
        "print('shim', os.environ['TF1MEM_LOOPBACK_ONLY'],\n"
        "      'loopback-bind-' in open('/proc/self/maps').read())\n")
    proc = server.run([*RUNNER, script], cwd=tmp_path, timeout=_subproc.bound(120))
    assert proc.returncode == 0, _subproc.describe(proc)
    assert proc.stdout.splitlines() == ["serving True", "shim 1 True"], _subproc.describe(proc)


def test_a_forked_run_sees_nothing_of_an_earlier_one(server, tmp_path):
    first = tmp_path / "first.py"
    first.write_text("import os, sys, tensorflow as tf\n"
                     "os.environ['FORKRUN_PROBE'] = '1'\n"
                     "sys.modules['forkrun_probe'] = sys\n"
                     "tf.Variable(1.0, name='probe')\n"
                     "print(len(tf.global_variables()))\n")
    second = tmp_path / "second.py"
    second.write_text("import os, sys, tensorflow as tf\n"
                      "print(os.environ.get('FORKRUN_PROBE'), 'forkrun_probe' in sys.modules,\n"
                      "      len(tf.global_variables()))\n")
    first_run = server.run([*RUNNER, first], cwd=tmp_path, timeout=_subproc.bound(120))
    assert first_run.stdout == "1\n", _subproc.describe(first_run)
    proc = server.run([*RUNNER, second], cwd=tmp_path, timeout=_subproc.bound(120))
    assert proc.stdout == "None False 0\n", _subproc.describe(proc)
