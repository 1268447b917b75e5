"""Each TF1 idiom of docs/MIGRATION.md and its TF 2 form give the same result.

The pairs are in tests/migration_pairs.py; each runs in its own process. A second test
checks that every test docs/MIGRATION.md links to exists, so the doc cannot point at
proof that is not there.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_migration_pairs.py.
"""

import re

from tests._subproc import REPO

PAIRS_SCRIPT = REPO / "tests" / "migration_pairs.py"
DOC = REPO / "docs" / "MIGRATION.md"
PAIRS = sorted(re.findall(r"^def (\w+)\(\):", PAIRS_SCRIPT.read_text(), re.M))
PAIRS = [p for p in PAIRS if not p.startswith("_")]


# A proof link: [tests/TIER/test_x.py::test_name] or [tests/TIER/test_x.py::test_name[param]],
# pointing at the file: (../tests/TIER/test_x.py).
_LINK = re.compile(r"\[(tests/[\w/]+\.py)::(\w+)(?:\[(\w+)\])?\]\(\.\./(tests/[\w/]+\.py)\)")
_PAIRS_TEST = "/test_migration_pairs.py"  # in whichever tier folder


def _links():
    return _LINK.findall(DOC.read_text(encoding="utf-8"))


def test_every_test_the_migration_guide_links_to_exists():
    links = _links()
    assert len(links) >= 12, links
    for path, name, param, target in links:
        assert path == target, (path, target)
        source = (REPO / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {name}\(", source, re.M), f"{path}::{name} does not exist"
        if path.endswith(_PAIRS_TEST) and param:
            assert param in PAIRS, f"{path}::{name}[{param}]: no such pair"


def test_every_pair_is_linked_from_the_guide():
    linked = {param for path, _, param, _ in _links() if path.endswith(_PAIRS_TEST)}
    assert linked == set(PAIRS)


def _anchor(heading):
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_scanners_tf2_forms_point_at_sections_that_exist():
    from tf1mem.migrate import forms

    anchors = {_anchor(h) for h in re.findall(r"^## (.+)$", DOC.read_text(encoding="utf-8"),
                                              re.M)}
    for name, (_, anchor) in forms.IDIOMS.items():
        assert anchor in anchors, f"{name}: docs/MIGRATION.md has no section #{anchor}"
    for text in (forms.ESTIMATOR,):
        for anchor in re.findall(r"MIGRATION\.md#([\w-]+)", text):
            assert anchor in anchors, f"{text}: docs/MIGRATION.md has no section #{anchor}"
