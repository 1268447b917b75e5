"""The contrib inventory, rendered from tf1mem's table: docs/CONTRIB.md is its output.

``python -m tf1mem.migrate.inventory > docs/CONTRIB.md`` writes the whole page; a test
fails when the file is stale. One inventory, generated: the README and the other docs
link to it instead of listing symbols (docs/CONTRIB_NOTES.md keeps what was measured).
"""

from tf1mem.compat import table

__all__ = ["describe", "ranked_table", "markdown_table", "render"]


def describe(name):
    """(decision, TF 2 home or replacement) for one module.

    Decisions: "re-implemented" (every source is a tf1mem module that is not one of
    :data:`~tf1mem.compat.table.FORWARDING`), "mapped + tf1mem code" (TF / tf-slim homes
    plus tf1mem's own functions: the note says which), "mapped", "removed" / "removed
    (partly provided)".
    """
    if name in table.CONTRIB_MODULES:
        sources, note = table.CONTRIB_MODULES[name]
        sources = (sources,) if isinstance(sources, str) else sources
        own = name not in table.FORWARDING and all(src.startswith("tf1mem.") for src in sources)
        if own or note.startswith("tf1mem's re-implementation"):
            return ("re-implemented", note)
        return ("mapped + tf1mem code" if "tf1mem" in note else "mapped", note)
    if name in table.REMOVED_CONTRIB:
        advice = table.REMOVED_CONTRIB[name]
        text = advice if advice.startswith("no ") else f"use {advice}"
        partly = table.PARTLY_PROVIDED.get(name)
        if partly:
            return ("removed (partly provided)", f"provided: {partly}; otherwise {text}")
        return ("removed", text)
    return ("not listed", "")


def ranked_table():
    """Rows (rank, module, sample count, decision, home or replacement), most used first;
    every module of :data:`tf1mem.compat.table.USAGE`, :data:`~tf1mem.compat.table.CONTRIB_MODULES` and :data:`~tf1mem.compat.table.REMOVED_CONTRIB`."""
    names = set(table.USAGE) | set(table.CONTRIB_MODULES) | set(table.REMOVED_CONTRIB)
    ordered = sorted(names, key=lambda n: (-table.USAGE.get(n, 0), n))
    return [(i + 1, name, table.USAGE.get(name, 0), *describe(name))
            for i, name in enumerate(ordered)]


def markdown_table():
    """The ranked table as the Markdown docs/CONTRIB.md holds (checked by a test)."""
    lines = [f"| rank | module | uses in {table.USAGE_SAMPLE_SIZE} | decision | TF 2 home / "
             f"replacement |", "|---:|---|---:|---|---|"]
    for rank, name, count, decision, home in ranked_table():
        lines.append(f"| {rank} | `tf.contrib.{name}` | {count} | {decision} | "
                     f"{home.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


_INTRO = """\
# `tf.contrib` under tf1mem: the inventory

Generated from tf1mem's table (`tf1mem/compat/table.py`) by
`python -m tf1mem.migrate.inventory > docs/CONTRIB.md`; do not edit by hand
(`tests/unit/test_contrib_table.py` fails when this page is stale). What was measured for
each module, and how the uses were counted, is [CONTRIB_NOTES.md](CONTRIB_NOTES.md).

TF 2 removed `tf.contrib`. Under `python -m tf1mem.run` (and `tf1mem.legacy()`), each
`tf.contrib.X` a TF1 script uses is one of:

- **mapped**: served from its TF 2 home (`tf.compat.v1.*`, `tf.data.experimental`,
  `tf.signal`, TF's v1 lookup tables) or from tf-slim, the maintained copy of
  `tf.contrib.slim` / `layers` / `framework`;
- **mapped + tf1mem code**: as above, plus functions tf1mem writes where TF 2 has no
  equal;
- **re-implemented**: tf1mem's own module, at its TF1 path under `tf1mem/compat/tf/`;
- **removed**: importing or using it raises `ImportError` / `AttributeError` (tf1mem's
  `RemovedModuleError` / `RemovedAttributeError`) whose message names the symbol, says
  it was removed with TF 2 and names the replacement.
"""


def _home(source):
    """A source string as a reader would name it."""
    module, colon, path = source.partition(":")
    if module == "tensorflow" and colon:
        return f"`tf.{path}`"
    if module.startswith("tf1mem."):
        return f"tf1mem's `{module}`"
    return f"`{module}{'.' + path if colon and path else ''}`"


def render():
    """The whole of docs/CONTRIB.md: intro, ranked table, each module's homes and notes,
    the names removed inside provided modules, and the deeper import paths."""
    out = [_INTRO, "\n## The ranked table\n\n",
           f"Uses of each module in a sample of {table.USAGE_SAMPLE_SIZE} uses of "
           f"`tf.contrib` in public TF1 code (CONTRIB_NOTES.md says how they were counted).\n\n",
           markdown_table(), "\n## Provided modules\n"]
    for name in sorted(table.CONTRIB_MODULES):
        sources, note = table.CONTRIB_MODULES[name]
        sources = (sources,) if isinstance(sources, str) else sources
        out.append(f"\n### `tf.contrib.{name}` ({describe(name)[0]})\n\n")
        out.append("Served from " + ", then ".join(_home(s) for s in sources) + ".\n")
        out.append(f"What it holds: {note}.\n")
        removed = sorted(k.split(".", 1)[1] for k in table.REMOVED_SYMBOLS
                         if k.split(".", 1)[0] == name)
        if removed:
            out.append("\nNot provided (each raises, naming its replacement): "
                       + ", ".join(f"`{r}`" for r in removed) + ".\n")
    out.append("\n## Deeper import paths\n\nTF1 code imported these module paths; under "
               "tf1mem each is the module named.\n\n| TF1 path | is |\n|---|---|\n")
    for path, target in sorted(table.CONTRIB_SUBMODULES.items()):
        out.append(f"| `tensorflow.contrib.{path}` | `tf.contrib.{target}` |\n")
    for path, target in sorted(table.CONTRIB_PACKAGES.items()):
        served = target if "." in target else f"tf.contrib.{target}"
        out.append(f"| `tensorflow.contrib.{path}` | a package serving `{served}`'s names |\n")
    for path, target in sorted(table.MODULE_ALIASES.items()):
        out.append(f"| `{path}` | `{target}` |\n")
    for path, target in sorted(table.MODULE_PREFIX_ALIASES.items()):
        out.append(f"| `{path}.*` | `{target}.*` |\n")
    out.append("\nTF1's internal modules (`tensorflow.python.*`) that user code imports: "
               "[INTERNALS.md](INTERNALS.md).\n")
    out.append("\n## tf.estimator names not provided\n\n| name | use instead |\n"
               "|---|---|\n")
    for name, advice in sorted(table.ESTIMATOR_REMOVED.items()):
        out.append(f"| `tf.estimator.{name}` | {advice.replace('|', '/')} |\n")
    for name, advice in sorted(table.ESTIMATOR_EXPERIMENTAL_REMOVED.items()):
        out.append(f"| `tf.estimator.experimental.{name}` | {advice.replace('|', '/')} |\n")
    return "".join(out)


if __name__ == "__main__":
    print(render(), end="")
