"""Finds every TF1-only or removed API use in Python files and notebooks, with ``ast``.

This module owns reading sources (``.py`` files, the code cells of ``.ipynb``
notebooks with their ``%`` and ``!`` lines and ``%%`` cells left out), following how ``tensorflow``,
its submodules, ``numpy`` and the modules with legacy views (``time``, ``collections``,
``scipy``, ``PIL``, ``sklearn``, ...) are imported and aliased (``import tensorflow as tf``,
``import tensorflow.contrib.slim as slim``, ``from tensorflow.contrib import slim``,
``from tensorflow import contrib``, ``layers = tf.contrib.layers``), and each file's
verdict: "runs under tf1mem.run" or "will stop at line N because ...". What a name
*is* comes from :class:`tf1mem.migrate.knowledge.Knowledge`.

Guarantees: the scanned code is parsed, never imported or run; a file that cannot be
read or parsed is reported in its :class:`FileReport` and the scan goes on. A use
inside a ``try`` whose handlers catch what the runner raises (ImportError for an
import, AttributeError for an attribute; Exception, BaseException or a bare except
for both) is reported but does not stop the file. Code in a function body is judged
as if it runs, in source order (the verdict names the first line that would stop).
"""

import ast
import dataclasses
import json
import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from tf1mem.compat.legacy import table as legacy_table
from tf1mem.migrate.knowledge import CATEGORIES, STOPPING, Knowledge

__all__ = ["Finding", "FileReport", "scan_source", "scan_file", "scan_paths", "iter_files"]

# tensorflow, numpy, and the modules the shim gives user code legacy views of
_ROOTS = ("tensorflow", "numpy", *sorted(legacy_table.STACK_ROOTS), *sorted(legacy_table.STDLIB))
_CATCHES = {
    "import": {"ImportError", "Exception", "BaseException"},
    "attribute": {"AttributeError", "Exception", "BaseException"},
}


@dataclasses.dataclass(frozen=True)
class Finding:
    """One use of a TF1-only or removed name.

    Attributes:
      line: 1-based line (within its cell for a notebook).
      col: 0-based column.
      cell: the notebook cell's 1-based index among code cells, or None for a .py file.
      name: the name as written in TF1 terms, e.g. ``tf.contrib.factorization``.
      category: a key of :data:`tf1mem.migrate.knowledge.CATEGORIES`.
      tf2: the TF 2 form or the replacement.
      why: for a stopping category, what the runner raises.
      guarded: inside a ``try`` that catches what the runner raises here.
    """

    line: int
    col: int
    cell: Optional[int]
    name: str
    category: str
    tf2: str
    why: str = ""
    guarded: bool = False

    @property
    def stops(self) -> bool:
        """True when running the file would stop here."""
        return self.category in STOPPING and not self.guarded

    def where(self) -> str:
        return f"line {self.line}" if self.cell is None else f"cell {self.cell} line {self.line}"


@dataclasses.dataclass
class FileReport:
    """What the scan found in one file."""

    path: str
    findings: List[Finding] = dataclasses.field(default_factory=list)
    errors: List[str] = dataclasses.field(default_factory=list)  # unreadable / unparsable

    @property
    def stop(self) -> Optional[Finding]:
        """The first finding that stops the file, or None when it runs."""
        stops = [f for f in self.findings if f.stops]
        return min(stops, key=lambda f: (f.cell or 0, f.line, f.col)) if stops else None

    def verdict(self) -> str:
        """``"runs under tf1mem.run"`` or ``"will stop at line N because ..."``."""
        if self.errors:
            return "will not run: it " + "; ".join(self.errors)
        stop = self.stop
        if stop is None:
            return "runs under tf1mem.run"
        return f"will stop at {stop.where()} because {stop.why}"

    def to_json(self) -> dict:
        stop = self.stop
        return {
            "path": self.path,
            "runs": stop is None and not self.errors,
            "verdict": self.verdict(),
            "stop_line": stop.line if stop else None,
            "stop_cell": stop.cell if stop else None,
            "errors": list(self.errors),
            "findings": [dict(dataclasses.asdict(f), stops=f.stops) for f in self.findings],
        }


def _handler_names(handler: ast.ExceptHandler):
    if handler.type is None:
        return {"BaseException"}
    nodes = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = set()
    for node in nodes:
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


class _Visitor(ast.NodeVisitor):
    """Walks one module (or one notebook cell after another, sharing aliases)."""

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        # local name -> (full dotted name, the part of it that was imported)
        self.aliases: Dict[str, Tuple[str, str]] = {}
        self.findings: List[Finding] = []
        self.cell: Optional[int] = None
        self._catching: List[set] = []
        self._seen = set()

    # -- recording ---------------------------------------------------------------------

    def _report(self, node, dotted, kind, base=None, skip_category=None):
        verdict = self.knowledge.judge(dotted, base)
        if verdict is None or verdict.category == skip_category:
            return
        key = (self.cell, node.lineno, node.col_offset, verdict.name)
        if key in self._seen:
            return
        self._seen.add(key)
        guarded = any(names & _CATCHES[kind] for names in self._catching)
        self.findings.append(Finding(node.lineno, node.col_offset, self.cell, verdict.name,
                                     verdict.category, verdict.tf2, verdict.why, guarded))

    def _bind(self, name, dotted, base=None):
        if dotted is None:
            self.aliases.pop(name, None)
        else:
            self.aliases[name] = (dotted, dotted if base is None else base)

    # -- imports -----------------------------------------------------------------------

    def visit_Import(self, node):
        for alias in node.names:
            root = alias.name.split(".")[0]
            if root not in _ROOTS:
                if alias.asname:
                    self._bind(alias.asname, None)
                else:
                    self._bind(root, None)
                continue
            self._report(node, alias.name, "import")
            if alias.asname:
                self._bind(alias.asname, alias.name)
            else:
                self._bind(root, root)

    def visit_ImportFrom(self, node):
        module = node.module or ""
        if node.level or module.split(".")[0] not in _ROOTS:
            for alias in node.names:
                self._bind(alias.asname or alias.name, None)
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            full = f"{module}.{alias.name}"
            self._report(node, full, "import")
            self._bind(alias.asname or alias.name, full)

    # -- names -------------------------------------------------------------------------

    def _resolve(self, node) -> Optional[Tuple[str, str]]:
        """``(full dotted name, its imported part, the alias's own binding)`` of a
        Name/Attribute chain, or None when it does not start at a tracked alias."""
        attrs = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        bound, base = self.aliases[node.id]
        return ".".join([bound, *reversed(attrs)]), base, bound

    def visit_Attribute(self, node):
        resolved = self._resolve(node)
        if resolved is None:
            self.generic_visit(node)
            return
        dotted, base, bound = resolved
        # Uses through an alias of a mapped module were said once, where it was bound.
        base_verdict = self.knowledge.judge(bound, base) if bound not in _ROOTS else None
        skip = base_verdict.category if base_verdict and base_verdict.category in (
            "mapped", "reimplemented") else None
        self._report(node, dotted, "attribute", base=base, skip_category=skip)

    def visit_Assign(self, node):
        self.visit(node.value)
        resolved = self._resolve(node.value) if isinstance(
            node.value, (ast.Name, ast.Attribute)) else None
        for target in node.targets:
            if isinstance(target, ast.Name):
                self._bind(target.id, *(resolved[:2] if resolved else (None,)))
            else:
                self.visit(target)

    def visit_Try(self, node):
        self._catching.append(set().union(*(_handler_names(h) for h in node.handlers))
                              if node.handlers else set())
        for stmt in node.body:
            self.visit(stmt)
        self._catching.pop()
        for part in (*node.handlers, *node.orelse, *node.finalbody):
            self.visit(part)

    visit_TryStar = visit_Try


def _parse_error(exc: SyntaxError, cell=None):
    where = f"line {exc.lineno}" if cell is None else f"cell {cell} line {exc.lineno}"
    return f"does not parse ({where}: {exc.msg})"


def scan_source(source: str, path: str = "<source>",
                knowledge: Optional[Knowledge] = None) -> FileReport:
    """Scans Python source text (``knowledge``: an entered :class:`Knowledge`, or None
    for a fresh one)."""
    if knowledge is None:
        with Knowledge() as fresh:
            return scan_source(source, path, fresh)
    report = FileReport(path)
    visitor = _Visitor(knowledge)
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        report.errors.append(_parse_error(exc))
        return report
    visitor.visit(tree)
    report.findings = visitor.findings
    return report


def _notebook_cells(text: str, path: str) -> List[str]:
    try:
        notebook = json.loads(text)
        cells = notebook["cells"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"is not a Jupyter notebook (no JSON 'cells' list: {exc})") from None
    sources = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else str(src)
        if src.lstrip().startswith("%%"):  # a cell magic: the whole cell is not Python
            sources.append("")
            continue
        # IPython magics and shell lines are not Python: blank them, keeping line numbers.
        lines = ["" if line.lstrip().startswith(("%", "!")) else line
                 for line in src.split("\n")]
        sources.append("\n".join(lines))
    return sources


def scan_file(path, knowledge: Optional[Knowledge] = None) -> FileReport:
    """Scans one ``.py`` file or ``.ipynb`` notebook; read errors go in the report."""
    if knowledge is None:
        with Knowledge() as fresh:
            return scan_file(path, fresh)
    path = Path(path)
    report = FileReport(str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        report.errors.append(f"cannot be read ({exc})")
        return report
    if path.suffix != ".ipynb":
        result = scan_source(text, str(path), knowledge)
        result.path = str(path)
        return result
    try:
        cells = _notebook_cells(text, str(path))
    except ValueError as exc:
        report.errors.append(str(exc))
        return report
    visitor = _Visitor(knowledge)
    for index, source in enumerate(cells, start=1):
        visitor.cell = index
        try:
            tree = ast.parse(source, filename=f"{path} cell {index}")
        except SyntaxError as exc:
            report.errors.append(_parse_error(exc, index))
            continue
        visitor.visit(tree)
    report.findings = visitor.findings
    return report


def iter_files(paths: Sequence) -> List[Path]:
    """The ``.py`` and ``.ipynb`` files of ``paths`` (files as given, folders walked,
    hidden folders and ``__pycache__`` skipped), sorted within each folder.

    Raises:
      FileNotFoundError: a path does not exist (the message names it).
    """
    found = []
    for given in paths:
        path = Path(given)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 and d not in ("__pycache__", ".ipynb_checkpoints"))
                found.extend(Path(folder, f) for f in sorted(files)
                             if f.endswith((".py", ".ipynb")))
        else:
            raise FileNotFoundError(str(path))
    return found


def scan_paths(paths: Sequence) -> List[FileReport]:
    """Scans every file of :func:`iter_files` with one shared :class:`Knowledge`."""
    files = iter_files(paths)
    with Knowledge() as knowledge:
        return [scan_file(p, knowledge) for p in files]


def totals(reports: Sequence[FileReport]) -> Dict[str, int]:
    """Findings per category (every category present, zero included)."""
    counts = {key: 0 for key in CATEGORIES}
    for report in reports:
        for finding in report.findings:
            counts[finding.category] += 1
    return counts


__all__.append("totals")
