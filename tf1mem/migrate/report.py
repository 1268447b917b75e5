"""The scan's text and JSON reports.

This module owns the wording users read: per file its verdict and each finding
(``path:line: [category] name -> TF 2 form``; after ``--rewrite`` also ``path:line:
[changed in TF 2] name: what changed``), then totals per category. The JSON
form carries the same facts for tools (``format_json``); its keys are stable.
"""

import json
from typing import Sequence

from tf1mem.migrate.knowledge import CATEGORIES
from tf1mem.migrate.scanner import FileReport, totals

__all__ = ["format_text", "format_json"]


def format_text(reports: Sequence[FileReport], *, title: str = "") -> str:
    """The human report: one block per file, then the totals."""
    lines = [title] if title else []
    for report in reports:
        lines.append(f"{report.path}: {report.verdict()}")
        for finding in report.findings:
            where = (f"{finding.line}" if finding.cell is None
                     else f"cell {finding.cell}:{finding.line}")
            note = " (guarded by try/except)" if finding.guarded else ""
            lines.append(f"  {report.path}:{where}: [{finding.category}] {finding.name}"
                         f" -> {finding.tf2}{note}")
        for change in report.changed:
            lines.append(f"  {report.path}:{change.where()}: [changed in TF 2] "
                         f"{change.name}: {change.note}")
    counts = totals(reports)
    runs = sum(1 for r in reports if r.stop is None and not r.errors)
    lines.append("")
    lines.append(f"{len(reports)} files: {runs} run under tf1mem.run, "
                 f"{len(reports) - runs} will stop")
    for key, text in CATEGORIES.items():
        lines.append(f"  {key:<20} {counts[key]:>5}  {text}")
    changed = sum(len(r.changed) for r in reports)
    if changed:
        lines.append(f"  {'changed in TF 2':<20} {changed:>5}  TF 2 names whose meaning "
                     f"is not their TF1 namesake's (checked after --rewrite)")
    return "\n".join(lines) + "\n"


def format_json(reports: Sequence[FileReport], **extra) -> str:
    """``{"files": [...], "totals": {...}, "categories": {...}, **extra}`` as JSON."""
    return json.dumps({
        "files": [r.to_json() for r in reports],
        "totals": totals(reports),
        "categories": dict(CATEGORIES),
        **extra,
    }, indent=2) + "\n"
