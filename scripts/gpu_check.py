"""GPU memory checks of tf1mem, in one run (under 4 minutes on a machine with a GPU).

    python scripts/gpu_check.py [--out DIR] [--json FILE] [--warm]

Each GPU measurement runs in a fresh subprocess (GPU options freeze when a process
creates its devices), one at a time, so that ``nvidia-smi`` sees one process:

1. reserve: memory TensorFlow reserves with default options, ``allow_growth`` and
   ``per_process_gpu_memory_fraction=0.2``: the process's use as ``nvidia-smi``
   reports it and ``tf.config.experimental.get_memory_info`` after one small run
   (the default-options process also reports TensorFlow's build);
2. warning: in the ``allow_growth`` process, a second session asking for
   ``per_process_gpu_memory_fraction=0.2`` gets tf1mem's
   ``GpuOptionsIgnoredWarning`` (``tf1mem.config``), and its device limit is
   indeed the first session's;
3. memory_stats: in the ``per_process_gpu_memory_fraction=0.2`` process, TF1's
   ``tf.contrib.memory_stats.BytesLimit()`` (tf1mem's) equals the session's device
   limit (0.2 of the GPU, not what the eager runtime would compute afresh) and
   ``MaxBytesInUse()`` equals ``get_memory_info``'s peak;
4. sweep and fit: ``python -m tf1mem.memory sweep`` on the GPU, then ``fit`` from
   the sweep's points (``--from-sweep``): the fit must confirm its answer with the
   GPU capped at the budget (a virtual device of that size, each capped run first
   checking that TensorFlow refuses more than the cap);
5. prediction: the GPU peak of one step (the sweep's point at that batch) against
   what the CPU measurement (``CUDA_VISIBLE_DEVICES=""``, run beside the GPU checks)
   predicts for the same graph and batch (goal: within 10%). On a GPU the
   host-to-device copy of each fed array is an allocation of the step, which the
   CPU never makes (its feeds are not allocated by TensorFlow), so the prediction
   is the CPU's peak plus its fed bytes; the GPU allocator's own peak is compared
   too.

A check that raises is recorded with its error and the others still run. The
report (the machine, TensorFlow's build, each check with its seconds, the total
against the 4-minute goal) is printed and written as JSON; ``--out DIR`` also keeps
the sweep's CSV and PNG there. ``--warm`` runs the sweep's points and the fit's
uncapped trials as children of a warm template (``python -m tf1mem.memory sweep|fit
--warm``, docs/RUNNING.md): the template imports TensorFlow once and never touches the
GPU, so each child makes its own CUDA context, as a cold process does; the fit's
capped trials stay cold (the cap is set before TensorFlow loads).
Children share one CUDA JIT cache (``CUDA_CACHE_MAXSIZE`` 4 GiB unless set):
TensorFlow 2.21's wheels carry machine code up to sm_89 and PTX for compute_90,
so on a Hopper GPU the kernels a process uses are compiled at first use, once.

Exit status: 0 every check passed, or no GPU (it prints ``no GPU: skipped`` and the
JSON says why); 1 a check failed.
"""

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD_TIMEOUT = 240  # one TensorFlow process
COMMAND_TIMEOUT = 600  # sweep or fit: a process per point or trial
MODEL = ("--model", "mlp", "--hidden", "1024")
SWEEP = (256, 1024, 4096)
BATCH = 4096  # the prediction's batch: one of the sweep's points
TOLERANCE = 0.10
BUDGET_MIB = 256
GOAL_SECONDS = 240  # the whole run, on a machine with a GPU
# fit's last lines when it confirmed under the cap and started from the sweep's points
FIT_ANSWER = re.compile(r"^answer: batch (\d+) \(.* measured with the allocator capped at "
                        r"the budget, .*, and \d+ points from the sweep$", re.M)


def _env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH", "")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.setdefault("CUDA_CACHE_MAXSIZE", str(4 << 30))
    env.update(extra)
    return env


def _python(args, timeout=CHILD_TIMEOUT, **env):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env=_env(**env), timeout=timeout, cwd=REPO)


def _python_beside(args, **env):
    """Starts a child that runs while the others do; :func:`_finish` collects it."""
    return subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(**env), cwd=REPO)


def _finish(popen):
    try:
        out, err = popen.communicate(timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        popen.kill()
        out, err = popen.communicate()
    return subprocess.CompletedProcess(popen.args, popen.returncode, out, err)


def _last_json(proc):
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------- child modes

def _nvidia_smi(*query):
    return subprocess.run(["nvidia-smi", *query], capture_output=True, text=True,
                          timeout=30).stdout


def _nvidia_smi_process_mib(pid):
    out = _nvidia_smi("--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits")
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[0] == str(pid):
            return int(parts[1])
    return None


def _nvidia_smi_used_mib():
    """Memory in use on GPU 0, all processes together (MiB), or None."""
    out = _nvidia_smi("--query-gpu=memory.used", "--format=csv,noheader,nounits", "-i", "0")
    try:
        return int(out.strip().splitlines()[0])
    except (IndexError, ValueError):
        return None


def _gpu_limits(session):
    return [int(d.memory_limit_bytes) for d in session.list_devices()
            if d.device_type == "GPU"]


def _child_reserve(mode):
    """One small run on the GPU with ``mode``'s options, through tf1mem's sessions.

    After the reading, the ``default`` process reports TensorFlow's build and the
    ``allow_growth`` process opens a second session asking for other GPU options.
    """
    import warnings

    import tf1mem
    from tf1mem import config as tf1mem_config

    with tf1mem.legacy() as tf:  # before anything imports Keras
        if not tf.config.list_physical_devices("GPU"):
            return {"no_gpu": True}
        used_before = _nvidia_smi_used_mib()
        gpu_options = {"allow_growth": {"allow_growth": True},
                       "fraction_0.2": {"per_process_gpu_memory_fraction": 0.2}}.get(mode, {})
        graph = tf.Graph()
        with graph.as_default(), tf.device("/GPU:0"):
            total = tf.reduce_sum(tf.ones([1024, 1024]))
            contrib_stats = [tf.contrib.memory_stats.MaxBytesInUse(),
                             tf.contrib.memory_stats.BytesLimit()]
        with tf.Session(graph=graph, config=tf.ConfigProto(
                gpu_options=tf.GPUOptions(**gpu_options))) as sess:
            sess.run(total)
            contrib_peak, contrib_limit = (int(v) for v in sess.run(contrib_stats))
            info = tf.config.experimental.get_memory_info("GPU:0")
            result = {"mode": mode,
                      "nvidia_smi_process_mib": _nvidia_smi_process_mib(os.getpid()),
                      "nvidia_smi_used_before_mib": used_before,
                      "nvidia_smi_used_mib": _nvidia_smi_used_mib(),
                      "tf_current_bytes": int(info["current"]),
                      "tf_peak_bytes": int(info["peak"]),
                      "device_limit_bytes": (_gpu_limits(sess) or [None])[0],
                      "memory_stats": {"max_bytes_in_use": contrib_peak,
                                       "bytes_limit": contrib_limit}}
            if mode == "allow_growth":
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    second = tf.Session(graph=graph, config=tf.ConfigProto(
                        gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.2)))
                with second:
                    second.run(total)
                    result["warning"] = {
                        "warned": [str(w.message) for w in caught if issubclass(
                            w.category, tf1mem_config.GpuOptionsIgnoredWarning)],
                        "first_limit_bytes": _gpu_limits(sess),
                        "second_limit_bytes": _gpu_limits(second)}
        if mode == "default":
            result["about"] = _about(tf)
    return result


def _about(tf):
    gpus = tf.config.list_physical_devices("GPU")
    details = [tf.config.experimental.get_device_details(g) for g in gpus]
    build = dict(tf.sysconfig.get_build_info())
    return {"tensorflow": tf.__version__, "gpus": [g.name for g in gpus],
            "gpu_details": [{k: (list(v) if isinstance(v, tuple) else v)
                             for k, v in d.items()} for d in details],
            "build": {k: build.get(k) for k in ("cuda_version", "cudnn_version",
                                                 "cuda_compute_capabilities")}}


# ------------------------------------------------------------------ checks

def _reserve_mib(data):
    """What the process holds: nvidia-smi's per-process figure, else the device's rise."""
    if data.get("nvidia_smi_process_mib") is not None:
        return data["nvidia_smi_process_mib"]
    before, after = data.get("nvidia_smi_used_before_mib"), data.get("nvidia_smi_used_mib")
    return after - before if before is not None and after is not None else None


def _check_reserve():
    results = {}
    for mode in ("default", "allow_growth", "fraction_0.2"):
        data = _last_json(_python([__file__, "--child", "reserve", mode]))
        if data.get("no_gpu"):
            return None
        data["reserved_mib"] = _reserve_mib(data)
        results[mode] = data
    held = [results[m]["reserved_mib"] for m in ("allow_growth", "fraction_0.2", "default")]
    ok = None not in held and held[0] < held[1] < held[2]
    return {"ok": ok, "expect": "allow_growth < fraction 0.2 < default (nvidia-smi)",
            "modes": results}


def _check_warning(reserve):
    """The second session of the ``allow_growth`` reserve process."""
    data = reserve["modes"]["allow_growth"]["warning"]
    ok = bool(data["warned"]) and data["first_limit_bytes"] == data["second_limit_bytes"]
    return {"ok": ok, "expect": "GpuOptionsIgnoredWarning and the first session's limit",
            **data}


def _check_memory_stats(reserve):
    """tf.contrib.memory_stats in the ``fraction_0.2`` reserve process."""
    data = reserve["modes"]["fraction_0.2"]
    stats = data["memory_stats"]
    ok = (stats["bytes_limit"] == data["device_limit_bytes"]
          and stats["max_bytes_in_use"] == data["tf_peak_bytes"])
    return {"ok": ok, "expect": "BytesLimit = the session's device limit, MaxBytesInUse = "
                                "get_memory_info's peak", **stats,
            "device_limit_bytes": data["device_limit_bytes"],
            "tf_peak_bytes": data["tf_peak_bytes"]}


def _sweep_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _warm_env(folder):
    """``--warm``: the sweep's and fit's template lives in FOLDER/warm (private)."""
    warm = os.path.join(folder, "warm")
    os.makedirs(warm, mode=0o700, exist_ok=True)
    os.chmod(warm, 0o700)
    return {"TF1MEM_WARM_DIR": warm}


def _check_sweep_fit(folder, warm=False):
    csv_path = os.path.join(folder, "sweep.csv")
    how, env = (["--warm", "--verbose"], _warm_env(folder)) if warm else ([], {})
    try:
        return _sweep_fit(folder, csv_path, how, env)
    finally:
        if warm:  # no template left behind
            _python(["-m", "tf1mem.run", "--warm-stop"], **env)


def _sweep_fit(folder, csv_path, how, env):
    sweep = _python(["-m", "tf1mem.memory", "sweep", *MODEL, "--batch-sizes",
                     ",".join(map(str, SWEEP)), "--csv", csv_path,
                     "--png", os.path.join(folder, "sweep.png"), "--no-progress", *how],
                    timeout=COMMAND_TIMEOUT, **env)
    result = {"ok": False,
              "expect": "sweep and fit exit 0 on the GPU; fit starts from the sweep's "
                        "points and confirms its answer with the GPU capped at the budget",
              "sweep": {"rc": sweep.returncode, "stdout": sweep.stdout,
                        "stderr_tail": sweep.stderr[-2000:]}}
    if sweep.returncode != 0:
        return result
    result["sweep"]["rows"] = _sweep_rows(csv_path)
    try:
        fit = _python(["-m", "tf1mem.memory", "fit", *MODEL, "--budget", f"{BUDGET_MIB}MiB",
                       "--from-sweep", csv_path, "--no-progress", *how],
                      timeout=COMMAND_TIMEOUT, **env)
    except subprocess.TimeoutExpired as exc:  # keep the sweep and the trials so far
        fit = subprocess.CompletedProcess(exc.cmd, None, _text(exc.stdout),
                                          f"timed out after {exc.timeout} s\n"
                                          + _text(exc.stderr))
    result["fit"] = {"rc": fit.returncode, "stdout": fit.stdout,
                     "stderr_tail": fit.stderr[-2000:]}
    answer = FIT_ANSWER.search(fit.stdout)
    result["ok"] = fit.returncode == 0 and answer is not None
    if answer:
        result["answer"] = int(answer.group(1))
    return result


def _text(output):
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


def _device_on(data, kind):
    found = [d for name, d in data["devices"].items() if f"{kind}:" in name]
    return max(found, key=lambda d: d["peak_bytes"]) if found else None


def _measure_cpu():
    """The CPU's measurement of the prediction's batch, started beside the GPU checks."""
    return _python_beside(["-m", "tf1mem.memory", "measure", *MODEL, "--batch-size",
                           str(BATCH), "--json"], CUDA_VISIBLE_DEVICES="")


def _check_prediction(cpu_child, sweep_fit):
    cpu = _device_on(_last_json(_finish(cpu_child)), "CPU")
    rows = [r for r in sweep_fit.get("sweep", {}).get("rows", [])
            if int(r["batch_size"]) == BATCH and "GPU:" in r["device"]]
    if not rows:
        raise RuntimeError(f"the sweep has no GPU point at batch {BATCH}")
    gpu = max(rows, key=lambda r: int(r["peak_bytes"]))
    cpu_peak = cpu["peak_bytes"] if cpu else None
    gpu_peak = int(gpu["peak_bytes"])
    predicted = cpu_peak + cpu["fed_bytes"] if cpu else None
    allocator = int(gpu["allocator_peak_bytes"]) if gpu["allocator_peak_bytes"] else None
    ratio = gpu_peak / predicted if predicted and gpu_peak else None
    allocator_ratio = allocator / predicted if predicted and allocator else None
    ok = all(r is not None and abs(r - 1) <= TOLERANCE for r in (ratio, allocator_ratio))
    return {"ok": ok,
            "expect": f"GPU peak and GPU allocator peak within {TOLERANCE:.0%} of the CPU's "
                      f"peak + fed bytes (a GPU holds a copy of each feed)",
            "batch": BATCH, "cpu_peak_bytes": cpu_peak,
            "cpu_fed_bytes": cpu["fed_bytes"] if cpu else None,
            "predicted_bytes": predicted, "gpu_peak_bytes": gpu_peak, "ratio": ratio,
            "gpu_allocator_peak_bytes": allocator, "allocator_ratio": allocator_ratio,
            "cpu": cpu, "gpu": gpu}


def _timed(fn, *args):
    """Runs one check; an exception becomes a failed check with its error."""
    start = time.monotonic()
    try:
        result = fn(*args)
    except Exception as exc:  # a broken check must not hide the others
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}",
                  "traceback": traceback.format_exc()[-4000:]}
    if isinstance(result, dict):
        result["seconds"] = round(time.monotonic() - start, 1)
    return result


def _no_gpu_reason():
    if shutil.which("nvidia-smi") is None:
        return "nvidia-smi not found"
    try:
        proc = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"nvidia-smi -L failed: {exc}"
    if proc.returncode != 0 or "GPU" not in proc.stdout:
        return f"nvidia-smi -L lists no GPU (exit {proc.returncode})"
    return None


def _write(path, report):
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")


def _run_checks(folder, warm=False):
    start = time.monotonic()
    report = {"skipped": None,
              "machine": _nvidia_smi("--query-gpu=name,driver_version,memory.total",
                                     "--format=csv,noheader").strip()}
    cpu_child = _measure_cpu()
    try:
        reserve = _timed(_check_reserve)
        if reserve is None:
            return {"skipped": "TensorFlow sees no GPU"}
        report["reserve"] = reserve
        report["about"] = reserve.get("modes", {}).get("default", {}).get(
            "about", {"error": reserve.get("error", "no default-options process")})
        report["warning"] = _timed(_check_warning, reserve)
        report["memory_stats"] = _timed(_check_memory_stats, reserve)
        report["sweep_fit"] = _timed(_check_sweep_fit, folder, warm)
        report["warm"] = warm
        report["prediction"] = _timed(_check_prediction, cpu_child, report["sweep_fit"])
    finally:
        if cpu_child.poll() is None:
            cpu_child.kill()
            cpu_child.wait()
    seconds = round(time.monotonic() - start, 1)
    report["total"] = {"ok": seconds <= GOAL_SECONDS, "seconds": seconds,
                       "expect": f"the whole run within {GOAL_SECONDS} s"}
    return report


def _summary(report):
    about = report["about"]
    print(f"machine: {report['machine']}")
    if "error" not in about:
        print(f"tensorflow {about['tensorflow']}, built for {about['build']}, "
              f"GPUs {about['gpu_details']}")
    failed = []
    for name in ("reserve", "warning", "memory_stats", "sweep_fit", "prediction", "total"):
        check = report[name]
        print(f"{name}: {'ok' if check['ok'] else 'FAILED'}  ({check.get('expect', '')}) "
              f"{check['seconds']} s")
        if "error" in check:
            print(f"  error: {check['error']}")
        if not check["ok"]:
            failed.append(name)
    for mode, data in report["reserve"].get("modes", {}).items():
        print(f"  reserve {mode}: {data['reserved_mib']} MiB held (nvidia-smi), TF current "
              f"{data['tf_current_bytes']} B, peak {data['tf_peak_bytes']} B, device limit "
              f"{data['device_limit_bytes']} B")
    warning = report["warning"]
    if "warned" in warning:
        print(f"  warning: {warning['warned'][:1]}; limits {warning['first_limit_bytes']} "
              f"then {warning['second_limit_bytes']}")
    stats = report["memory_stats"]
    if "bytes_limit" in stats:
        print(f"  memory_stats: BytesLimit {stats['bytes_limit']} B (device limit "
              f"{stats['device_limit_bytes']} B), MaxBytesInUse {stats['max_bytes_in_use']} B "
              f"(get_memory_info peak {stats['tf_peak_bytes']} B)")
    for part in ("sweep", "fit"):
        data = report["sweep_fit"].get(part)
        if data:
            print(data["stdout"].rstrip() or data["stderr_tail"].rstrip())
    p = report["prediction"]
    if "ratio" in p:
        print(f"  prediction: CPU peak {p['cpu_peak_bytes']} B + fed {p['cpu_fed_bytes']} B = "
              f"{p['predicted_bytes']} B; GPU peak {p['gpu_peak_bytes']} B (ratio {p['ratio']}), "
              f"GPU allocator peak {p['gpu_allocator_peak_bytes']} B (ratio "
              f"{p['allocator_ratio']})")
    return failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="folder for the report, the sweep's CSV and PNG")
    parser.add_argument("--json", help="report file (default gpu_check.json, in --out if given)")
    parser.add_argument("--warm", action="store_true",
                        help="run the sweep's points and fit's uncapped trials in children "
                             "of a warm template (python -m tf1mem.memory sweep|fit --warm; "
                             "the template is stopped at the end); the GPU is initialised "
                             "in each child, never in the template")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.child:
        children = {"reserve": lambda: _child_reserve(ns.child[1])}
        print(json.dumps(children[ns.child[0]]()))
        return 0
    if ns.out:
        os.makedirs(ns.out, exist_ok=True)
    json_path = ns.json or os.path.join(ns.out or ".", "gpu_check.json")
    reason = _no_gpu_reason()
    report = {"skipped": reason}
    if reason is None:
        if ns.out:
            report = _run_checks(ns.out, ns.warm)
        else:
            with tempfile.TemporaryDirectory() as folder:
                report = _run_checks(folder, ns.warm)
        reason = report["skipped"]
    if reason is not None:
        print(f"gpu_check: no GPU: skipped ({reason})")
        _write(json_path, report)
        return 0
    failed = _summary(report)
    _write(json_path, report)
    print(f"report: {json_path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
