"""Hostile and careless input: each case reproduced, with what tf1mem now does.

docs/SECURITY.md lists these cases in a table; each row names its test here.

The tests here: the commands in subprocesses; the rest: tests/unit/test_hostile.py.
"""

import json
import os
import signal
import socket
import subprocess
import sys

import pytest

from tests import _mnist_fixtures, _subproc
from tf1mem import errors

CLUSTER = ["-m", "tf1mem.cluster"]


# ------------------------------------------------------------ ports and hosts


@pytest.mark.parametrize("ps_hosts, needle", [
    ("localhost:99999", "the port '99999' is not a number in 1..65535"),
    ("localhost:0", "the port '0' is not a number in 1..65535"),
    ("local host:2222", "the host 'local host' is neither a host name nor an IP address"),
    ("localhost", "it is not host:port"),
])
def test_bad_task_addresses_are_usage_errors_naming_them(tmp_path, ps_hosts, needle):
    proc = _subproc.run([*CLUSTER, f"--ps_hosts={ps_hosts}", "--worker_hosts=localhost:2223",
                         "--job_name=ps", "--task_index=0"], cwd=tmp_path,
                        check_rc=errors.EXIT_USAGE, timeout=60)
    assert f"--ps_hosts/--worker_hosts: {ps_hosts!r} is not a valid task address" in proc.stderr
    assert needle in proc.stderr
    assert "serving" not in proc.stdout


def test_tf_config_ports_are_checked_too(tmp_path):
    tf_config = {"cluster": {"ps": ["127.0.0.1:70000"], "worker": ["127.0.0.1:2223"]},
                 "task": {"type": "ps", "index": 0}}
    proc = _subproc.run(CLUSTER, cwd=tmp_path, env={"TF_CONFIG": json.dumps(tf_config)},
                        check_rc=errors.EXIT_USAGE, timeout=60)
    assert "TF_CONFIG: '127.0.0.1:70000' is not a valid task address" in proc.stderr


# ------------------------------------------------------------ run folders, NaN


@pytest.mark.cluster
def test_a_run_that_fails_before_starting_removes_its_run_folder(real_mnist_dir, tmp_path):
    with socket.socket(socket.AF_INET6) as held:
        held.bind(("::", 0))
        held.listen()
        port = held.getsockname()[1]
        run_dir = tmp_path / "run"
        proc = _subproc.run([*CLUSTER, "--data-dir", real_mnist_dir, "--port-base", port,
                             "--run-dir", run_dir], cwd=tmp_path, timeout=120)
    assert proc.returncode == errors.EXIT_CLUSTER, _subproc.describe(proc)
    assert f"port {port} is already in use" in proc.stderr
    assert not run_dir.exists()


@pytest.mark.slow
def test_a_nan_loss_stops_training_with_exit_1(tmp_path):
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7, separable=True)
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--learning-rate", "1e308", "--steps", "50"], cwd=tmp_path,
                        check_rc=errors.EXIT_FAILURE)
    assert "tf1mem.train: error: the loss became nan at step" in proc.stderr
    assert "Lower --learning-rate" in proc.stderr
    assert "test accuracy" not in proc.stdout


# ------------------------------------------------------------ the runner is python


@pytest.fixture(params=["cold", "warm"])
def how(request):
    """``(runner options, env)``: the runner cold, or ``--warm`` (one template for the
    module, stopped at its end)."""
    if request.param == "cold":
        return (), {}
    folder = request.getfixturevalue("module_warm_dir")
    return ("--warm",), {"TF1MEM_WARM_DIR": str(folder)}


def test_runner_keeps_argv0_as_typed_and_file_absolute(tmp_path, how):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "s.py").write_text("import sys\nprint(sys.argv[0])\nprint(__file__)\n")
    python = _subproc.run([os.path.join("sub", "s.py")], cwd=tmp_path, check_rc=0)
    runner = _subproc.run(["-m", "tf1mem.run", *how[0], os.path.join("sub", "s.py")],
                          cwd=tmp_path, env=how[1], check_rc=0)
    assert runner.stdout == python.stdout == f"sub/s.py\n{sub / 's.py'}\n"


def test_runner_gives_the_script_the_users_pythonpath(tmp_path):
    script = tmp_path / "s.py"
    script.write_text(
        "import os, sys\n"
        "print(os.environ.get('PYTHONPATH'))\n"
        f"print({str(_subproc.REPO)!r} in sys.path)\n"
        "print(sorted(k for k in os.environ if k.startswith('TF1MEM_')))\n")
    # _subproc puts the checkout on PYTHONPATH (tf1mem is importable from it); the
    # user's own value is that, and exactly that reaches the script.
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    lines = proc.stdout.splitlines()
    assert lines[0] == os.pathsep.join([str(_subproc.REPO)] + (
        [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))
    # The runner adds exactly one variable of its own (kept: children's servers stay
    # local); the TF1MEM_* variables the caller had (here the test session's report
    # folder) reach the script unchanged, and nothing else is added.
    callers = {k for k in os.environ if k.startswith("TF1MEM_")}
    assert lines[2] == str(sorted(callers | {"TF1MEM_LOOPBACK_ONLY"}))


def test_runner_removes_the_package_root_it_added(tmp_path):
    """Installed tf1mem (not from PYTHONPATH): the script sees no extra path entry."""
    script = tmp_path / "s.py"
    script.write_text("import os, sys\nprint(os.environ.get('PYTHONPATH'))\n"
                      f"print({str(_subproc.REPO)!r} in sys.path)\n")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([sys.executable, "-m", "tf1mem.run", str(script)], cwd=tmp_path,
                          env=env, capture_output=True, text=True,
                          timeout=_subproc.bound(120))
    assert proc.returncode == 0, _subproc.describe(proc)
    assert proc.stdout.splitlines() == ["None", "False"], _subproc.describe(proc)


def test_sigterm_ends_the_runner_as_it_ends_python(tmp_path, how):
    script = tmp_path / "wait.py"
    script.write_text("import time\nprint('ready', flush=True)\ntime.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=str(_subproc.REPO), TF_CPP_MIN_LOG_LEVEL="2",
               **how[1])
    codes = []
    for cmd in ([sys.executable, str(script)],
                [sys.executable, "-m", "tf1mem.run", *how[0], str(script)]):
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout.readline() == "ready\n"
            proc.send_signal(signal.SIGTERM)
            codes.append(proc.wait(timeout=_subproc.bound(30)))
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
    assert codes == [-signal.SIGTERM, -signal.SIGTERM]  # a shell shows 143 for both


# ------------------------------------------------------------ the user's own data


def _no_download_env(tmp_path):
    return {"TF1MEM_CACHE_DIR": str(tmp_path / "empty-cache"),
            "PATH": os.path.dirname(sys.executable),  # no npm
            "https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"}


@pytest.mark.slow
def test_a_valid_non_mnist_set_under_mnist_names_is_used_as_tf1_did(tmp_path):
    """Fashion-MNIST's README: read_data_sets('data/fashion'); same names as MNIST."""
    data = tmp_path / "data" / "fashion"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7,
                                     separable=True, sha256sums=False)
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--steps", "30", "--batch-size", "50", "--seed", "0"],
                        cwd=tmp_path, env=_no_download_env(tmp_path), check_rc=0)
    notes = [line for line in proc.stderr.splitlines() if "is not the official MNIST" in line]
    assert len(notes) == 4, proc.stderr  # one line per file
    assert "used as TF 1.15 would use it" in notes[0]
    # Trained on the user's data (learnable: 10 % if it were not), nothing swapped,
    # moved or written into the folder.
    assert float(proc.stdout.strip().splitlines()[-1].split(": ")[1]) >= 0.95
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


@pytest.mark.slow
def test_a_users_sha256sums_never_lets_official_mnist_replace_a_listed_file(tmp_path):
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7)  # + SHA256SUMS
    (data / "t10k-labels-idx1-ubyte.gz").unlink()
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--steps", "5"], cwd=tmp_path, env=_no_download_env(tmp_path),
                        check_rc=errors.EXIT_DATA)
    assert "Could not obtain a good copy of t10k-labels-idx1-ubyte.gz" in proc.stderr
    assert not (data / "t10k-labels-idx1-ubyte.gz").exists()


@pytest.mark.slow
def test_official_mnist_in_the_cache_does_not_pass_a_users_list(real_mnist_dir, tmp_path):
    data = tmp_path / "gen"
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, seed=7)
    (data / "t10k-labels-idx1-ubyte.gz").unlink()
    env = {**_no_download_env(tmp_path), "TF1MEM_CACHE_DIR": str(real_mnist_dir)}
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--steps", "5"], cwd=tmp_path, env=env, check_rc=errors.EXIT_DATA)
    assert "skipped: it holds official MNIST only" in proc.stderr
    assert not (data / "t10k-labels-idx1-ubyte.gz").exists()


def test_sigint_ends_the_runner_as_it_ends_python(tmp_path, how):
    script = tmp_path / "wait.py"
    script.write_text("import time\nprint('ready', flush=True)\ntime.sleep(60)\n")
    env = dict(os.environ, PYTHONPATH=str(_subproc.REPO), TF_CPP_MIN_LOG_LEVEL="2",
               **how[1])
    results = []
    for cmd in ([sys.executable, str(script)],
                [sys.executable, "-m", "tf1mem.run", *how[0], str(script)]):
        # A shell's background job inherits SIGINT ignored, and so would Python: start
        # the child with SIGINT at its default, as from a terminal.
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        with proc:
            try:
                assert proc.stdout.readline() == "ready\n"
                proc.send_signal(signal.SIGINT)
                _, err = proc.communicate(timeout=_subproc.bound(30))
                results.append((proc.returncode, err.strip().splitlines()[-1]))
            finally:
                proc.kill()
                proc.wait()
    assert results == [(-signal.SIGINT, "KeyboardInterrupt")] * 2, results


def test_runner_on_a_zip_without_main_is_python_s_one_line(tmp_path, how):
    import zipfile

    archive = tmp_path / "app.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("helper.py", "print(1)\n")
    python = _subproc.run([archive], cwd=tmp_path)
    runner = _subproc.run(["-m", "tf1mem.run", *how[0], archive], cwd=tmp_path, env=how[1])
    assert (runner.returncode, runner.stderr.strip()) == (1, python.stderr.strip())


# ------------------------------------------------ without privileges: the kernel says no
#
# Root reads any file and binds any port. When the suite runs as root, these run python
# with the capabilities that let it (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
# CAP_NET_BIND_SERVICE) dropped from its bounding set: the refusals are the kernel's.

_DROP = "-dac_override,-dac_read_search,-net_bind_service"


@pytest.fixture
def unprivileged(tmp_path):
    """``(prefix, folder)``: a command prefix that runs python without the privileges
    that override file modes and guard ports below 1024, and a folder to work in."""
    import shutil

    if os.geteuid() != 0:
        return (), str(tmp_path)
    setpriv = shutil.which("setpriv")
    if not setpriv:
        pytest.skip("running as root without setpriv: cannot drop privileges")
    return (setpriv, f"--bounding-set={_DROP}"), str(tmp_path)


def _unprivileged_env(folder):
    return {"HOME": folder, "XDG_CACHE_HOME": os.path.join(folder, "cache"),
            "TF1MEM_CACHE_DIR": os.path.join(folder, "empty-cache"),
            "PATH": os.path.dirname(sys.executable),  # no npm
            "https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
            "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": folder}


@pytest.mark.slow
def test_an_unreadable_data_file_exits_3_naming_it(unprivileged):
    prefix, folder = unprivileged
    data = os.path.join(folder, "MNIST_data")
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200)
    locked = os.path.join(data, "train-labels-idx1-ubyte.gz")
    os.chmod(locked, 0)
    before = sorted(os.listdir(data))
    proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                         "--steps", "1"], cwd=folder, env=_unprivileged_env(folder),
                        prefix=prefix, check_rc=errors.EXIT_DATA)
    assert f"{locked} cannot be read by this user; fix its permissions" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(os.listdir(data)) == before  # not moved aside, nothing fetched over it


@pytest.mark.slow
def test_a_read_only_folder_with_a_valid_set_is_read_without_writing(unprivileged):
    prefix, folder = unprivileged
    data = os.path.join(folder, "shared-data")
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200, separable=True,
                                     sha256sums=False)
    os.chmod(data, 0o555)
    try:
        before = {name: os.stat(os.path.join(data, name)).st_mtime_ns
                  for name in os.listdir(data)}
        proc = _subproc.run(["-m", "tf1mem.train", "--no-progress", "--data-dir", data,
                             "--steps", "20", "--batch-size", "50"], cwd=folder,
                            env=_unprivileged_env(folder), prefix=prefix, check_rc=0)
        assert proc.stdout.strip().splitlines()[-1].startswith("test accuracy: ")
        assert "Traceback" not in proc.stderr
        assert {name: os.stat(os.path.join(data, name)).st_mtime_ns
                for name in os.listdir(data)} == before
    finally:
        os.chmod(data, 0o755)


@pytest.mark.slow
def test_a_privileged_port_is_reported_as_permission_denied(unprivileged):
    prefix, folder = unprivileged
    data = os.path.join(folder, "MNIST_data")
    _mnist_fixtures.write_fake_mnist(data, n_train=5300, n_test=200)
    proc = _subproc.run([*CLUSTER, "--data-dir", data, "--port-base", "80", "--workers", "1",
                         "--steps", "1"], cwd=folder, env=_unprivileged_env(folder),
                        prefix=prefix, timeout=120)
    assert proc.returncode == errors.EXIT_CLUSTER, _subproc.describe(proc)
    assert "port 80 cannot be opened by this user (Permission denied)" in proc.stderr
    assert "already in use" not in proc.stderr
    assert not [name for name in os.listdir(folder) if name.startswith("tf1mem-cluster")]
