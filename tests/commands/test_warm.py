"""``python -m tf1mem.run --warm``: a child of the warm template behaves as a cold run.

Parity with ``python`` and with the cold runner (stdin, cwd, argv, sys.path, umask,
environment, exit codes, ``os._exit``), the fallbacks (a changed import-time variable,
another interpreter, an edited tf1mem run cold and say why), the safeguards (the
folder's owner and mode, the peer's uid from ``SO_PEERCRED``), and a template killed
during a run. Each test has its own template folder (the ``warm_dir`` fixture) and
stops its template at the end. The runner's other parity tests run both ways too
(``tests/commands/test_runner.py``, ``tests/commands/test_hostile.py``).
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from tests import _subproc
from tf1mem import _warm, errors

pytestmark = [pytest.mark.slow, pytest.mark.cold]

_PROBE = """\
import json, os, sys
data = sys.stdin.read()
mask = os.umask(0); os.umask(mask)
print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "path0": sys.path[0],
                  "umask": mask, "stdin": data.upper(), "probe": os.environ.get("PROBE"),
                  "tty": [s.isatty() for s in (sys.stdin, sys.stdout, sys.stderr)],
                  "buffering": sys.stdout.line_buffering, "name": sys.stdout.name,
                  "encoding": sys.stdout.encoding, "file": __file__, "main": __name__,
                  "reports": os.environ.get("TF1MEM_REPORT_DIR")}))
print("to stderr", file=sys.stderr)
sys.stdout.flush()
os._exit(int(sys.argv[1]))
"""


def _env(folder, **extra):
    return {_warm.DIR_ENV_VAR: str(folder), **extra}


def _warm_run(args, folder, *, cwd, env=None, **kw):
    return _subproc.run(["-m", "tf1mem.run", "--warm", *args], cwd=cwd,
                        env=_env(folder, **(env or {})), **kw)


def _status(folder):
    return _warm.status({_warm.DIR_ENV_VAR: str(folder)})


def _write(path, text):
    path.write_text(textwrap.dedent(text))
    return path


def test_a_warm_run_is_a_cold_run_and_python(tmp_path, warm_dir):
    sub = tmp_path / "proj"
    sub.mkdir()
    script = _write(sub / "probe.py", _PROBE)
    args = [os.path.join("proj", "probe.py"), "7", "--flag", "-m", "x"]
    env = {"PROBE": "passed on"}
    python = _subproc.run(args, cwd=tmp_path, env=env, input_text="some input\n")
    cold = _subproc.run(["-m", "tf1mem.run", *args], cwd=tmp_path, env=env,
                        input_text="some input\n")
    warm = [_warm_run(args, warm_dir, cwd=tmp_path, env=env, input_text="some input\n")
            for _ in range(2)]  # the first starts the template, the second finds it
    for proc in (cold, *warm):
        assert proc.returncode == python.returncode == 7, _subproc.describe(proc)
        assert json.loads(proc.stdout) == json.loads(python.stdout), _subproc.describe(proc)
        assert proc.stderr == python.stderr == "to stderr\n", _subproc.describe(proc)
    assert json.loads(python.stdout)["stdin"] == "SOME INPUT\n"
    assert json.loads(python.stdout)["file"] == str(script)
    # Reports go where a cold run's go: the caller's report folder reaches the child.
    assert json.loads(python.stdout)["reports"] == os.environ["TF1MEM_REPORT_DIR"]
    state = _status(warm_dir)
    assert state["runs"] == 2 and state["running"] == 0, state


def test_the_script_is_a_child_of_the_template_and_tf1mem_warm_opts_in(tmp_path, warm_dir):
    script = _write(tmp_path / "parent.py", """\
        import os, sys
        import tensorflow as tf
        with tf.Session() as sess:
            print(os.getppid(), sess.run(tf.constant(6) * 7), tf.executing_eagerly())
        """)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path,
                        env=_env(warm_dir, TF1MEM_WARM="1"), check_rc=0)
    parent, answer, eager = proc.stdout.split()
    state = _status(warm_dir)
    assert int(parent) == state["pid"] and (answer, eager) == ("42", "False"), proc.stdout
    assert len(state["threads"]) <= 3, state  # the main thread and OpenBLAS's idle pools
    # --no-warm wins over the variable: a cold run, the template untouched.
    proc = _subproc.run(["-m", "tf1mem.run", "--no-warm", script], cwd=tmp_path,
                        env=_env(warm_dir, TF1MEM_WARM="1"), check_rc=0)
    assert int(proc.stdout.split()[0]) != state["pid"]
    assert _status(warm_dir)["runs"] == 1


def test_bad_tf1mem_warm_value_is_a_usage_error(tmp_path):
    script = _write(tmp_path / "s.py", "print(1)\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path,
                        env={"TF1MEM_WARM": "sometimes"}, check_rc=errors.EXIT_USAGE)
    assert "TF1MEM_WARM='sometimes': use 1 to run warm or 0 to run cold" in proc.stderr


@pytest.mark.parametrize("name, value", [("TF_CPP_MIN_LOG_LEVEL", "1"),
                                         ("CUDA_VISIBLE_DEVICES", "")])
def test_a_changed_import_time_variable_runs_cold_and_says_why(tmp_path, warm_dir, name,
                                                               value):
    script = _write(tmp_path / "s.py", "import os\nprint(os.getppid())\n")
    first = _warm_run([script], warm_dir, cwd=tmp_path, check_rc=0)
    template = _status(warm_dir)["pid"]
    assert int(first.stdout) == template
    proc = _warm_run(["--verbose", script], warm_dir, cwd=tmp_path, env={name: value},
                     check_rc=0)
    assert int(proc.stdout) != template  # cold: the runner itself, not the template
    shown = "'2'" if name == "TF_CPP_MIN_LOG_LEVEL" else "unset"
    assert (f"tf1mem.run: --warm: running cold: {name} is {value!r} here, {shown} in the "
            f"template; the template is replaced") in proc.stderr, proc.stderr
    # Replaced: the old template retired; the next run starts one for its environment.
    proc = _warm_run([script], warm_dir, cwd=tmp_path, env={name: value}, check_rc=0)
    assert int(proc.stdout) == _status(warm_dir)["pid"] != template
    # Without --verbose a cold run says nothing (its output is the cold run's).
    proc = _warm_run([script], warm_dir, cwd=tmp_path, check_rc=0)
    assert "--warm" not in proc.stderr


def test_another_interpreter_runs_cold_and_says_why(tmp_path, warm_dir):
    script = _write(tmp_path / "s.py", "import os, sys\nprint(os.getppid(), sys.executable)\n")
    _warm_run([script], warm_dir, cwd=tmp_path, check_rc=0)
    template = _status(warm_dir)["pid"]
    other = tmp_path / "bin" / "python3"
    other.parent.mkdir()
    other.symlink_to(sys.executable)  # another path to it: another interpreter to python
    proc = subprocess.run(
        [str(other), "-m", "tf1mem.run", "--warm", "--verbose", str(script)], cwd=tmp_path,
        env=_subproc.child_env(_env(warm_dir)), capture_output=True, text=True,
        timeout=_subproc.bound(120))
    assert proc.returncode == 0, _subproc.describe(proc)
    parent, executable = proc.stdout.split()
    assert int(parent) != template and executable == str(other)
    assert (f"running cold: the interpreter is {other} here, {sys.executable} in the "
            f"template") in proc.stderr, proc.stderr


def test_an_edited_tf1mem_runs_cold_and_says_why(tmp_path, warm_dir):
    """An editable install's source changed: the template's tf1mem is not this one."""
    copy = tmp_path / "pkg"
    shutil.copytree(_subproc.REPO / "tf1mem", copy / "tf1mem",
                    ignore=shutil.ignore_patterns("__pycache__"))
    script = _write(tmp_path / "s.py", "import os\nprint(os.getppid())\n")

    def run(*opts):
        env = _subproc.child_env(_env(warm_dir))
        env["PYTHONPATH"] = str(copy)
        proc = subprocess.run([sys.executable, "-m", "tf1mem.run", "--warm", *opts,
                               str(script)], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=_subproc.bound(120))
        assert proc.returncode == 0, _subproc.describe(proc)
        return proc

    assert int(run().stdout) == _status(warm_dir)["pid"]
    edited = copy / "tf1mem" / "models.py"
    edited.write_text(edited.read_text() + "\n# upgraded\n")
    proc = run("--verbose")
    assert ("running cold: tf1mem's source changed since the template started "
            "(tf1mem/models.py): tf1mem was upgraded or edited; the template is replaced"
            ) in proc.stderr, proc.stderr
    assert int(run().stdout) == _status(warm_dir)["pid"]  # a new template, this source


# ------------------------------------------------------------ who may use the template


def test_the_folder_must_be_the_users_own_and_private(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    with pytest.raises(_warm.Unavailable, match=r"has mode 0755, not 0700.*chmod 700"):
        _warm.check_folder(str(folder))
    link = tmp_path / "link"
    link.symlink_to(folder)
    with pytest.raises(_warm.Unavailable, match="is not a folder"):
        _warm.check_folder(str(link))
    os.chmod(folder, 0o700)
    _warm.check_folder(str(folder))  # the same folder, made private: accepted


def test_a_folder_of_another_owner_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(folder).st_uid + 1)
    with pytest.raises(_warm.Unavailable, match="belongs to uid"):
        _warm.check_folder(str(folder))


def test_the_peer_check_reads_the_kernels_uid_and_refuses_another_user():
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with left, right:
        pid, uid, _ = _warm.peer_credentials(left)
    assert (pid, uid) == (os.getpid(), os.geteuid())
    _warm.check_peer(uid)  # this user: served
    with pytest.raises(PermissionError, match=f"peer is uid {uid + 1}, not this user"):
        _warm.check_peer(uid + 1)
    with pytest.raises(PermissionError):
        _warm.check_peer(uid, own_uid=uid + 1)


def test_a_folder_others_may_enter_runs_cold_saying_so(tmp_path):
    folder = tmp_path / "open"
    folder.mkdir()
    os.chmod(folder, 0o777)
    script = _write(tmp_path / "s.py", "print('ran')\n")
    proc = _warm_run([script], folder, cwd=tmp_path, check_rc=0)  # no --verbose
    assert proc.stdout == "ran\n"
    assert "tf1mem.run: --warm: running cold: the warm template's folder" in proc.stderr
    assert "has mode 0777" in proc.stderr
    assert os.listdir(folder) == []  # nothing started there


# ------------------------------------------------------------ a template that dies


def test_a_template_killed_during_a_run_fails_clearly_and_the_next_run_works(tmp_path,
                                                                            warm_dir):
    script = _write(tmp_path / "wait.py",
                    "import time\nprint('ready', flush=True)\ntime.sleep(120)\n")
    env = _subproc.child_env(_env(warm_dir))
    proc = subprocess.Popen([sys.executable, "-m", "tf1mem.run", "--warm", str(script)],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    with proc:
        try:
            assert proc.stdout.readline() == "ready\n"
            template = _status(warm_dir)["pid"]
            os.kill(template, signal.SIGKILL)
            _, err = proc.communicate(timeout=_subproc.bound(30))
        finally:
            proc.kill()
    assert proc.returncode == errors.EXIT_FAILURE, err
    assert f"the warm template (pid {template}) ended while it ran the script" in err
    assert "the next warm run starts a new template" in err
    probe = _write(tmp_path / "s.py", "import os\nprint(os.getppid())\n")
    again = _warm_run([probe], warm_dir, cwd=tmp_path, check_rc=0)
    assert int(again.stdout) == _status(warm_dir)["pid"] != template


def test_status_and_stop(tmp_path, warm_dir):
    env = _env(warm_dir)
    none = _subproc.run(["-m", "tf1mem.run", "--warm-status"], cwd=tmp_path, env=env,
                        check_rc=0)
    assert none.stdout.strip() == f"no warm template runs in {warm_dir}"
    script = _write(tmp_path / "s.py", "print('ok')\n")
    _warm_run([script], warm_dir, cwd=tmp_path, check_rc=0)
    shown = _subproc.run(["-m", "tf1mem.run", "--warm-status"], cwd=tmp_path, env=env,
                         check_rc=0)
    pid = _status(warm_dir)["pid"]
    assert shown.stdout.startswith(f"warm template: pid {pid}, up "), shown.stdout
    assert "1 run(s) served, 0 running" in shown.stdout
    stopped = _subproc.run(["-m", "tf1mem.run", "--warm-stop"], cwd=tmp_path, env=env,
                           check_rc=0)
    assert stopped.stdout.strip() == f"stopped the warm template (pid {pid}) in {warm_dir}"
    assert _gone(pid)  # stop returns once the template has exited
    again = _subproc.run(["-m", "tf1mem.run", "--warm-stop"], cwd=tmp_path, env=env,
                         check_rc=0)
    assert again.stdout.strip() == f"no warm template runs in {warm_dir}"


def test_an_idle_template_exits(tmp_path, warm_dir):
    script = _write(tmp_path / "s.py", "import os\nprint(os.getppid())\n")
    proc = _warm_run([script], warm_dir, cwd=tmp_path, env={_warm.IDLE_ENV_VAR: "2"},
                     check_rc=0)
    template = int(proc.stdout)
    deadline = time.monotonic() + _subproc.bound(30)
    while time.monotonic() < deadline:
        if _gone(template):
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the template {template} outlived its idle time")
    assert _status(warm_dir) is None


# ------------------------------------------------------------ memory sweep and fit


_MLP = ["--model", "mlp", "--hidden", "256", "--steps", "2"]


def _peaks(csv_path):
    import csv

    with open(csv_path) as f:
        return [(r["batch_size"], r["device"], r["peak_bytes"]) for r in csv.DictReader(f)]


def test_memory_sweep_warm_measures_what_a_cold_sweep_measures(tmp_path, warm_dir):
    cold_csv, warm_csv = tmp_path / "cold.csv", tmp_path / "warm.csv"
    args = ["-m", "tf1mem.memory", "sweep", *_MLP, "--batch-sizes", "64,512",
            "--no-progress", "--png", tmp_path / "s.png"]
    _subproc.run([*args, "--csv", cold_csv], cwd=tmp_path, check_rc=0)
    proc = _subproc.run([*args, "--csv", warm_csv, "--warm", "--verbose"], cwd=tmp_path,
                        env=_env(warm_dir), check_rc=0)
    assert "run cold" not in proc.stderr, proc.stderr
    warm, cold = _peaks(warm_csv), _peaks(cold_csv)
    assert [row[:2] for row in warm] == [row[:2] for row in cold]
    # Two cold runs differ too (the MLP at batch 64: 1693776 or 1683496 bytes, the
    # order of TensorFlow's allocations across its thread pools): within 2 %.
    for (_, _, w), (_, _, c) in zip(warm, cold):
        assert abs(int(w) - int(c)) <= 0.02 * int(c), (warm, cold)
    # each point a child of the memory command's template
    assert _warm.status(_env(warm_dir), command="tf1mem.memory")["runs"] == 2


def test_scripts_and_memory_trials_keep_their_own_templates(tmp_path, warm_dir):
    """A memory trial starts with another environment than a script (no loopback
    shim): alternating the two must not replace one template with the other."""
    env = _env(warm_dir)
    script = _write(tmp_path / "s.py", "print('ok')\n")
    _warm_run([script], warm_dir, cwd=tmp_path, check_rc=0)
    pid = _status(warm_dir)["pid"]
    sweep = _subproc.run(["-m", "tf1mem.memory", "sweep", "--model", "softmax", "--steps",
                          "1", "--batch-sizes", "16", "--no-progress", "--csv",
                          tmp_path / "s.csv", "--png", tmp_path / "s.png", "--warm",
                          "--verbose"], cwd=tmp_path, env=env, check_rc=0)
    assert "run cold" not in sweep.stderr, sweep.stderr
    memory = _warm.status(env, command="tf1mem.memory")
    assert memory["runs"] == 1 and memory["pid"] != pid, memory
    again = _warm_run(["--verbose", script], warm_dir, cwd=tmp_path, check_rc=0)
    assert "running cold" not in again.stderr, again.stderr
    state = _status(warm_dir)
    assert (state["pid"], state["runs"]) == (pid, 2), state  # one template served both
    shown = _subproc.run(["-m", "tf1mem.run", "--warm-status"], cwd=tmp_path, env=env,
                         check_rc=0)
    assert shown.stdout.count("warm template: pid") == 2, shown.stdout
    stopped = _subproc.run(["-m", "tf1mem.run", "--warm-stop"], cwd=tmp_path, env=env,
                           check_rc=0)
    assert stopped.stdout.splitlines() == [
        f"stopped the warm template (pid {pid}) in {warm_dir}",
        f"stopped the warm template (pid {memory['pid']}) in {warm_dir / 'memory'}"]
    assert _gone(pid) and _gone(memory["pid"])


def test_memory_fit_warm_finds_the_cold_answer(tmp_path, warm_dir):
    at = json.loads(_subproc.run(["-m", "tf1mem.memory", "measure", *_MLP, "--batch-size",
                                  "3000", "--json"], check_rc=0).stdout.splitlines()[-1])
    args = ["-m", "tf1mem.memory", "fit", *_MLP, "--budget", str(at["peak_bytes"]),
            "--margin", "0", "--no-progress"]
    cold = _subproc.run(args, cwd=tmp_path, check_rc=0)
    warm = _subproc.run([*args, "--warm"], cwd=tmp_path, env=_env(warm_dir), check_rc=0)

    def answer(proc):
        import re

        return int(re.search(r"^answer: batch (\d+)", proc.stdout, re.M).group(1))

    # The peaks of two cold runs differ by up to ~1 % (see the sweep's test): so may
    # the answers, by as much (the batch 3000 was measured to fit the budget).
    assert abs(answer(warm) - answer(cold)) <= 30, (cold.stdout, warm.stdout)
    trials = len([line for line in warm.stdout.splitlines() if line.startswith("trial ")])
    # uncapped on this CPU: all warm
    assert _warm.status(_env(warm_dir), command="tf1mem.memory")["runs"] == trials


def test_bad_idle_time_is_a_usage_error(tmp_path, warm_dir):
    script = _write(tmp_path / "s.py", "print(1)\n")
    proc = _warm_run([script], warm_dir, cwd=tmp_path, env={_warm.IDLE_ENV_VAR: "soon"},
                     check_rc=errors.EXIT_USAGE)
    assert "TF1MEM_WARM_IDLE_S='soon': give the seconds a warm template waits" in proc.stderr
    assert os.listdir(warm_dir) == []  # nothing started


# ------------------------------------------------------------ signals


def _three_ways(script, warm_dir):
    env = _subproc.child_env(_env(warm_dir))
    return (("python", [sys.executable, str(script)]),
            ("cold", [sys.executable, "-m", "tf1mem.run", str(script)]),
            ("warm", [sys.executable, "-m", "tf1mem.run", "--warm", str(script)])), env


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGUSR1])
def test_other_signals_reach_the_child_and_end_the_runner_as_python(tmp_path, warm_dir,
                                                                    signum):
    script = _write(tmp_path / "wait.py",
                    "import time\nprint('ready', flush=True)\ntime.sleep(120)\n")
    ways, env = _three_ways(script, warm_dir)
    codes = {}
    for name, cmd in ways:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        with proc:
            try:
                assert proc.stdout.readline() == "ready\n"
                proc.send_signal(signum)
                codes[name] = proc.wait(timeout=_subproc.bound(30))
            finally:
                proc.kill()
    assert codes == {"python": -signum, "cold": -signum, "warm": -signum}


def test_signals_the_caller_ignores_stay_ignored_in_the_child(tmp_path, warm_dir):
    """As a background job or under nohup: python keeps an inherited SIG_IGN."""
    script = _write(tmp_path / "dispositions.py", """\
        import signal
        names = {signal.SIG_IGN: "ignored", signal.SIG_DFL: "default"}
        print([names.get(signal.getsignal(s), "handler")
               for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM)])
        """)
    ways, env = _three_ways(script, warm_dir)

    def ignore():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    outs = {}
    for name, cmd in ways:
        proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=_subproc.bound(120), preexec_fn=ignore)
        assert proc.returncode == 0, _subproc.describe(proc)
        outs[name] = proc.stdout
    assert outs["python"] == "['ignored', 'ignored', 'default']\n"
    assert outs["cold"] == outs["warm"] == outs["python"]


def _gone(pid):
    try:
        return _state(pid) in ("Z", "X")  # exited; its reaper (init) may not have run yet
    except FileNotFoundError:
        return True


def _state(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def _wait_state(pid, wanted):
    deadline = time.monotonic() + _subproc.bound(10)
    while _state(pid) != wanted:
        if time.monotonic() > deadline:
            pytest.fail(f"pid {pid} is {_state(pid)!r}, not {wanted!r}")
        time.sleep(0.05)


def test_ctrl_z_stops_the_child_with_the_runner_and_fg_resumes_both(tmp_path, warm_dir):
    script = _write(tmp_path / "steps.py", """\
        import os, sys, time
        print(os.getpid(), flush=True)
        sys.stdin.readline()
        print('done', flush=True)
        """)
    env = _subproc.child_env(_env(warm_dir))
    proc = subprocess.Popen([sys.executable, "-m", "tf1mem.run", "--warm", str(script)],
                            cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with proc:
        try:
            child = int(proc.stdout.readline())
            assert child != proc.pid  # the script runs in the template's child
            proc.send_signal(signal.SIGTSTP)  # what Ctrl-Z sends the foreground job
            _wait_state(proc.pid, "T")
            _wait_state(child, "T")
            proc.send_signal(signal.SIGCONT)  # fg
            _wait_state(child, "S")
            out, err = proc.communicate("go\n", timeout=_subproc.bound(30))
        finally:
            proc.kill()
    assert (proc.returncode, out) == (0, "done\n"), err


_OTHER_USER = """\
import socket, sys
sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
sock.connect(sys.argv[1])
sock.settimeout(60)
try:
    sock.send(b'{"op": "status"}')
    data = sock.recv(4096)
except (BrokenPipeError, ConnectionResetError):  # closed before or with the request unread
    data = b""
print(repr(data))
"""


def test_the_template_closes_a_connection_of_another_user_unanswered(tmp_path):
    """The kernel's SO_PEERCRED, end to end: the folder is opened to others on purpose
    (0711, socket 0666), and another uid's request still gets nothing."""
    import shutil as _shutil
    import tempfile

    setpriv = _shutil.which("setpriv")
    if os.geteuid() != 0 or not setpriv or not os.path.exists("/usr/bin/python3"):
        pytest.skip("needs root, setpriv and /usr/bin/python3 to act as another user")
    folder = tempfile.mkdtemp(prefix="tf1mem-warm-peer-")  # /tmp: reachable by others
    env = _env(folder)
    try:
        script = _write(tmp_path / "s.py", "print('ok')\n")
        _warm_run([script], folder, cwd=tmp_path, check_rc=0)
        sock = os.path.join(folder, _warm.SOCKET_NAME)
        os.chmod(folder, 0o711)
        os.chmod(sock, 0o666)
        other = subprocess.run(
            [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
             "/usr/bin/python3", "-c", _OTHER_USER, sock], capture_output=True, text=True,
            timeout=_subproc.bound(60))
        os.chmod(folder, 0o700)
        assert other.stdout == "b''\n", _subproc.describe(other)  # closed, no answer
        with open(os.path.join(folder, _warm.LOG_NAME)) as f:
            log = f.read()
        assert ("refused a connection: the warm template's peer is uid 65534, not this "
                "user (0): refused") in log, log
        assert _warm.status(env)["runs"] == 1  # this user is still served
    finally:
        os.chmod(folder, 0o700)
        _warm.stop(env)
        _shutil.rmtree(folder, ignore_errors=True)


def test_the_childs_temporary_folder_is_its_own_tmpdir(tmp_path, warm_dir):
    """The template's imports cached tempfile's folder from its own TMPDIR."""
    script = _write(tmp_path / "tmp.py", "import tempfile\nprint(tempfile.gettempdir())\n")
    _warm_run([script], warm_dir, cwd=tmp_path, check_rc=0)  # starts the template
    mine = tmp_path / "mytmp"
    mine.mkdir()
    proc = _warm_run([script], warm_dir, cwd=tmp_path, env={"TMPDIR": str(mine)},
                     check_rc=0)
    assert proc.stdout == f"{mine}\n"
    assert _status(warm_dir)["runs"] == 2  # TMPDIR is not an import-time setting: warm
