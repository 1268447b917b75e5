"""The contrib inventory, rendered from tf1mem's table: docs/CONTRIB.md is its output.

``python -m tf1mem.migrate.inventory`` prints the Markdown that docs/CONTRIB.md holds
between its markers; a test fails when the file is stale. One inventory, generated:
the README and the other docs link to it instead of listing symbols.
"""

from tf1mem.compat import table

__all__ = ["describe", "ranked_table", "markdown_table"]


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


if __name__ == "__main__":
    print(markdown_table(), end="")
