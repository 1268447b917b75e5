"""The defects a review of the first landing found, each shown fixed.

Every test here failed on the code before its fix (the issue that asked for them
lists the findings): compiler failures escaping as tracebacks, workers racing to
download MNIST, placement runs merged under one label, a second in-process example 2
failing on its own ports, the runner serving on every interface without a compiler,
a folder in place of a data file, ``tf1mem.run DIR`` / ``-m missing`` tracebacks, and
a thousand-task launch.

The tests here: the commands in subprocesses; the rest: tests/tf/test_review_defects.py,
tests/unit/test_review_defects.py.
"""

import os
import sys

import pytest

from tests import _mnist_fixtures, _subproc
from tf1mem import errors
from tf1mem.distributed import launcher, loopback

RUN = ["-m", "tf1mem.run"]


# ------------------------------------------------------------ launcher


def test_launcher_with_no_data_to_be_had_exits_3_and_starts_nothing(tmp_path):
    env = {"TF1MEM_CACHE_DIR": str(tmp_path / "empty-cache"),
           "PATH": os.path.dirname(sys.executable)}  # no npm
    proc = _subproc.run(["-m", "tf1mem.cluster", "--ps", "1", "--workers", "1",
                         "--data-dir", tmp_path / "nodata", "--run-dir", tmp_path / "run"],
                        cwd=tmp_path, env=env, timeout=120, check_rc=errors.EXIT_DATA)
    assert "Could not obtain a good copy of train-images-idx3-ubyte.gz" in proc.stderr
    assert "started /job" not in proc.stderr


def test_a_thousand_workers_are_refused_unless_forced(tmp_path):
    proc = _subproc.run(["-m", "tf1mem.cluster", "--workers", "1000"], cwd=tmp_path,
                        check_rc=errors.EXIT_USAGE, timeout=60)
    assert "would start 1001 TensorFlow processes" in proc.stderr
    assert f"the bound is {launcher.max_local_tasks()}" in proc.stderr
    assert "--force-tasks" in proc.stderr
    opts = launcher.ClusterOptions(workers=1000, force_tasks=True)
    launcher.check_task_count(opts)  # forced: no error


# ------------------------------------------------------------ in-process servers


def test_second_in_process_two_task_run_reuses_its_servers(tmp_path):
    """TF's gRPC server cannot be stopped: a second run on the same ports must reuse it."""
    code = (
        "import sys\n"
        "from tf1mem.distributed import servers\n"
        "port = servers.free_ports(1)[0]\n"
        "cluster = {'local': [f'localhost:{port}']}\n"
        "first = servers.start_server(cluster, 'local', 0)\n"
        "again = servers.start_server(cluster, 'local', 0)\n"
        "assert again is first, 'same task, same cluster: the running server'\n"
        "assert servers.held_here(port)\n"
        "try:\n"
        "    servers.start_server({'other': [f'localhost:{port}']}, 'other', 0)\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n")
    proc = _subproc.run(["-c", code], cwd=tmp_path, check_rc=0, timeout=120,
                        env=loopback.loopback_env())  # servers on 127.0.0.1, checked
    assert proc.stdout.startswith("ClusterError port "), _subproc.describe(proc)
    assert "TensorFlow cannot shut a gRPC server down" in proc.stdout


@pytest.mark.slow
def test_two_task_example_runs_twice_in_one_process(real_mnist_dir, tmp_path):
    code = (
        "import io\n"
        "from tf1mem.distributed import servers, two_task\n"
        "port = servers.free_ports(1)[0]\n"
        "runs = [two_task.run_two_task(two_task.TwoTaskOptions(\n"
        f"    data_dir={str(real_mnist_dir)!r}, port_base=port, seed=0,\n"
        "    log_device_placement=False, out=io.StringIO())) for _ in range(2)]\n"
        "assert runs[0].ports == runs[1].ports\n"
        "print(runs[0].losses == runs[1].losses, len(runs[1].losses))\n")
    proc = _subproc.run(["-c", code], cwd=tmp_path, check_rc=0, timeout=300,
                        env=loopback.loopback_env())
    # Same seed, same servers re-initialised: the second run repeats the first.
    assert proc.stdout.strip().splitlines()[-1] == "True 55", _subproc.describe(proc)


# ------------------------------------------------------------ the runner


def _no_compiler_env(tmp_path):
    return {"PATH": os.path.dirname(sys.executable), "CC": "no-such-cc",
            "XDG_CACHE_HOME": str(tmp_path / "fresh-cache")}


def test_without_a_compiler_a_script_without_servers_runs(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("import tensorflow as tf\nprint(tf.constant(3).dtype.name)\n")
    proc = _subproc.run([*RUN, script], cwd=tmp_path, env=_no_compiler_env(tmp_path),
                        check_rc=0)
    assert proc.stdout == "int32\n"


def test_without_a_compiler_a_script_server_fails_closed_with_exit_4(tmp_path):
    script = tmp_path / "serve.py"
    script.write_text(
        "import tensorflow as tf\n"
        "cluster = tf.train.ClusterSpec({'local': ['localhost:0']})\n"
        "server = tf.train.Server(cluster, job_name='local', task_index=0)\n"
        "print('serving')\n")
    proc = _subproc.run([*RUN, script], cwd=tmp_path, env=_no_compiler_env(tmp_path),
                        check_rc=errors.EXIT_CLUSTER)
    assert "serving" not in proc.stdout
    assert "will not start a gRPC server that listens on every interface" in proc.stderr
    assert "needs a C compiler" in proc.stderr
    assert 'serve.py", line 3' in proc.stderr  # at the script's own line


def test_runner_on_a_folder_without_main_is_python_s_one_line(tmp_path):
    folder = tmp_path / "somedir"
    folder.mkdir()
    python = _subproc.run([folder], cwd=tmp_path)
    runner = _subproc.run([*RUN, folder], cwd=tmp_path)
    assert (runner.returncode, runner.stderr.strip()) == (1, python.stderr.strip())
    assert "Traceback" not in runner.stderr


def test_runner_runs_a_folder_with_main_py(tmp_path):
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "__main__.py").write_text(
        "import sys, tensorflow as tf\nprint(sys.argv[1:], hasattr(tf, 'placeholder'))\n")
    proc = _subproc.run([*RUN, folder, "x"], cwd=tmp_path, check_rc=0)
    assert proc.stdout == "['x'] True\n"


@pytest.mark.parametrize("module", ["no_such_module_here", "no_such_pkg.mod"])
def test_runner_dash_m_missing_is_python_s_one_line(tmp_path, module):
    python = _subproc.run(["-m", module], cwd=tmp_path)
    runner = _subproc.run([*RUN, "-m", module], cwd=tmp_path)
    assert (runner.returncode, runner.stderr.strip()) == (1, python.stderr.strip())


def test_import_error_inside_a_dash_m_module_keeps_its_traceback(tmp_path):
    (tmp_path / "job.py").write_text("import no_such_dependency\n")
    proc = _subproc.run([*RUN, "-m", "job"], cwd=tmp_path, check_rc=1)
    assert "Traceback" in proc.stderr and "No module named 'no_such_dependency'" in proc.stderr


# ------------------------------------------------------------ data folder


def test_folder_in_place_of_a_data_file_exits_3_naming_it(tmp_path):
    data = tmp_path / "MNIST_data"
    _mnist_fixtures.write_fake_mnist(data)
    (data / "t10k-labels-idx1-ubyte.gz").unlink()
    (data / "t10k-labels-idx1-ubyte.gz").mkdir()
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--steps", "1"], cwd=tmp_path, check_rc=errors.EXIT_DATA)
    assert f"{data / 't10k-labels-idx1-ubyte.gz'} is a folder" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (data / "t10k-labels-idx1-ubyte.gz").is_dir()  # the user's folder is left alone
