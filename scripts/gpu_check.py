"""GPU memory checks of tf1mem, in one run (under 4 minutes on a machine with a GPU).

    python scripts/gpu_check.py [--json gpu_check.json]

Each check runs in a fresh subprocess (GPU options freeze when a process creates
its devices):

1. reserve: memory TensorFlow reserves with default options, ``allow_growth`` and
   ``per_process_gpu_memory_fraction=0.2``: the process's use as ``nvidia-smi``
   reports it and ``tf.config.experimental.get_memory_info`` after one small run;
2. warning: a second session asking for other GPU options gets tf1mem's
   ``GpuOptionsIgnoredWarning`` (``tf1mem.config``), and its device limit is
   indeed the first session's;
3. sweep and fit: ``python -m tf1mem.memory sweep`` and ``fit`` on the GPU;
4. prediction: the GPU peak of one step against what the CPU measurement
   (``CUDA_VISIBLE_DEVICES=""``) says for the same graph and batch (goal: within 10%).

Prints a report and writes it as JSON. Exit status: 0 every check passed, or no
GPU (it prints ``no GPU: skipped`` and the JSON says why); 1 a check failed.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD_TIMEOUT = 90
MODEL = ("--model", "mlp", "--hidden", "1024")
BATCH = 4096
TOLERANCE = 0.10


def _env(**extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH", "")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
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

def _nvidia_smi_process_mib(pid):
    out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory",
                          "--format=csv,noheader,nounits"], capture_output=True, text=True,
                         timeout=30).stdout
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 2 and parts[0] == str(pid):
            return int(parts[1])
    return None


def _child_reserve(mode):
    import tensorflow as tf

    v1 = tf.compat.v1
    if not tf.config.list_physical_devices("GPU"):
        return {"no_gpu": True}
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
        return {"mode": mode, "nvidia_smi_process_mib": _nvidia_smi_process_mib(os.getpid()),
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


# ------------------------------------------------------------------ checks

def _check_reserve():
    results = {}
    for mode in ("default", "allow_growth", "fraction_0.2"):
        data = _last_json(_python([__file__, "--child", "reserve", mode]))
        if data.get("no_gpu"):
            return None
        results[mode] = data
    ok = (results["allow_growth"]["nvidia_smi_process_mib"] or 0) \
        < (results["fraction_0.2"]["nvidia_smi_process_mib"] or 0) \
        < (results["default"]["nvidia_smi_process_mib"] or 0)
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
    fit = _python(["-m", "tf1mem.memory", "fit", *MODEL, "--budget", "256MiB",
                   "--no-progress"])
    return {"ok": sweep.returncode == 0 and fit.returncode == 0,
            "sweep": {"rc": sweep.returncode, "stdout": sweep.stdout,
                      "stderr_tail": sweep.stderr[-2000:]},
            "fit": {"rc": fit.returncode, "stdout": fit.stdout,
                    "stderr_tail": fit.stderr[-2000:]}}


def _peak_on(data, kind):
    peaks = [d["peak_bytes"] for name, d in data["devices"].items() if f"{kind}:" in name]
    return max(peaks) if peaks else None


def _check_prediction():
    args = ["-m", "tf1mem.memory", "measure", *MODEL, "--batch-size", str(BATCH), "--json"]
    cpu = _last_json(_python(args, CUDA_VISIBLE_DEVICES=""))
    gpu = _last_json(_python(args))
    cpu_peak, gpu_peak = _peak_on(cpu, "CPU"), _peak_on(gpu, "GPU")
    ratio = gpu_peak / cpu_peak if cpu_peak and gpu_peak else None
    return {"ok": ratio is not None and abs(ratio - 1) <= TOLERANCE,
            "expect": f"GPU peak within {TOLERANCE:.0%} of the CPU's", "batch": BATCH,
            "cpu_peak_bytes": cpu_peak, "gpu_peak_bytes": gpu_peak, "ratio": ratio}


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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default="gpu_check.json", help="report file")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.child:
        data = _child_reserve(ns.child[1]) if ns.child[0] == "reserve" else _child_warning()
        print(json.dumps(data))
        return 0
    reason = _no_gpu_reason()
    report = {"skipped": reason}
    if reason is None:
        with tempfile.TemporaryDirectory() as folder:
            reserve = _check_reserve()
            if reserve is None:
                reason = report["skipped"] = "TensorFlow sees no GPU"
            else:
                report = {"skipped": None, "reserve": reserve, "warning": _check_warning(),
                          "sweep_fit": _check_sweep_fit(folder),
                          "prediction": _check_prediction()}
    if reason is not None:
        print(f"gpu_check: no GPU: skipped ({reason})")
        _write(ns.json, report)
        return 0
    failed = []
    for name, check in report.items():
        if not isinstance(check, dict):
            continue
        print(f"{name}: {'ok' if check['ok'] else 'FAILED'}  ({check.get('expect', '')})")
        if not check["ok"]:
            failed.append(name)
    for mode, data in report["reserve"]["modes"].items():
        print(f"  reserve {mode}: nvidia-smi {data['nvidia_smi_process_mib']} MiB, TF current "
              f"{data['tf_current_bytes']} B, device limit {data['device_limit_bytes']} B")
    p = report["prediction"]
    print(f"  prediction: GPU peak {p['gpu_peak_bytes']} B, CPU peak {p['cpu_peak_bytes']} B, "
          f"ratio {p['ratio']}")
    print(report["sweep_fit"]["fit"]["stdout"].strip())
    _write(ns.json, report)
    print(f"report: {ns.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
