"""``python -m tf1mem.scan PATH...``: what each TF1 file needs, without running it.

Walks ``.py`` files and ``.ipynb`` notebooks, parses them with ``ast`` and reports each
TF1-only or removed API use with file:line, its category and its TF 2 form, each file's
verdict ("runs under tf1mem.run" or "will stop at line N because ..."), and totals.
Its knowledge is data: the package's one removed-API table (:mod:`tf1mem.compat.table`)
and what the shim gives user code (:mod:`tf1mem.migrate.tf_names`, checked against the
installed TensorFlow by a test), so the verdict is what ``python -m tf1mem.run`` does, and
the scan imports no TensorFlow.

``--rewrite OUT_DIR`` first runs TensorFlow's ``tf_upgrade_v2`` into OUT_DIR (never in
place, in a child process) and then reports what its output still needs by hand and what
changed meaning in TF 2, every path as the user gave it.

Exit codes: 0; 1 when ``--fail-on CATEGORY`` found that category (or ``stops``: a file
that will stop); 2 for a usage error (a missing path, a bad OUT_DIR); 130 interrupted.
This module parses flags and prints; the work is :mod:`tf1mem.migrate`'s.
"""

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Optional, Sequence, Tuple

from tf1mem import _cli, errors

__all__ = ["ScanOptions", "parse_args", "main", "entry"]

# Keys of tf1mem.migrate.knowledge.CATEGORIES (kept in sync by tests/unit/test_scan.py),
# plus "stops": any file that will stop.
FAIL_ON = ("as-is", "mapped", "reimplemented", "removed-replacement", "removed-none", "stops")


@dataclasses.dataclass(frozen=True)
class ScanOptions:
    """The command line, parsed once."""

    paths: Tuple[str, ...]
    json: bool = False
    fail_on: Tuple[str, ...] = ()
    rewrite: Optional[str] = None


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m tf1mem.scan",
        description="Report what each TF1 file needs to run under tf1mem.run and natively "
                    "on TF 2. It reads the code and never runs it; it imports no TensorFlow "
                    "(only --rewrite runs tf_upgrade_v2, in a child process).")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help=".py / .ipynb files or folders (folders are walked; hidden folders "
                        "and __pycache__ are skipped)")
    p.add_argument("--json", action="store_true",
                   help="print the report as JSON instead of text (default: text)")
    p.add_argument("--fail-on", action="append", default=[], choices=FAIL_ON,
                   metavar="CATEGORY",
                   help=f"exit 1 when a finding of CATEGORY is present (repeatable; one of "
                        f"{', '.join(FAIL_ON)}; default: none, exit 0 whatever is found)")
    p.add_argument("--rewrite", metavar="OUT_DIR",
                   help="run tf_upgrade_v2 into OUT_DIR (a new or empty folder, never the "
                        "input), then report what its output still needs by hand and what "
                        "changed meaning in TF 2 (default: no rewrite)")
    return p


def parse_args(argv: Optional[Sequence[str]] = None) -> ScanOptions:
    """Parses ``argv`` (argparse exits 2 on a bad flag)."""
    ns = _parser().parse_args(argv)
    return ScanOptions(paths=tuple(ns.paths), json=ns.json, fail_on=tuple(ns.fail_on),
                       rewrite=ns.rewrite)


def _body(opts: ScanOptions) -> int:
    from tf1mem.migrate import report, rewrite, scanner

    paths = list(opts.paths)
    for path in paths:
        if not Path(path).exists():
            raise errors.UsageError(f"{path}: no such file or folder (give .py / .ipynb files "
                                    f"or folders to scan)")
    extra, title = {}, ""
    if opts.rewrite:
        result = rewrite.upgrade(paths, opts.rewrite)
        paths = [str(p) for p in result.outputs]
        extra = {"rewrite": {"out_dir": opts.rewrite,
                             "tf_upgrade_v2_reports": [str(p) for p in result.reports],
                             "copied_unchanged": [{"path": str(p), "reason": why}
                                                  for p, why in result.skipped]}}
        title = (f"tf_upgrade_v2 wrote {', '.join(paths)} (its report: "
                 f"{', '.join(str(p) for p in result.reports) or 'none'}). Still needed by "
                 f"hand to run on TF 2 without tf1mem: every finding below (as-is: "
                 f"tf.compat.v1 names need TF 2 behaviour off or their TF 2 form; mapped: "
                 f"import the maintained module itself; removed: the named replacement), "
                 f"and each TF 2 name whose meaning changed ([changed in TF 2]).")
        if result.skipped:
            title += "\nCopied unchanged (tf_upgrade_v2 cannot rewrite them):" + "".join(
                f"\n  {p}: {why}" for p, why in result.skipped)
    reports = scanner.scan_paths(paths, changes=bool(opts.rewrite))
    if opts.json:
        sys.stdout.write(report.format_json(reports, **extra))
    else:
        sys.stdout.write(report.format_text(reports, title=title))
    sys.stdout.flush()
    counts = scanner.totals(reports)
    failed = [c for c in opts.fail_on
              if (c == "stops" and any(r.stop or r.errors for r in reports))
              or (c != "stops" and counts.get(c))]
    if failed:
        print(f"tf1mem.scan: found {', '.join(failed)} (--fail-on)", file=sys.stderr)
        return errors.EXIT_FAILURE
    return errors.EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit code."""
    opts = parse_args(argv)
    return _cli.run_command("tf1mem.scan", lambda: _body(opts))


def entry() -> None:
    """Console-script entry point (``tf1mem-scan``)."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
