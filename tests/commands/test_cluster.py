"""``python -m tf1mem.cluster``: real multi-process runs on TF's gRPC runtime.

First fast in-process checks of the launcher's pieces; then the ``cluster`` tests,
each running the command in subprocesses with a hard timeout (sized to about
three times what the run takes on an idle 2-core machine, scaled by
``tests._subproc.bound`` for this one), printing the command, stdout and stderr on
failure, and leaving no process behind.

The tests here: the commands in subprocesses; the rest: tests/unit/test_cluster.py.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from tests import _subproc
from tests._subproc import REPO, describe, run
from tf1mem.distributed import launcher as launcher_lib
from tf1mem.distributed import loopback, servers
from tf1mem.distributed import task as cluster_task


def cluster_test(fn):
    """Marks a test that starts gRPC servers in subprocesses."""
    return pytest.mark.cluster(pytest.mark.slow(fn))


@pytest.fixture
def mnist_dir(real_mnist_dir):
    return real_mnist_dir  # conftest's read-only-use copy of real MNIST


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _accuracy(proc):
    last = proc.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"test accuracy: ([0-9.]+)", last)
    assert match, describe(proc, "last line is not the test accuracy")
    return float(match.group(1))


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _kill_leftovers(pids):
    """Safety net: SIGKILL whatever of ``pids`` still runs, so no test leaks a task."""
    for pid in pids:
        if pid and _alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


# --------------------------------------------------------------------------------
# Fast, in-process


def test_stop_all_signals_only_unreaped_tasks(monkeypatch, tmp_path):
    launcher = object.__new__(launcher_lib._Launcher)
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    done = launcher_lib._Task("worker", 0, str(tmp_path / "a.log"), "")
    done.proc = subprocess.Popen([sys.executable, "-c", "pass"], start_new_session=True)
    done.proc.wait()  # reaped: its pid may belong to someone else by now
    live = launcher_lib._Task("worker", 1, str(tmp_path / "b.log"), "")
    live.proc = subprocess.Popen(sleeper, start_new_session=True)
    launcher.tasks = [done, live]
    signalled = []
    real_killpg = os.killpg

    def killpg(pgid, signum):
        signalled.append(pgid)
        real_killpg(pgid, signum)

    monkeypatch.setattr(launcher_lib.os, "killpg", killpg)
    try:
        launcher.stop_all()
        assert live.proc.returncode is not None
        assert done.proc.pid not in signalled and live.proc.pid in signalled
    finally:
        _kill_leftovers([live.proc.pid])
        live.proc.wait()


def test_reexec_keeps_interpreter_flags():
    code = ("import os, sys\n"
            "from tf1mem.distributed import loopback\n"
            "os.execve = lambda exe, args, env: (print(args), sys.exit(0))\n"
            "loopback.reexec_with_loopback('tf1mem.cluster', ['--x'])\n")
    proc = run(["-O", "-c", code], env={loopback.LOOPBACK_ENV_VAR: ""}, timeout=60,
               check_rc=0)  # the first run may compile the shim
    args = eval(proc.stdout.strip().splitlines()[-1])
    assert "-O" in args[1:-3] and args[-3:] == ["-m", "tf1mem.cluster", "--x"], \
        describe(proc)


# --------------------------------------------------------------------------------
# Real clusters, in subprocesses


@cluster_test
@pytest.mark.parametrize("mode", ["async", "sync"])
def test_one_ps_two_workers_reaches_090(mnist_dir, tmp_path, mode):
    args = ["-m", "tf1mem.cluster", "--ps", "1", "--workers", "2", "--data-dir", mnist_dir,
            "--seed", "1", "--run-dir", tmp_path / "run",
            "--startup-timeout", f"{_subproc.bound(60):.0f}"]
    if mode == "sync":
        args.append("--sync")
    proc = run(args, timeout=60, check_rc=0)
    assert _accuracy(proc) >= 0.90, describe(proc)
    for i in range(2):
        assert re.search(rf"^/job:worker/task:{i}: \d+ examples/s", proc.stdout, re.M), \
            describe(proc)


class _Launch:
    """The launcher as a background process, with its run dir's tasks.json."""

    def __init__(self, args, run_dir, timeout):
        self.run_dir = run_dir
        self.timeout = timeout
        self.out = open(run_dir.parent / "launcher.out", "w+")
        self.err = open(run_dir.parent / "launcher.err", "w+")
        # Peers may take TensorFlow's start-up here to come up: the launcher's wait for
        # them is a hang guard too, scaled as the test's own.
        self.cmd = [sys.executable, "-m", "tf1mem.cluster", *map(str, args),
                    "--run-dir", str(run_dir),
                    "--startup-timeout", f"{_subproc.bound(60):.0f}"]
        self.proc = subprocess.Popen(self.cmd, env=_env(), stdout=self.out, stderr=self.err)
        self.deadline = time.monotonic() + _subproc.bound(timeout)

    def describe(self, why):
        self.out.seek(0)
        self.err.seek(0)
        logs = ""
        for log in sorted(self.run_dir.glob("*.log")) if self.run_dir.exists() else []:
            tail = [l for l in log.read_text(errors="replace").splitlines()
                    if not l.startswith(("I0000", "W0000"))][-20:]
            logs += f"\n--- {log.name} (tail) ---\n" + "\n".join(tail)
        return (f"{why}\ncommand: {' '.join(self.cmd)}\nexit code: {self.proc.poll()}\n"
                f"--- stdout ---\n{self.out.read()}\n--- stderr ---\n{self.err.read()}{logs}")

    def tasks(self):
        try:
            return json.loads((self.run_dir / "tasks.json").read_text())
        except (OSError, ValueError):
            return {}

    def wait_for(self, predicate, why):
        while time.monotonic() < self.deadline:
            if predicate():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        self.kill()
        pytest.fail(self.describe(f"gave up waiting for: {why}"))

    def finish(self):
        try:
            self.proc.wait(timeout=max(1, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(self.describe("launcher did not finish in time"))
        self.out.seek(0)
        return self.proc.returncode, self.out.read()

    def pids(self):
        return [v["pid"] for k, v in self.tasks().items() if k.startswith("/job:")]

    def close(self):
        self.kill()
        _kill_leftovers(self.pids())
        self.out.close()
        self.err.close()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=_subproc.bound(15))
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _checkpoint_step(ckpt_dir):
    try:
        text = (ckpt_dir / "checkpoint").read_text()
    except OSError:
        return -1
    match = re.search(r'model_checkpoint_path: ".*-(\d+)"', text)
    return int(match.group(1)) if match else -1


@cluster_test
@pytest.mark.parametrize("victim", ["/job:worker/task:0", "/job:ps/task:0"])
def test_sigkilled_task_is_restarted_and_training_resumes(mnist_dir, tmp_path, victim):
    ckpt = tmp_path / "ckpt"
    launch = _Launch(["--data-dir", mnist_dir, "--steps", "3000", "--seed", "2",
                      "--save-checkpoint-steps", "50", "--checkpoint-dir", ckpt],
                     tmp_path / "run", timeout=60)
    try:
        launch.wait_for(lambda: _checkpoint_step(ckpt) >= 100, "a checkpoint at step >= 100")
        pid = launch.tasks()[victim]["pid"]
        os.kill(pid, signal.SIGKILL)
        rc, out = launch.finish()
        text = launch.describe("")
        assert rc == 0, text
        assert f"{victim} was killed by signal 9" in text and "restart 1 of 3" in text, text
        chief_log = (tmp_path / "run" / "worker-0.log").read_text()
        starts = [int(s) for s in re.findall(r"starting at global step (\d+)", chief_log)]
        assert len(starts) == 2 and starts[1] >= 100, text  # restored from the checkpoint
        acc = float(out.strip().splitlines()[-1].split(": ")[1])
        assert acc >= 0.90, text
    finally:
        launch.close()


@cluster_test
def test_sigterm_stops_every_task_and_servers_bind_loopback_only(mnist_dir, tmp_path):
    launch = _Launch(["--data-dir", mnist_dir, "--steps", "1000000"], tmp_path / "run",
                     timeout=60)
    try:
        launch.wait_for(lambda: _all_listening(launch), "all three servers listening")
        tasks = {k: v for k, v in launch.tasks().items() if k.startswith("/job:")}
        ports = {v["address"].rsplit(":", 1)[1] for v in tasks.values()}
        bound = {(addr, port) for addr, port in _listeners() if port in ports}
        assert {addr for addr, _ in bound} <= {"127.0.0.1", "::ffff:127.0.0.1", "::1"}, \
            launch.describe(f"servers bound {sorted(bound)}")
        pids = [v["pid"] for v in tasks.values()]
        assert all(_alive(p) for p in pids), launch.describe("a task is not running")
        launch.proc.send_signal(signal.SIGTERM)
        rc, _ = launch.finish()
        assert rc == 130, launch.describe("expected exit code 130")
        assert not [p for p in pids if _alive(p)], launch.describe("orphaned tasks")
    finally:
        launch.close()


@cluster_test
def test_sigkilled_launcher_takes_its_tasks_with_it(mnist_dir, tmp_path):
    launch = _Launch(["--data-dir", mnist_dir, "--steps", "1000000"], tmp_path / "run",
                     timeout=60)
    pids = []
    try:
        # Serving and training, well past the start-up check of the parent pid.
        launch.wait_for(lambda: _all_listening(launch), "all three servers listening")
        pids = launch.pids()
        assert len(pids) == 3 and all(map(_alive, pids)), launch.describe("tasks not running")
        launch.proc.kill()  # no handler, no stop_all: only the tasks' own death watch
        launch.proc.wait()
        deadline = time.monotonic() + _subproc.bound(10)
        while [p for p in pids if _alive(p)] and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in pids if _alive(p)]
        assert not left, launch.describe(f"tasks {left} outlived the SIGKILLed launcher")
    finally:
        _kill_leftovers(pids)
        launch.close()


def _all_listening(launch):
    tasks = {k: v for k, v in launch.tasks().items() if k.startswith("/job:")}
    if len(tasks) != 3:
        return False
    ports = {v["address"].rsplit(":", 1)[1] for v in tasks.values()}
    return ports <= {p for _, p in _listeners()}


def _listeners():
    """(address, port) of every listening TCP socket, from /proc/net/tcp{,6}."""
    found = set()
    for name, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            with open(name) as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] != "0A":  # LISTEN
                continue
            hexaddr, hexport = fields[1].split(":")
            found.add((_decode_addr(hexaddr), str(int(hexport, 16))))
    return found


def _decode_addr(hexaddr):
    import ipaddress

    raw = bytes.fromhex(hexaddr)
    # /proc prints each 32-bit word in host (little-endian) order.
    raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    addr = ipaddress.ip_address(raw)
    mapped = getattr(addr, "ipv4_mapped", None)
    return f"::ffff:{mapped}" if mapped else str(addr)


@cluster_test
def test_port_in_use_is_a_cluster_error_naming_it(mnist_dir, tmp_path):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        proc = run(["-m", "tf1mem.cluster", "--data-dir", mnist_dir, "--port-base", port,
                    "--run-dir", tmp_path / "run"], timeout=60)
    assert proc.returncode == 4, describe(proc)
    assert f"port {port}" in proc.stderr and "--port-base 0" in proc.stderr, describe(proc)


@cluster_test
def test_peer_that_never_comes_up_is_a_cluster_error(mnist_dir, tmp_path):
    ps, chief, worker = servers.free_ports(3)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    start = time.monotonic()
    proc = run(["-m", "tf1mem.cluster", f"--ps_hosts=127.0.0.1:{ps}",
                f"--worker_hosts=127.0.0.1:{chief},127.0.0.1:{worker}", "--job_name=worker",
                "--task_index=1", "--data-dir", mnist_dir, "--startup-timeout", "3"],
               env={"TMPDIR": str(tmp)}, timeout=60)
    assert proc.returncode == 4, describe(proc)
    assert "never came up" in proc.stderr and f"127.0.0.1:{ps}" in proc.stderr, describe(proc)
    # The wait was the one asked for, and it ended: within a limit scaled, as every
    # hang guard here, to this machine (3 s of waiting after TensorFlow's start-up).
    assert "within --startup-timeout 3 s" in proc.stderr, describe(proc)
    assert time.monotonic() - start < _subproc.bound(30), \
        describe(proc, "the bounded wait did not end")
    # A non-chief has no use for a checkpoint folder, so it makes none.
    assert not list(tmp.glob("tf1mem-*")), describe(proc, f"left {list(tmp.iterdir())}")


@cluster_test
def test_task_retries_a_taken_port_when_told_to(tmp_path):
    ps, worker = servers.free_ports(2)
    log_path = tmp_path / "ps.log"
    env = _env()
    env[cluster_task.LAUNCHER_PID_ENV_VAR] = str(os.getpid())  # dies with this process
    cmd = [sys.executable, "-m", "tf1mem.cluster", f"--ps_hosts=127.0.0.1:{ps}",
           f"--worker_hosts=127.0.0.1:{worker}", "--job_name=ps", "--task_index=0",
           "--bind-retry-seconds", "30"]
    held = socket.socket()
    held.bind(("127.0.0.1", ps))
    held.listen()
    with open(log_path, "w+") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + _subproc.bound(40)
            while "Could not start" not in log_path.read_text(errors="replace"):
                assert proc.poll() is None and time.monotonic() < deadline, \
                    f"no failed bind seen: {' '.join(cmd)}\n{log_path.read_text()}"
                time.sleep(0.1)
            held.close()
            while "serving at" not in log_path.read_text(errors="replace"):
                assert proc.poll() is None and time.monotonic() < deadline, \
                    f"did not retry: {' '.join(cmd)}\n{log_path.read_text()}"
                time.sleep(0.1)
        finally:
            held.close()
            proc.kill()
            proc.wait()


@cluster_test

def test_remote_hosts_need_allow_remote():
    proc = run(["-m", "tf1mem.cluster", "--ps_hosts=192.0.2.1:2222",
                "--worker_hosts=192.0.2.2:2222", "--job_name=ps", "--task_index=0"],
               timeout=30)
    assert proc.returncode == 2 and "--allow-remote" in proc.stderr, describe(proc)


def _ip(*args):
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)


@cluster_test
@pytest.mark.netns
def test_three_hosts_in_network_namespaces(mnist_dir, tmp_path):
    """1 ps + 2 workers, each in its own network namespace on a private bridge.

    Addresses are TEST-NET-1 (192.0.2.0/24), and exist only inside namespaces this
    test creates and always deletes.
    """
    if os.geteuid() != 0:
        pytest.skip("needs root to create network namespaces")
    tag = f"t1m{os.getpid() % 100000}"
    names = [f"{tag}h{i}" for i in range(3)] + [f"{tag}br"]
    created = []
    procs = []
    try:
        for ns in names:
            res = _ip("netns", "add", ns)
            if res.returncode != 0:
                pytest.skip(f"`ip netns add` failed: {res.stderr.strip()}")
            created.append(ns)
        bridge = names[3]
        steps = [("-n", bridge, "link", "add", "br0", "type", "bridge"),
                 ("-n", bridge, "link", "set", "br0", "up")]
        for i in range(3):
            host, a, b = names[i], f"{tag}a{i}", f"{tag}b{i}"
            steps += [("link", "add", a, "type", "veth", "peer", "name", b),
                      ("link", "set", a, "netns", host), ("link", "set", b, "netns", bridge),
                      ("-n", bridge, "link", "set", b, "master", "br0"),
                      ("-n", bridge, "link", "set", b, "up"),
                      ("-n", host, "addr", "add", f"192.0.2.{i + 1}/24", "dev", a),
                      ("-n", host, "link", "set", a, "up"),
                      ("-n", host, "link", "set", "lo", "up")]
        for step in steps:
            res = _ip(*step)
            if res.returncode != 0:
                pytest.skip(f"`ip {' '.join(step)}` failed: {res.stderr.strip()}")
        common = ["--ps_hosts=192.0.2.1:2222",
                  "--worker_hosts=192.0.2.2:2222,192.0.2.3:2222", "--allow-remote",
                  "--data-dir", str(mnist_dir), "--steps", "800", "--seed", "3",
                  "--startup-timeout", f"{_subproc.bound(60):.0f}"]
        jobs = [("ps", 0, names[0]), ("worker", 0, names[1]), ("worker", 1, names[2])]
        for job, index, ns in jobs:
            log = open(tmp_path / f"{job}{index}.log", "w+")
            cmd = ["ip", "netns", "exec", ns, sys.executable, "-m", "tf1mem.cluster",
                   *common, f"--job_name={job}", f"--task_index={index}",
                   "--checkpoint-dir", str(tmp_path / f"ckpt{index}")]
            procs.append((subprocess.Popen(cmd, env=_env(), stdout=log, stderr=log,
                                           start_new_session=True), log, cmd))

        def report(why):
            text = why
            for proc, log, cmd in procs:
                log.seek(0)
                tail = [l for l in log.read().splitlines()
                        if not l.startswith(("I0000", "W0000"))][-25:]
                text += (f"\ncommand: {' '.join(cmd)}\nexit code: {proc.poll()}\n"
                         + "\n".join(tail))
            return text

        for proc, _, _ in procs[1:]:
            try:
                proc.wait(timeout=_subproc.bound(60))
            except subprocess.TimeoutExpired:
                pytest.fail(report("a worker did not finish in time"))
            assert proc.returncode == 0, report("a worker failed")
        chief_log = procs[1][1]
        chief_log.seek(0)
        text = chief_log.read()
        assert "without authentication" in text or "no authentication" in text, report("")
        acc = re.findall(r"^test accuracy: ([0-9.]+)$", text, re.M)
        assert acc and float(acc[-1]) >= 0.90, report("accuracy")
    finally:
        for proc, log, _ in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            log.close()
        for ns in created:
            _ip("netns", "del", ns)
