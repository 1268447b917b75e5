"""The legacy notebooks of ``tests/legacy_notebooks/``: their outputs, and TF 1.15.5's.

TF 1.15.5's venv has no Jupyter, so its outputs are recorded from the notebook's code
cells run as one script (:func:`script_of`): before each code cell a marker line, and a
cell ending in an expression prints its ``repr`` (unless None) after a second marker, which is what
IPython shows as the cell's ``Out[n]`` for the values these notebooks show (NumPy
arrays and scalars). :func:`outputs_of` reads the same from an executed notebook: per
code cell, its stdout text and its result's ``text/plain``.

Recording (``oracle_tf115.json`` beside the notebooks)::

    python -m tests._legacy_notebook --record /work/oracle/bin/python
"""

import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "tests" / "legacy_notebooks"
ORACLE_JSON = NOTEBOOKS / "oracle_tf115.json"
RECORDED = ("getting_started.ipynb",)  # the notebooks whose outputs TF 1.15.5 fixed
_MARK = re.compile(r"^#<<(cell|result) (\d+)>>$")


def _code_cells(nb):
    return [cell for cell in nb["cells"] if cell["cell_type"] == "code"]


def _source(cell):
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def script_of(nb):
    """The code cells as one Python script with cell and result markers."""
    parts = []
    for number, cell in enumerate(_code_cells(nb), start=1):
        source = _source(cell)
        parts.append(f"print('#<<cell {number}>>')")
        body = ast.parse(source).body
        if body and isinstance(body[-1], ast.Expr):
            lines = source.splitlines()
            last = body[-1]
            parts.append("\n".join(lines[:last.lineno - 1]))
            # IPython shows a value that is not None (a call to print shows none).
            parts.append(f"_value = ({ast.get_source_segment(source, last.value)})\n"
                         f"if _value is not None:\n"
                         f"    print('#<<result {number}>>')\n"
                         f"    print(repr(_value))")
        else:
            parts.append(source)
    return "\n".join(parts) + "\n"


def outputs_from_script(stdout):
    """``{cell number: {"stdout": text, "result": repr or None}}`` from the marked run."""
    found, current, kind = {}, None, None
    for line in stdout.splitlines(keepends=True):
        mark = _MARK.match(line.rstrip("\n"))
        if mark:
            kind, current = mark.group(1), mark.group(2)
            found.setdefault(current, {"stdout": "", "result": None})
            if kind == "result":
                found[current]["result"] = ""
            continue
        if current is None:
            continue
        found[current]["result" if kind == "result" else "stdout"] += line
    for outputs in found.values():
        if outputs["result"] is not None:
            outputs["result"] = outputs["result"].rstrip("\n")
    return found


def outputs_of(nb):
    """The same from an executed notebook: each code cell's stdout and ``Out`` text."""
    found = {}
    for number, cell in enumerate(_code_cells(nb), start=1):
        stdout, result = "", None
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream" and output["name"] == "stdout":
                text = output["text"]
                stdout += "".join(text) if isinstance(text, list) else text
            elif output["output_type"] == "execute_result":
                text = output["data"]["text/plain"]
                result = "".join(text) if isinstance(text, list) else text
        found[str(number)] = {"stdout": stdout, "result": result}
    return found


def load_oracle():
    return json.loads(ORACLE_JSON.read_text(encoding="utf-8"))


def record(python):
    data = {}
    for name in RECORDED:
        nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as workdir:
            script = Path(workdir) / "notebook_as_script.py"
            script.write_text(script_of(nb), encoding="utf-8")
            env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
            proc = subprocess.run([python, str(script)], cwd=workdir, env=env,
                                  capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"{name} failed under {python}:\n{proc.stderr}")
        version = subprocess.run([python, "-c", "import tensorflow as tf; print(tf.__version__)"],
                                 capture_output=True, text=True, env=env).stdout.strip()
        data[name] = {"tensorflow": version, "cells": outputs_from_script(proc.stdout)}
    ORACLE_JSON.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {ORACLE_JSON}")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"] or len(sys.argv) != 3:
        raise SystemExit("usage: python -m tests._legacy_notebook --record PYTHON")
    record(sys.argv[2])
