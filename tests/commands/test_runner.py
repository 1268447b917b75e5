"""``python -m tf1mem.run``: behaves as ``python SCRIPT``, plus config injection."""

import json
import os
import sys
import textwrap

import pytest

from tests import _subproc

pytestmark = pytest.mark.slow


def _write(path, text):
    path.write_text(textwrap.dedent(text))
    return path


_TF_LOG_PREFIXES = ("WARNING: All log messages before absl", "I0000 ", "W0000 ", "E0000 ",
                    "To enable the following instructions")


def _without_tf_logs(text):
    """stderr minus TensorFlow's start-up log lines (printed once the script imports TF)."""
    return "".join(line for line in text.splitlines(True)
                   if not line.startswith(_TF_LOG_PREFIXES))


@pytest.fixture(params=["cold", "warm"])
def how(request):
    """``(runner options, env)``: the runner cold, or ``--warm`` (one template for the
    module, stopped at its end): every promise of the runner holds both ways."""
    if request.param == "cold":
        return (), {}
    folder = request.getfixturevalue("module_warm_dir")
    return ("--warm",), {"TF1MEM_WARM_DIR": str(folder)}


def _both(tmp_path, script, *args, runner_opts=(), how=((), {})):
    """Runs SCRIPT with python and through the runner; returns both results."""
    plain = _subproc.run([script, *args], cwd=tmp_path)
    runner = _subproc.run(["-m", "tf1mem.run", *how[0], *runner_opts, script, *args],
                          cwd=tmp_path, env=how[1])
    return plain, runner


@pytest.mark.parametrize("body, rc", [
    ("import sys\nprint('out'); print('err', file=sys.stderr)\nsys.exit(3)\n", 3),
    ("import sys\nsys.exit('fatal: bad input')\n", 1),
    ("print('fine')\n", 0),
    ("def f():\n    raise ValueError('boom')\nf()\n", 1),
])
def test_exit_status_and_output_as_python_script(tmp_path, body, rc, how):
    script = _write(tmp_path / "prog.py", body)
    plain, runner = _both(tmp_path, script, how=how)
    assert plain.returncode == runner.returncode == rc
    assert runner.stdout == plain.stdout
    # Same stderr, tracebacks included: they start in the user's file.
    assert _without_tf_logs(runner.stderr) == plain.stderr


def test_argv_path_file_and_name_as_python_script(tmp_path, how):
    sub = tmp_path / "proj"
    sub.mkdir()
    _write(sub / "localmod.py", "VALUE = 'from the script folder'\n")
    script = _write(sub / "prog.py", """
        import json, os, sys
        import localmod
        print(json.dumps({"argv": sys.argv, "path0": sys.path[0], "file": __file__,
                          "name": __name__, "local": localmod.VALUE}))
    """)
    plain, runner = _both(tmp_path, script, "--flag", "x", "-m", "y", how=how)
    assert json.loads(runner.stdout) == json.loads(plain.stdout)


def test_module_form(tmp_path, how):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _write(pkg / "job.py", """
        import sys
        import tensorflow as tf
        print(__name__, sys.argv[1:], hasattr(tf, "placeholder"))
    """)
    proc = _subproc.run(["-m", "tf1mem.run", *how[0], "-m", "pkg.job", "a", "--b"],
                        cwd=tmp_path, env=how[1], check_rc=0)
    assert proc.stdout.strip() == "__main__ ['a', '--b'] True"


@pytest.mark.parametrize("argv, needle", [
    ([], "give a SCRIPT"),
    (["missing.py"], "missing.py"),
    (["--gpu-memory-fraction", "0", "x.py"], "--gpu-memory-fraction"),
    (["--placement-report", "out.txt", "x.py"], "out.txt"),
])
def test_runner_usage_errors_exit_2(tmp_path, argv, needle, how):
    _write(tmp_path / "x.py", "print(1)\n")
    proc = _subproc.run(["-m", "tf1mem.run", *how[0], *argv], cwd=tmp_path, env=how[1],
                        check_rc=2)
    assert needle in proc.stderr


CONFIG_PROBE = """
    import json
    import tensorflow as tf
    def opts(sess):
        c = sess._config
        return [c.gpu_options.allow_growth, round(c.gpu_options.per_process_gpu_memory_fraction, 3),
                c.log_device_placement, c.allow_soft_placement]
    out = {}
    with tf.Session() as s:
        out["plain"] = opts(s)
    with tf.Session(config=tf.ConfigProto(
            gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.25))) as s:
        out["own"] = opts(s)
    s = tf.InteractiveSession()
    out["interactive"] = opts(s)
    s.close()
    step = tf.train.get_or_create_global_step()
    with tf.train.MonitoredTrainingSession() as s:
        out["monitored"] = opts(s._tf_sess())
    print(json.dumps(out))
"""


def test_config_injected_into_every_session_script_value_wins(tmp_path):
    script = _write(tmp_path / "probe.py", CONFIG_PROBE)
    proc = _subproc.run(["-m", "tf1mem.run", "--allow-growth", "--gpu-memory-fraction", "0.5",
                         "--allow-soft-placement", script], cwd=tmp_path, check_rc=0)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["plain"] == [True, 0.5, False, True]
    assert out["own"] == [True, 0.25, False, True]  # the script's own fraction wins
    assert out["interactive"] == [True, 0.5, False, True]
    assert out["monitored"] == [True, 0.5, False, True]


def test_force_config_and_env_overrides(tmp_path):
    script = _write(tmp_path / "probe.py", CONFIG_PROBE)
    proc = _subproc.run(["-m", "tf1mem.run", "--force-config", "--gpu-memory-fraction", "0.5",
                         script], cwd=tmp_path, check_rc=0,
                        env={"TF1MEM_LOG_DEVICE_PLACEMENT": "1", "TF1MEM_ALLOW_GROWTH": "yes"})
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["own"] == [True, 0.5, True, False]  # forced over the script's 0.25
    assert out["plain"] == [True, 0.5, True, False]


def test_without_options_sessions_are_untouched(tmp_path):
    script = _write(tmp_path / "probe.py", CONFIG_PROBE)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["own"] == [False, 0.25, False, False]
    assert out["plain"][:3] == [False, 0.0, False]


def test_placement_report_json(tmp_path):
    script = _write(tmp_path / "place.py", """
        import tensorflow as tf
        with tf.device("/cpu:0"):
            a = tf.constant([1.0, 2.0], name="a")
            b = tf.reduce_sum(a * 2, name="total")
        with tf.Session() as s:
            print(s.run(b))
            print(s.run(b))
    """)
    report = tmp_path / "p.json"
    proc = _subproc.run(["-m", "tf1mem.run", "--placement-report", report, script],
                        cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["6.0", "6.0"]
    data = json.loads(report.read_text())
    text = json.dumps(data)
    assert "total" in text and "/device:CPU:0" in text


SERVER_PROBE = """
    import socket
    import tensorflow as tf
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = tf.train.Server(tf.train.ClusterSpec({"local": ["localhost:%d" % port]}),
                             job_name="local", task_index=0)
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in open(table).read().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if state == "0A" and local.endswith(":%04X" % port):
                listening.append(local.split(":")[0])
    print(listening)
"""


def test_script_servers_listen_on_loopback_unless_allow_remote(tmp_path):
    script = _write(tmp_path / "server.py", SERVER_PROBE)
    default = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    # 127.0.0.1 as an IPv4-mapped IPv6 address (gRPC opens a dual-stack socket).
    assert default.stdout.strip() == "['0000000000000000FFFF00000100007F']"
    remote = _subproc.run(["-m", "tf1mem.run", "--allow-remote", script], cwd=tmp_path,
                          check_rc=0)
    assert remote.stdout.strip() == "['00000000000000000000000000000000']"  # every interface
    assert "executes any graph it is sent" in remote.stderr


def test_late_gpu_options_warn_at_the_users_line(tmp_path):
    script = _write(tmp_path / "late.py", """
        import tensorflow as tf
        first = tf.Session()
        second = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
        print("sessions made")
    """)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert "sessions made" in proc.stdout
    assert "GpuOptionsIgnoredWarning" in proc.stderr
    assert "allow_growth=True" in proc.stderr
    assert f"{script}:4" in proc.stderr  # points at the second Session(...) line


def test_the_script_does_not_walk_tensorflow_in_full_collections(tmp_path, how):
    """TF's start-up objects are frozen before the script runs; its gc settings are its own."""
    script = _write(tmp_path / "gc_state.py", """\
        import gc
        import tensorflow as tf
        print(gc.get_freeze_count() > 100000, gc.get_threshold(), gc.isenabled())
        gc.collect()
        # What a full collection walks: the oldest generation, not the frozen objects.
        print(len(gc.get_objects(generation=2)) < gc.get_freeze_count() // 2)
        """)
    proc = _subproc.run(["-m", "tf1mem.run", *how[0], script], cwd=tmp_path, env=how[1],
                        check_rc=0)
    assert proc.stdout.split() == ["True", "(700,", "10,", "10)", "True", "True"], proc.stdout


def test_session_run_is_wrapped_to_ask_for_the_out_of_memory_list(tmp_path):
    """Every run asks for TF's live-tensor list on OOM (the runner's explanation needs it:
    ~14 us per run measured on a trivial graph); the script's own options are copied,
    never changed."""
    script = _write(tmp_path / "run_attr.py", """\
        import tensorflow as tf
        from tensorflow.python.client import session
        print(session.BaseSession.run.__module__, hasattr(session.BaseSession.run, '__wrapped__'))
        opts = tf.RunOptions(trace_level=tf.RunOptions.NO_TRACE)
        with tf.Session() as sess:
            print(sess.run(tf.constant(2) * 3, options=opts))
        print(opts.report_tensor_allocations_upon_oom)
        """)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["tf1mem.compat.runtime.session_hooks", "True", "6", "False"], \
        proc.stdout


@pytest.mark.cold  # a warm child has TensorFlow imported already, by construction
def test_a_script_that_never_imports_tensorflow_never_loads_it(tmp_path):
    """The runner imports TensorFlow only when the program does (its start-up costs ~4 s)."""
    script = _write(tmp_path / "no_tf.py", """\
        import json, sys
        import numpy
        print('tensorflow' in sys.modules, 'tf_keras' in sys.modules, json.dumps(sys.argv[1:]))
        """)
    report = tmp_path / "placement.csv"
    proc = _subproc.run(["-m", "tf1mem.run", "--placement-report", report, script, "a"],
                        cwd=tmp_path, check_rc=0)
    assert proc.stdout.split() == ["False", "False", '["a"]'], proc.stdout
    assert _without_tf_logs(proc.stderr) == proc.stderr == "", proc.stderr  # no TF log at all
    assert report.read_text() == "run,node,op,device\n"  # asked for: written, empty


def test_tensorflow_first_imported_by_a_library_still_gets_the_whole_shim(tmp_path):
    """Whoever imports TensorFlow first (here tf-slim), the TF1 set-up is in before it returns."""
    script = _write(tmp_path / "lib_first.py", """\
        import sys
        import tf_slim as slim
        print('loaded by tf_slim:', 'tensorflow' in sys.modules)
        import tensorflow as tf
        from tensorflow.examples.tutorials.mnist import input_data
        print(tf.executing_eagerly(), tf.get_default_graph().seed, input_data.__name__)
        x = tf.placeholder(tf.float32, [None, 3])
        print(slim.fully_connected(x, 2).shape)
        """)
    proc = _subproc.run(["-m", "tf1mem.run", "--seed", "7", script], cwd=tmp_path,
                        check_rc=0)
    assert proc.stdout.splitlines() == [
        "loaded by tf_slim: True", "False 7 tf1mem.data.input_data", "(?, 2)"], proc.stdout


def test_output_before_import_tensorflow_comes_first_as_with_python(tmp_path):
    """TensorFlow's start-up log comes at the script's import line, as with ``python``."""
    script = _write(tmp_path / "late.py", """\
        import sys
        print('before', file=sys.stderr, flush=True)
        import tensorflow as tf
        print(tf.constant(1.0).op.type)
        """)
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=0,
                        env={"TF_CPP_MIN_LOG_LEVEL": "0"})
    assert proc.stdout == "Const\n"
    first = proc.stderr.splitlines()[0]
    assert first == "before", proc.stderr
