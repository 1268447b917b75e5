"""docs/SECURITY.md's table of hostile cases names real tests (so the table stays true)."""

import ast
import re

from tests import _subproc

DOC = _subproc.REPO / "docs" / "SECURITY.md"


def test_every_hostile_case_names_an_existing_test():
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- hostile-cases: begin -->")[1].split("<!-- hostile-cases: end -->")[0]
    named = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", block)
    assert len(named) >= 20
    for path, name in named:
        tree = ast.parse((_subproc.REPO / path).read_text(encoding="utf-8"))
        tests = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert name in tests, f"docs/SECURITY.md names {path}::{name}, which does not exist"
