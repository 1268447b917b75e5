"""Finds every TF1-only or removed API use in Python files and notebooks, with ``ast``.

This module owns reading sources (``.py`` files, the code cells of ``.ipynb``
notebooks with their ``%`` and ``!`` lines and ``%%`` cells left out), following how ``tensorflow``,
its submodules, ``numpy`` and the modules with legacy views (``time``, ``collections``,
``scipy``, ``PIL``, ``sklearn``, ...) are imported and aliased (``import tensorflow as tf``,
``import tensorflow.contrib.slim as slim``, ``from tensorflow.contrib import slim``,
``from tensorflow import contrib``, ``layers = tf.contrib.layers``), and each file's
verdict: "runs under tf1mem.run" or "will stop at line N because ...". What a name
*is* comes from :class:`tf1mem.migrate.knowledge.Knowledge`.

Guarantees: the scanned code is parsed, never imported or run. Files are read as
python reads them (a coding cookie, a UTF-8 BOM); only regular files are read (a FIFO,
a device or a link to one is skipped, never opened), and none over :data:`MAX_BYTES`;
a file that cannot be read or parsed, or whose parse or walk fails (a nesting too deep
for the interpreter, memory), is reported in its :class:`FileReport` with the reason
and the scan goes on. A use inside a ``try`` whose handlers catch what the runner
raises (ImportError for an import, AttributeError for an attribute; Exception,
BaseException or a bare except for both) is reported but does not stop the file. A
use inside a function body does not stop the file either (the module runs without
calling it): it is reported with the function's name, as stopping when that function
is called. Decorators, default values and class bodies run with the module.
"""

import ast
import dataclasses
import io
import json
import os
import stat
import tokenize
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from tf1mem.compat.legacy import table as legacy_table
from tf1mem.migrate.knowledge import CATEGORIES, STOPPING, Knowledge

__all__ = ["Finding", "Change", "FileReport", "scan_source", "scan_file", "scan_paths", "iter_files",
           "MAX_BYTES", "read_python_source"]

# The largest file the scanner reads (larger ones are reported as skipped, unread).
MAX_BYTES = 8 << 20

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
      function: the enclosing function (``Class.method`` for a method), or None for
        code that runs when the module runs.
    """

    line: int
    col: int
    cell: Optional[int]
    name: str
    category: str
    tf2: str
    why: str = ""
    guarded: bool = False
    function: Optional[str] = None

    @property
    def stops(self) -> bool:
        """True when running the file would stop here (module-level, unguarded)."""
        return self.category in STOPPING and not self.guarded and self.function is None

    @property
    def stops_when_called(self) -> bool:
        """True when calling its function would stop there."""
        return self.category in STOPPING and not self.guarded and self.function is not None

    def where(self) -> str:
        return f"line {self.line}" if self.cell is None else f"cell {self.cell} line {self.line}"


@dataclasses.dataclass(frozen=True)
class Change:
    """A TF 2 name whose meaning is not its TF1 namesake's (reported after ``--rewrite``).

    Attributes:
      line, col, cell: where, as in :class:`Finding`.
      name: the name as written, e.g. ``tf.summary.scalar``.
      note: what changed and what to write.
    """

    line: int
    col: int
    cell: Optional[int]
    name: str
    note: str

    def where(self) -> str:
        return f"{self.line}" if self.cell is None else f"cell {self.cell}:{self.line}"


@dataclasses.dataclass
class FileReport:
    """What the scan found in one file."""

    path: str
    findings: List[Finding] = dataclasses.field(default_factory=list)
    errors: List[str] = dataclasses.field(default_factory=list)  # unreadable / unparsable
    changed: List[Change] = dataclasses.field(default_factory=list)  # with changes=True

    @property
    def stop(self) -> Optional[Finding]:
        """The first finding that stops the file, or None when it runs."""
        stops = [f for f in self.findings if f.stops]
        return min(stops, key=lambda f: (f.cell or 0, f.line, f.col)) if stops else None

    def verdict(self) -> str:
        """``"runs under tf1mem.run"`` or ``"will stop at line N because ..."``; a
        removed use inside a function adds which function stops when called."""
        if self.errors and all(e.startswith("was skipped") for e in self.errors):
            return "not scanned: it " + "; ".join(self.errors)
        if self.errors:
            return "will not run: it " + "; ".join(self.errors)
        stop = self.stop
        if stop is not None:
            return f"will stop at {stop.where()} because {stop.why}"
        later = [f for f in self.findings if f.stops_when_called]
        if not later:
            return "runs under tf1mem.run"
        first = min(later, key=lambda f: (f.cell or 0, f.line, f.col))
        return (f"runs under tf1mem.run; calling {first.function}() would stop at "
                f"{first.where()} because {first.why}")

    def to_json(self) -> dict:
        stop = self.stop
        return {
            "path": self.path,
            "runs": stop is None and not self.errors,
            "verdict": self.verdict(),
            "stop_line": stop.line if stop else None,
            "stop_cell": stop.cell if stop else None,
            "stops_when_called": [{"function": f.function, "line": f.line, "cell": f.cell,
                                   "why": f.why}
                                  for f in self.findings if f.stops_when_called],
            "errors": list(self.errors),
            "findings": [dict(dataclasses.asdict(f), stops=f.stops) for f in self.findings],
            "changed": [dataclasses.asdict(c) for c in self.changed],
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

    def __init__(self, knowledge: Knowledge, changes: bool = False):
        self.knowledge = knowledge
        self.changes: Optional[List[Change]] = [] if changes else None
        self._changed_once = set()
        # local name -> (full dotted name, the part of it that was imported)
        self.aliases: Dict[str, Tuple[str, str]] = {}
        self.findings: List[Finding] = []
        self.cell: Optional[int] = None
        self._catching: List[set] = []
        self._seen = set()
        self._noted: Dict[str, str] = {}  # tf.contrib module -> where its note was said
        self._scope: List[str] = []  # enclosing classes and functions, outermost first
        self._in_function = 0

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
        function = ".".join(self._scope) if self._in_function else None
        tf2 = verdict.tf2
        if verdict.note_of:  # a module's note is said once a file
            first = self._noted.setdefault(verdict.note_of, self._where(node))
            if first != self._where(node):
                tf2 = f"{verdict.note_of}: see its note at {first}"
        self.findings.append(Finding(node.lineno, node.col_offset, self.cell, verdict.name,
                                     verdict.category, tf2, verdict.why, guarded,
                                     function))

    def _where(self, node):
        return (f"line {node.lineno}" if self.cell is None
                else f"cell {self.cell} line {node.lineno}")

    def _change(self, node, dotted):
        """Records a TF 2 name whose meaning changed (only when asked: after a rewrite)."""
        if self.changes is None or not dotted.startswith("tensorflow."):
            return
        from tf1mem.migrate import forms

        found = forms.changed_meaning("tf." + dotted[len("tensorflow."):])
        if found is None:
            return
        prefix, once, note = found
        if once:
            if prefix in self._changed_once:
                return
            self._changed_once.add(prefix)
        self.changes.append(Change(node.lineno, node.col_offset, self.cell,
                                   "tf." + dotted[len("tensorflow."):], note))

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
            self._change(node, alias.name)
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
            self._change(node, full)
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
        self._change(node, dotted)

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

    # -- what runs with the module, and what only when called ---------------------------

    def _visit_function(self, node):
        # Decorators, defaults and annotations run when the def statement runs.
        for expr in (*node.decorator_list, *node.args.defaults,
                     *(d for d in node.args.kw_defaults if d is not None)):
            self.visit(expr)
        self._scope.append(node.name)
        self._in_function += 1
        catching, self._catching = self._catching, []  # a caller's try does not guard it
        try:
            for stmt in node.body:
                self.visit(stmt)
        finally:
            self._catching = catching
            self._in_function -= 1
            self._scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_function

    def visit_Lambda(self, node):
        for expr in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.visit(expr)
        self._scope.append("<lambda>")
        self._in_function += 1
        try:
            self.visit(node.body)
        finally:
            self._in_function -= 1
            self._scope.pop()

    def visit_ClassDef(self, node):
        for expr in (*node.decorator_list, *node.bases, *(k.value for k in node.keywords)):
            self.visit(expr)
        self._scope.append(node.name)
        try:
            for stmt in node.body:  # a class body runs with the module
                self.visit(stmt)
        finally:
            self._scope.pop()


def _parse_error(exc: SyntaxError, cell=None):
    where = f"line {exc.lineno}" if cell is None else f"cell {cell} line {exc.lineno}"
    return f"does not parse ({where}: {exc.msg})"


def read_python_source(data: bytes, path: str) -> str:
    """Decodes a ``.py`` file as python does: its coding cookie, else UTF-8 (a BOM
    allowed). Raises SyntaxError (python's own message) when it cannot."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    try:
        return data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SyntaxError(f"cannot be decoded as {encoding} ({exc})") from None


def _walk_failure(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "is nested too deeply to scan (python's recursion limit)"
    return "could not be scanned (not enough memory)"


def scan_source(source: str, path: str = "<source>",
                knowledge: Optional[Knowledge] = None, *, changes: bool = False) -> FileReport:
    """Scans Python source text (``knowledge``: an entered :class:`Knowledge`, or None
    for a fresh one; ``changes``: also list the TF 2 names whose meaning changed)."""
    if knowledge is None:
        with Knowledge() as fresh:
            return scan_source(source, path, fresh, changes=changes)
    report = FileReport(path)
    visitor = _Visitor(knowledge, changes)
    try:
        tree = ast.parse(source, filename=path)
        visitor.visit(tree)
    except SyntaxError as exc:
        report.errors.append(_parse_error(exc))
        return report
    except (RecursionError, MemoryError) as exc:
        report.errors.append(_walk_failure(exc))
        return report
    report.findings = visitor.findings
    report.changed = visitor.changes or []
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


def scan_file(path, knowledge: Optional[Knowledge] = None, *,
              changes: bool = False) -> FileReport:
    """Scans one ``.py`` file or ``.ipynb`` notebook; read errors go in the report
    (``changes``: also list the TF 2 names whose meaning changed)."""
    if knowledge is None:
        with Knowledge() as fresh:
            return scan_file(path, fresh, changes=changes)
    path = Path(path)
    report = FileReport(str(path))
    try:
        st = os.stat(path)  # follows a link: what would be read
        if not stat.S_ISREG(st.st_mode):
            report.errors.append("was skipped: not a regular file (a FIFO, device or "
                                 "folder is never opened)")
            return report
        if st.st_size > MAX_BYTES:
            report.errors.append(f"was skipped: {st.st_size} bytes, over the scanner's "
                                 f"{MAX_BYTES} byte limit")
            return report
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        report.errors.append(f"cannot be read ({exc.strerror or exc})")
        return report
    if len(data) > MAX_BYTES:
        report.errors.append(f"was skipped: over the scanner's {MAX_BYTES} byte limit")
        return report
    if path.suffix != ".ipynb":
        try:
            text = read_python_source(data, str(path))
        except SyntaxError as exc:
            report.errors.append(f"cannot be read ({exc.msg})")
            return report
        result = scan_source(text, str(path), knowledge, changes=changes)
        result.path = str(path)
        return result
    try:
        cells = _notebook_cells(data.decode("utf-8-sig"), str(path))
    except UnicodeDecodeError as exc:
        report.errors.append(f"cannot be read (not UTF-8: {exc})")
        return report
    except ValueError as exc:
        report.errors.append(str(exc))
        return report
    visitor = _Visitor(knowledge, changes)
    for index, source in enumerate(cells, start=1):
        visitor.cell = index
        try:
            tree = ast.parse(source, filename=f"{path} cell {index}")
            visitor.visit(tree)
        except SyntaxError as exc:
            report.errors.append(_parse_error(exc, index))
            continue
        except (RecursionError, MemoryError) as exc:
            report.errors.append(f"cell {index} {_walk_failure(exc)}")
            continue
    report.findings = visitor.findings
    report.changed = visitor.changes or []
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
        if path.is_file() or (path.exists() and not path.is_dir()):
            found.append(path)  # (scan_file reports what is not a regular file)
        elif path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 and d not in ("__pycache__", ".ipynb_checkpoints"))
                found.extend(Path(folder, f) for f in sorted(files)
                             if f.endswith((".py", ".ipynb")))
        else:
            raise FileNotFoundError(str(path))
    return found


def scan_paths(paths: Sequence, *, changes: bool = False) -> List[FileReport]:
    """Scans every file of :func:`iter_files` with one shared :class:`Knowledge`
    (``changes``: also list the TF 2 names whose meaning changed, as after a rewrite)."""
    files = iter_files(paths)
    with Knowledge() as knowledge:
        return [scan_file(p, knowledge, changes=changes) for p in files]


def totals(reports: Sequence[FileReport]) -> Dict[str, int]:
    """Findings per category (every category present, zero included)."""
    counts = {key: 0 for key in CATEGORIES}
    for report in reports:
        for finding in report.findings:
            counts[finding.category] += 1
    return counts


__all__.append("totals")
