"""The native rewrite: TensorFlow's own ``tf_upgrade_v2`` into a new folder, then a scan.

This module owns running ``python -m tensorflow.tools.compatibility.tf_upgrade_v2_main``
(it ships with TensorFlow 2.21) safely: never in place. The output folder must not
exist or be empty, and must be neither one of the inputs, inside one, nor contain one;
each input file or folder goes to ``OUT_DIR/<its name>``. ``tf_upgrade_v2``'s own
report goes to ``OUT_DIR/tf_upgrade_v2_report.txt``. The caller then scans the output
with the same table: what remains is what still needs a hand edit to run on TF 2
without tf1mem (``tf_upgrade_v2`` rewrites ``tf.X`` into ``tf.compat.v1.X`` and leaves
``tf.contrib`` and removed APIs where they are).
"""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Sequence

from tf1mem import errors

__all__ = ["RewriteResult", "check_out_dir", "upgrade"]

UPGRADE_MODULE = "tensorflow.tools.compatibility.tf_upgrade_v2_main"
REPORT_NAME = "tf_upgrade_v2_report.txt"


@dataclasses.dataclass(frozen=True)
class RewriteResult:
    """Where the rewrite went: the output of each input and tf_upgrade_v2's reports."""

    outputs: List[Path]
    reports: List[Path]


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def check_out_dir(out_dir, inputs: Sequence) -> Path:
    """Returns ``out_dir`` resolved, or raises UsageError saying why it cannot be used."""
    out = Path(out_dir).resolve()
    for given in inputs:
        src = Path(given).resolve()
        if out == src or (src.is_dir() and _inside(out, src)):
            where = "is the input" if out == src else "is inside the input"
            raise errors.UsageError(
                f"--rewrite {out_dir}: the output folder {where} {given}; tf1mem never "
                f"rewrites in place. Give a folder outside it.")
        if _inside(src, out):
            raise errors.UsageError(
                f"--rewrite {out_dir}: the input {given} is inside the output folder; give "
                f"a new folder elsewhere.")
    if out.exists():
        if not out.is_dir():
            raise errors.UsageError(f"--rewrite {out_dir}: exists and is not a folder; give a "
                                    f"new folder.")
        if any(out.iterdir()):
            raise errors.UsageError(f"--rewrite {out_dir}: the folder exists and is not empty; "
                                    f"give a new or empty folder (nothing is overwritten).")
    return out


def upgrade(inputs: Sequence, out_dir, *, timeout_s: float = 600) -> RewriteResult:
    """Runs ``tf_upgrade_v2`` on each input into ``out_dir`` (checked first).

    Raises:
      UsageError: ``out_dir`` cannot be used (:func:`check_out_dir`), two inputs share
        a name, or an input does not exist.
      Error: ``tf_upgrade_v2`` failed (its exit code and last output lines are named).
    """
    out = check_out_dir(out_dir, inputs)
    names = [Path(p).resolve().name for p in inputs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise errors.UsageError(f"--rewrite: several inputs are named {', '.join(dupes)}; "
                                f"each goes to OUT_DIR/<name>, so rewrite them one at a time.")
    out.mkdir(parents=True, exist_ok=True)
    outputs, reports = [], []
    for given, name in zip(inputs, names):
        src = Path(given)
        if not src.exists():
            raise errors.UsageError(f"{given}: no such file or folder")
        target = out / name
        report = out / (REPORT_NAME if len(inputs) == 1 else f"{name}.{REPORT_NAME}")
        if src.is_dir():
            args = ["--intree", str(src), "--outtree", str(target), "--copyotherfiles", "True"]
        else:
            args = ["--infile", str(src), "--outfile", str(target)]
        cmd = [sys.executable, "-m", UPGRADE_MODULE, *args, "--reportfile", str(report)]
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=env)
        if proc.returncode != 0 or not target.exists():
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
            raise errors.Error(f"tf_upgrade_v2 failed on {given} (exit {proc.returncode}): "
                               f"{tail}")
        outputs.append(target)
        reports.append(report)
    return RewriteResult(outputs=outputs, reports=reports)
