"""GPU memory checks of tf1mem, in one run (under 4 minutes on a machine with a GPU).

    python scripts/gpu_check.py [--out DIR] [--json FILE]

Each check runs in a fresh subprocess (GPU options freeze when a process creates
its devices):

1. reserve: memory TensorFlow reserves with default options, ``allow_growth`` and
   ``per_process_gpu_memory_fraction=0.2``: the process's use as ``nvidia-smi``
   reports it and ``tf.config.experimental.get_memory_info`` after one small run;
2. warning: a second session asking for other GPU options gets tf1mem's
   ``GpuOptionsIgnoredWarning`` (``tf1mem.config``), and its device limit is
   indeed the first session's;
3. sweep and fit: ``python -m tf1mem.memory sweep`` and ``fit`` on the GPU; then
   three training steps at the fit's batch on a GPU capped at the budget (a virtual
   device of that size) must run, and at 1.3 times that batch must run out;
4. prediction: the GPU peak of one step against what the CPU measurement
   (``CUDA_VISIBLE_DEVICES=""``) predicts for the same graph and batch (goal:
   within 10%). On a GPU the host-to-device copy of each fed array is an
   allocation of the step, which the CPU never makes (its feeds are not allocated
   by TensorFlow), so the prediction is the CPU's peak plus its fed bytes; the
   ratio to the CPU's peak alone is reported beside it.

A check that raises is recorded with its error and the others still run. The
report (the machine, TensorFlow's build, each check with its seconds) is printed
and written as JSON; ``--out DIR`` also keeps the sweep's CSV and PNG there.
Children share one CUDA JIT cache (``CUDA_CACHE_MAXSIZE`` 4 GiB unless set):
TensorFlow 2.21's wheels carry machine code up to sm_89 and PTX for compute_90,
so on a Hopper GPU the kernels a process uses are compiled at first use, once.

Exit status: 0 every check passed, or no GPU (it prints ``no GPU: skipped`` and the
JSON says why); 1 a check failed.
"""

import argparse
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
CHILD_TIMEOUT = 240
MODEL = ("--model", "mlp", "--hidden", "1024")
BATCH = 4096
TOLERANCE = 0.10
BUDGET_MIB = 256
OVER = 1.3  # a batch this much larger than the fit's answer must run out on the budget


def _env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH", "")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.setdefault("CUDA_CACHE_MAXSIZE", str(4 << 30))
    env.update(extra)
    return env


def _python(args, **env):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env=_env(**env), timeout=CHILD_TIMEOUT, cwd=REPO)


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


def _child_reserve(mode):
    import tensorflow as tf

    v1 = tf.compat.v1
    if not tf.config.list_physical_devices("GPU"):
        return {"no_gpu": True}
    used_before = _nvidia_smi_used_mib()
    config = v1.ConfigProto()
    if mode == "allow_growth":
        config.gpu_options.allow_growth = True
    elif mode == "fraction_0.2":
        config.gpu_options.per_process_gpu_memory_fraction = 0.2
    graph = tf.Graph()
    with graph.as_default(), tf.device("/GPU:0"):
        total = tf.reduce_sum(tf.ones([1024, 1024]))
    with v1.Session(graph=graph, config=config) as sess:
        sess.run(total)
        limit = [int(d.memory_limit_bytes) for d in sess.list_devices()
                 if d.device_type == "GPU"]
        info = tf.config.experimental.get_memory_info("GPU:0")
        used_after = _nvidia_smi_used_mib()
        return {"mode": mode, "nvidia_smi_process_mib": _nvidia_smi_process_mib(os.getpid()),
                "nvidia_smi_used_before_mib": used_before,
                "nvidia_smi_used_mib": used_after,
                "tf_current_bytes": int(info["current"]), "tf_peak_bytes": int(info["peak"]),
                "device_limit_bytes": limit[0] if limit else None}


def _child_warning():
    import warnings

    import tf1mem
    from tf1mem import config as tf1mem_config

    with tf1mem.legacy() as tf:
        graph = tf.Graph()
        with graph.as_default():
            total = tf.reduce_sum(tf.ones([4]))
        first = tf.Session(graph=graph, config=tf.ConfigProto(
            gpu_options=tf.GPUOptions(allow_growth=True)))
        first.run(total)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            second = tf.Session(graph=graph, config=tf.ConfigProto(
                gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.2)))
        second.run(total)
        limits = [[int(d.memory_limit_bytes) for d in s.list_devices()
                   if d.device_type == "GPU"] for s in (first, second)]
        first.close()
        second.close()
    warned = [str(w.message) for w in caught
              if issubclass(w.category, tf1mem_config.GpuOptionsIgnoredWarning)]
    return {"warned": warned, "first_limit_bytes": limits[0], "second_limit_bytes": limits[1]}


def _child_hold(batch, limit_mib):
    """Three training steps of the check's model at ``batch`` on a GPU capped at
    ``limit_mib`` (a virtual device of that size): whether they run or run out."""
    import numpy as np
    import tensorflow as tf

    from tf1mem import models

    v1 = tf.compat.v1
    batch, limit_mib = int(batch), int(limit_mib)
    config = v1.ConfigProto()
    config.gpu_options.experimental.virtual_devices.add().memory_limit_mb.append(limit_mib)
    graph = tf.Graph()
    with graph.as_default():
        net = models.train_graph(MODEL[1], hidden=int(MODEL[3]))
        init = v1.global_variables_initializer()
    rng = np.random.default_rng(0)
    feed = {net.x: rng.random((batch, models.IMAGE_PIXELS), dtype=np.float32),
            net.y: np.eye(models.NUM_CLASSES, dtype=np.float32)[
                rng.integers(0, models.NUM_CLASSES, batch)]}
    with v1.Session(graph=graph, config=config) as sess:
        sess.run(init)
        try:
            for _ in range(3):
                sess.run(net.train_op, feed)
            error = None
        except tf.errors.ResourceExhaustedError as exc:
            # TF's first line is "Graph execution error:"; the allocation is named later.
            lines = exc.message.splitlines()
            error = next((line for line in lines if "OOM" in line), lines[0])[:300]
        info = tf.config.experimental.get_memory_info("GPU:0")
        limit = [int(d.memory_limit_bytes) for d in sess.list_devices()
                 if d.device_type == "GPU"]
    return {"batch": batch, "limit_mib": limit_mib, "ran": error is None, "error": error,
            "tf_peak_bytes": int(info["peak"]), "device_limit_bytes": limit[0] if limit else None}


def _child_about():
    import tensorflow as tf

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


def _check_warning():
    data = _last_json(_python([__file__, "--child", "warning"]))
    ok = bool(data["warned"]) and data["first_limit_bytes"] == data["second_limit_bytes"]
    return {"ok": ok, "expect": "GpuOptionsIgnoredWarning and the first session's limit",
            **data}


def _check_sweep_fit(folder):
    sweep = _python(["-m", "tf1mem.memory", "sweep", *MODEL, "--batch-sizes",
                     "256,1024,4096", "--csv", os.path.join(folder, "sweep.csv"),
                     "--png", os.path.join(folder, "sweep.png"), "--no-progress"])
    fit = _python(["-m", "tf1mem.memory", "fit", *MODEL, "--budget", f"{BUDGET_MIB}MiB",
                   "--no-progress"])
    result = {"ok": sweep.returncode == 0 and fit.returncode == 0,
              "expect": "sweep and fit exit 0 on the GPU; the fit's batch runs on a GPU "
                        f"capped at the budget, {OVER}x that batch runs out",
              "sweep": {"rc": sweep.returncode, "stdout": sweep.stdout,
                        "stderr_tail": sweep.stderr[-2000:]},
              "fit": {"rc": fit.returncode, "stdout": fit.stdout,
                      "stderr_tail": fit.stderr[-2000:]}}
    answer = re.search(r"^answer: batch (\d+)", fit.stdout, re.M)
    if answer:
        batch = int(answer.group(1))
        held = [_last_json(_python([__file__, "--child", "hold", str(b), str(BUDGET_MIB)]))
                for b in (batch, int(batch * OVER))]
        result["hold"] = held
        result["ok"] = result["ok"] and held[0]["ran"] and not held[1]["ran"]
    else:
        result["ok"] = False
    return result


def _device_on(data, kind):
    found = [d for name, d in data["devices"].items() if f"{kind}:" in name]
    return max(found, key=lambda d: d["peak_bytes"]) if found else None


def _check_prediction():
    args = ["-m", "tf1mem.memory", "measure", *MODEL, "--batch-size", str(BATCH), "--json"]
    cpu = _device_on(_last_json(_python(args, CUDA_VISIBLE_DEVICES="")), "CPU")
    gpu = _device_on(_last_json(_python(args)), "GPU")
    cpu_peak = cpu["peak_bytes"] if cpu else None
    gpu_peak = gpu["peak_bytes"] if gpu else None
    predicted = cpu_peak + cpu["fed_bytes"] if cpu else None
    allocator = gpu.get("allocator_peak_bytes") if gpu else None
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


def _run_checks(folder):
    report = {"skipped": None,
              "machine": _nvidia_smi("--query-gpu=name,driver_version,memory.total",
                                     "--format=csv,noheader").strip(),
              "about": _timed(lambda: _last_json(_python([__file__, "--child", "about"])))}
    reserve = _timed(_check_reserve)
    if reserve is None:
        return {"skipped": "TensorFlow sees no GPU", "about": report["about"]}
    report["reserve"] = reserve
    report["warning"] = _timed(_check_warning)
    report["sweep_fit"] = _timed(_check_sweep_fit, folder)
    report["prediction"] = _timed(_check_prediction)
    return report


def _summary(report):
    about = report["about"]
    print(f"machine: {report['machine']}")
    if "error" not in about:
        print(f"tensorflow {about['tensorflow']}, built for {about['build']}, "
              f"GPUs {about['gpu_details']}")
    failed = []
    for name in ("reserve", "warning", "sweep_fit", "prediction"):
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
    for part in ("sweep", "fit"):
        data = report["sweep_fit"].get(part)
        if data:
            print(data["stdout"].rstrip() or data["stderr_tail"].rstrip())
    for held in report["sweep_fit"].get("hold", []):
        print(f"  hold: batch {held['batch']} on a GPU capped at {held['limit_mib']} MiB: "
              f"{'ran' if held['ran'] else 'ran out: ' + str(held['error'])} "
              f"(allocator peak {held['tf_peak_bytes']} B)")
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
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.child:
        children = {"reserve": lambda: _child_reserve(ns.child[1]),
                    "hold": lambda: _child_hold(*ns.child[1:3]),
                    "warning": _child_warning, "about": _child_about}
        print(json.dumps(children[ns.child[0]]()))
        return 0
    if ns.out:
        os.makedirs(ns.out, exist_ok=True)
    json_path = ns.json or os.path.join(ns.out or ".", "gpu_check.json")
    reason = _no_gpu_reason()
    report = {"skipped": reason}
    if reason is None:
        if ns.out:
            report = _run_checks(ns.out)
        else:
            with tempfile.TemporaryDirectory() as folder:
                report = _run_checks(folder)
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
