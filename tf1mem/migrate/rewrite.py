"""The native rewrite: TensorFlow's own ``tf_upgrade_v2`` into a new folder, then a scan.

This module owns running ``python -m tensorflow.tools.compatibility.tf_upgrade_v2_main``
(it ships with TensorFlow 2.21) safely: never in place. The output folder must not
exist or be empty, and must be neither one of the inputs, inside one, nor contain one;
each input file or folder goes to ``OUT_DIR/<its name>``. ``tf_upgrade_v2``'s own
report goes to ``OUT_DIR/tf_upgrade_v2_report.txt``, naming the inputs and outputs as the
user gave them (a relative OUT_DIR stays relative in every path reported). The caller then scans the output
with the same table: what remains is what still needs a hand edit to run on TF 2
without tf1mem (``tf_upgrade_v2`` rewrites ``tf.X`` into ``tf.compat.v1.X`` and leaves
``tf.contrib`` and removed APIs where they are).

Nothing partial or empty is ever left: the output is built in a temporary folder
beside ``OUT_DIR`` and moved into place only once complete. A ``.py`` file that
``tf_upgrade_v2`` cannot rewrite (python cannot parse it, or it is not UTF-8, which
``tf_upgrade_v2`` reads only) is copied unchanged and listed with its path and the
reason (:attr:`RewriteResult.skipped`); a failing ``tf_upgrade_v2`` names the input.
"""

import ast
import dataclasses
import io
import os
import shutil
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path
from typing import List, Sequence, Tuple

from tf1mem import errors

__all__ = ["RewriteResult", "check_out_dir", "upgrade"]

UPGRADE_MODULE = "tensorflow.tools.compatibility.tf_upgrade_v2_main"
REPORT_NAME = "tf_upgrade_v2_report.txt"


@dataclasses.dataclass(frozen=True)
class RewriteResult:
    """Where the rewrite went: the output of each input and tf_upgrade_v2's reports."""

    outputs: List[Path]
    reports: List[Path]
    skipped: List[Tuple[Path, str]] = dataclasses.field(default_factory=list)


def why_not_rewritable(path: Path):
    """Why ``tf_upgrade_v2`` cannot rewrite the ``.py`` file ``path``, or None.

    ``tf_upgrade_v2`` reads UTF-8 and parses with ``ast``: a file that is not UTF-8
    (even one python reads through its coding cookie) or that does not parse is not
    for it.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        except SyntaxError:
            encoding = None
        return (f"not UTF-8 (byte {exc.start}; its coding cookie says {encoding}), and "
                f"tf_upgrade_v2 reads UTF-8 only" if encoding and encoding != "utf-8"
                else f"not UTF-8 (byte {exc.start}) and has no coding cookie")
    try:
        ast.parse(text, str(path))
    except SyntaxError as exc:
        return f"does not parse (line {exc.lineno}: {exc.msg})"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"does not parse ({type(exc).__name__})"
    return None


def _stage(src: Path, staging: Path):
    """Copies the input to ``staging`` without the files tf_upgrade_v2 cannot take;
    returns ``[(relative path, reason)]`` of those."""
    skipped = []
    if src.is_file():
        why = why_not_rewritable(src) if src.suffix == ".py" else None
        if why:
            return [(Path(src.name), why)]
        shutil.copy2(src, staging)
        return []
    for root, dirs, files in os.walk(src):
        rel = Path(root).relative_to(src)
        (staging / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            path = Path(root) / name
            why = why_not_rewritable(path) if name.endswith(".py") else None
            if why:
                skipped.append((rel / name, why))
            elif path.is_file():
                shutil.copy2(path, staging / rel / name)
    return skipped


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
    shown = Path(out_dir)  # paths are reported as the user gave them (relative stays so)
    names = [Path(p).resolve().name for p in inputs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise errors.UsageError(f"--rewrite: several inputs are named {', '.join(dupes)}; "
                                f"each goes to OUT_DIR/<name>, so rewrite them one at a time.")
    for given in inputs:
        if not Path(given).exists():
            raise errors.UsageError(f"{given}: no such file or folder")
    out.parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix=f".{out.name}.tf1mem-rewrite-", dir=out.parent))
    try:
        outputs, reports, skipped = [], [], []
        for given, name in zip(inputs, names):
            src = Path(given)
            staging = build / ".staging" / name
            staging.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                staging.mkdir()
            dropped = _stage(src, staging)
            target = build / name
            report = build / (REPORT_NAME if len(inputs) == 1 else f"{name}.{REPORT_NAME}")
            if src.is_dir():
                args = ["--intree", str(staging), "--outtree", str(target),
                        "--copyotherfiles", "True"]
            else:
                args = ["--infile", str(staging), "--outfile", str(target)]
            if src.is_dir() or not dropped:
                _run_upgrade(given, args, report, target, timeout_s)
            for rel, why in dropped:  # copied unchanged, and said so
                original = src if src.is_file() else src / rel
                copy = target if src.is_file() else target / rel
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(original, copy)
                skipped.append((shown / name if src.is_file() else shown / name / rel, why))
            outputs.append(shown / name)
            if report.exists():
                _name_paths_as_given(report, {staging: Path(given), target: shown / name})
                reports.append(shown / report.name)
        shutil.rmtree(build / ".staging")
        # Complete: into place (OUT_DIR is new or empty, checked above).
        if out.exists():
            out.rmdir()
        os.rename(build, out)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    return RewriteResult(outputs=outputs, reports=reports, skipped=skipped)


def _name_paths_as_given(report: Path, paths) -> None:
    """Rewrites ``tf_upgrade_v2``'s report to name the input and the output as the user
    gave them, not the temporary folders it ran in (which are gone when it is read)."""
    text = report.read_text(encoding="utf-8", errors="replace")
    for temporary, as_given in paths.items():  # the staging path first: it is the longer
        text = text.replace(str(temporary), str(as_given))
    report.write_text(text, encoding="utf-8")


def _run_upgrade(given, args, report: Path, target: Path, timeout_s: float) -> None:
    cmd = [sys.executable, "-m", UPGRADE_MODULE, *args, "--reportfile", str(report)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL=os.environ.get("TF_CPP_MIN_LOG_LEVEL", "2"))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=env)
    if proc.returncode != 0 or not target.exists():
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
        raise errors.Error(f"tf_upgrade_v2 failed on {given} (exit {proc.returncode}); "
                           f"nothing was written to the output folder: {tail}")
