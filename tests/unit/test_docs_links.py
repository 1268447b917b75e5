"""README.md stays a quick start, and every relative link in README.md and docs/*.md resolves.

Reads text only: no TensorFlow, no tf1mem import.
"""

import re
from pathlib import Path

import pytest


def _repo_root():
    # Found by walking up, so the test keeps working when tests/ is split into tiers.
    for folder in Path(__file__).resolve().parents:
        if (folder / "README.md").is_file() and (folder / "docs").is_dir():
            return folder
    raise AssertionError("no folder above this test holds README.md and docs/")


REPO = _repo_root()
README = REPO / "README.md"
PAGES = [README, *sorted((REPO / "docs").glob("*.md"))]
README_MAX_LINES = 200
SETUP_COMMANDS = (
    "python3 -m pip install -e . && python3 -m tf1mem.train",
    "python3 -m pip install -e '.[test]' && python3 -m pytest",
)

_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
# The target of an inline link or image: "](target)". The link text is not parsed, since
# it may hold brackets of its own ("[tests/x.py::test[param]](../tests/x.py)").
_TARGET = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} +(.+?) *#* *$", re.M)


def _links(text):
    text = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return _TARGET.findall(text)


def _slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page):
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    seen = {}
    anchors = set()
    for heading in _HEADING.findall(text):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _is_relative(target):
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I)  # http:, mailto:, ...


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in _links(page.read_text(encoding="utf-8")):
        if not _is_relative(target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no file {dest}")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: {dest.name} has no heading #{anchor}")
    assert not broken, f"{page.relative_to(REPO)} links to what is not there:\n" + \
        "\n".join(broken)


def test_readme_is_a_quick_start_of_at_most_200_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines; keep it a quick start of at most "
        f"{README_MAX_LINES} and move the rest into docs/")


def test_readme_holds_exactly_the_two_setup_commands():
    lines = [line.strip() for line in README.read_text(encoding="utf-8").splitlines()]
    for command in SETUP_COMMANDS:
        assert lines.count(command) == 1, f"README.md must hold this line once: {command}"
    installs = [line for line in lines if line.startswith("python") and "pip install" in line]
    assert sorted(installs) == sorted(SETUP_COMMANDS), (
        f"README.md's set-up commands are exactly {SETUP_COMMANDS}; found {installs}")
