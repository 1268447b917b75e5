"""The package map: docs/ARCHITECTURE.md's import rules hold for every module.

Imports are read with ``ast`` (module-level and inside functions), never by importing.
"""

import ast
import re
from pathlib import Path

import pytest

from tests import _subproc

PACKAGE = _subproc.REPO / "tf1mem"
DOC = _subproc.REPO / "docs" / "ARCHITECTURE.md"


def _rules():
    """{group: (module patterns, allowed groups)} from the doc's marked table."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- import-rules: begin -->")[1].split("<!-- import-rules: end -->")[0]
    rules = {}
    for line in block.strip().splitlines()[2:]:  # skip the header and the --- row
        group, modules, allowed = (cell.strip() for cell in line.strip("|").split("|"))
        patterns = tuple(re.findall(r"`([^`]+)`", modules))
        rules[group] = (patterns, tuple(a.strip() for a in allowed.split(",")))
    return rules


RULES = _rules()


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _group_of(module: str) -> str:
    for group, (patterns, _) in RULES.items():
        for pattern in patterns:
            if module == pattern or (pattern.endswith(".*") and
                                     (module + ".").startswith(pattern[:-1])):
                return group
    raise AssertionError(f"{module} is in no group of docs/ARCHITECTURE.md's table")


def _tf1mem_imports(path: Path):
    """The tf1mem modules a file imports (``from tf1mem.a import b`` -> tf1mem.a.b or
    tf1mem.a, whichever is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "tf1mem")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "tf1mem":
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                as_path = PACKAGE.parent.joinpath(*candidate.split("."))
                is_module = as_path.with_suffix(".py").is_file() or as_path.is_dir()
                found.add(candidate if is_module else node.module)
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_belongs_to_a_group_and_every_subpackage_says_what_it_owns():
    for path in MODULES:
        _group_of(_module_name(path))
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) > 20, f"{init} needs a docstring saying what it owns"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_imports_follow_the_architecture_table(path):
    module = _module_name(path)
    group = _group_of(module)
    allowed = RULES[group][1]
    bad = {imported: _group_of(imported) for imported in _tf1mem_imports(path)
           if _group_of(imported) not in allowed and _group_of(imported) != group}
    assert not bad, (f"{module} ({group}) imports {bad}; docs/ARCHITECTURE.md allows "
                     f"{group} to import only {allowed}")


def test_the_rules_catch_a_forbidden_import(tmp_path):
    """The checker itself: compat importing distributed is found."""
    fake = PACKAGE / "compat" / "shim.py"
    assert _group_of(_module_name(fake)) == "compat"
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from tf1mem.distributed import loopback\n")
    imported = _tf1mem_imports(source)
    assert imported == {"tf1mem.distributed.loopback"}
    assert _group_of("tf1mem.distributed.loopback") not in RULES["compat"][1]


def test_no_module_is_left_flat_outside_the_wings():
    """ls tf1mem/ maps the package: only the groups' own top-level files are there."""
    flat = {p.name for p in PACKAGE.glob("*.py")}
    listed = {pattern.split(".")[-1] + ".py" for patterns, _ in RULES.values()
              for pattern in patterns if pattern.count(".") == 1}
    listed.add("__init__.py")
    assert flat == listed, f"top-level modules not in the table: {sorted(flat - listed)}"
