"""Legacy notebooks run unchanged: ``python -m tf1mem.run NB.ipynb`` and ``%load_ext tf1mem``.

Both run ``tests/legacy_notebooks/getting_started.ipynb`` (a TF1 tutorial: NumPy data,
placeholders, a seeded variable, a ``tf.Session`` training 201 steps, printed values
and ``Out[n]`` results) in a real Jupyter kernel (ipykernel, driven by nbclient), from
a copy, and compare each code cell's stdout and result with what TF 1.15.5 gave for
the same code (``oracle_tf115.json``, recorded by ``python -m tests._legacy_notebook
--record /work/oracle/bin/python``).

The tests here: the commands in subprocesses; the rest: tests/unit/test_notebooks.py.
"""

import json
import textwrap

import pytest

from tests import _legacy_notebook as notebooks
from tests import _subproc

ORACLE = notebooks.load_oracle()
TUTORIAL = "getting_started.ipynb"


def _copy(name, folder):
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    target.write_bytes((notebooks.NOTEBOOKS / name).read_bytes())
    return target


def _read(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_runner_executes_the_tutorial_as_tf115_did(tmp_path):
    nb = _copy(TUTORIAL, tmp_path / "notebooks")
    before = nb.read_bytes()
    # A relative report path is the caller's, though the kernel runs in the notebook's folder.
    proc = _subproc.run(["-m", "tf1mem.run", "--placement-report", "placement.json",
                         nb.relative_to(tmp_path)], cwd=tmp_path, check_rc=0, timeout=600)
    executed = tmp_path / "notebooks" / "getting_started.tf1mem.ipynb"
    assert f"executed notebook written to {executed}" in proc.stderr
    assert nb.read_bytes() == before  # the input is never written
    out = _read(executed)
    assert notebooks.outputs_of(out) == ORACLE[TUTORIAL]["cells"], _subproc.describe(proc)
    # The cells were run in order, numbered as Jupyter would; the silent setup is no cell.
    counts = [c["execution_count"] for c in out["cells"] if c["cell_type"] == "code"]
    assert counts == [1, 2, 3, 4, 5, 6]
    assert out["metadata"]["kernelspec"] == _read(nb)["metadata"]["kernelspec"]
    # What the cells printed is echoed as they run.
    assert "200 0.100000 0.300000" in proc.stdout
    # The runner's options hold in the kernel: its session runs were reported.
    report = json.loads((tmp_path / "placement.json").read_text(encoding="utf-8"))
    assert report and not (tmp_path / "notebooks" / "placement.json").exists()


LOAD_EXT_DRIVER = textwrap.dedent(r'''
    import os, sys
    import nbclient, nbformat
    from nbformat.v4 import new_code_cell

    source, executed = sys.argv[1], sys.argv[2]
    nb = nbformat.read(source, as_version=4)
    nb.cells.insert(0, new_code_cell("%load_ext tf1mem"))
    nb.cells.append(new_code_cell("%unload_ext tf1mem"))
    nb.cells.append(new_code_cell(
        "import tensorflow as tf2\nprint('after unload, TF1 API:', hasattr(tf2, 'placeholder'))"))
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=None, startup_timeout=300,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(source))}})
    client.execute()
    nbformat.write(nb, executed)
''')


@pytest.mark.slow
def test_load_ext_in_a_plain_kernel_as_tf115_did(tmp_path):
    nb = _copy(TUTORIAL, tmp_path)
    driver = tmp_path / "driver.py"
    driver.write_text(LOAD_EXT_DRIVER, encoding="utf-8")
    executed = tmp_path / "executed.ipynb"
    proc = _subproc.run([driver, nb, executed], cwd=tmp_path, check_rc=0, timeout=600)
    out = _read(executed)
    load, *cells, unload, after = out["cells"]
    assert load["outputs"] == []
    tutorial = dict(out, cells=cells)
    assert notebooks.outputs_of(tutorial) == ORACLE[TUTORIAL]["cells"], _subproc.describe(proc)
    texts = ["".join(o.get("text", "")) for o in unload["outputs"] + after["outputs"]]
    assert "after unload, TF1 API: False\n" in texts
    assert any("tf still name(s) the TF1 module" in t for t in texts), texts


@pytest.mark.slow
def test_a_failing_cell_fails_the_run_as_nbconvert_does(tmp_path):
    nb = _copy("cell_error.ipynb", tmp_path)
    proc = _subproc.run(["-m", "tf1mem.run", nb], cwd=tmp_path, check_rc=1, timeout=600)
    assert "before the error" in proc.stdout
    assert "never printed" not in proc.stdout
    assert "values[1] / 0" in proc.stderr  # the cell, as nbconvert shows it
    assert "ZeroDivisionError: division by zero" in proc.stderr
    assert "\x1b[" not in proc.stderr  # colours only on a terminal
    assert not (tmp_path / "cell_error.tf1mem.ipynb").exists()


SHELL_ROUND_TRIP = textwrap.dedent(r'''
    import builtins, json, sys
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    seen = {}

    def cell(source):
        ip.user_ns["seen"] = seen  # the record, in the cells' namespace (again after %reset)
        result = ip.run_cell(source)
        assert result.success, (source, result.error_in_exec or result.error_before_exec)

    open("helper_script.py", "w").write(
        "import tensorflow as tf\nimport numpy as np\n"
        "RAN = (hasattr(tf, 'placeholder'), np.float is float)\n")
    cell("import tensorflow as tf_before")
    cell("%load_ext tf1mem")
    cell("import tensorflow as tf\nimport numpy as np\n"
         "seen['cell'] = (hasattr(tf, 'placeholder'), np.float is float)")
    cell("%reset -f")
    cell("import tensorflow as tf\nseen['after_reset'] = hasattr(tf, 'placeholder')")
    cell("%run helper_script.py")
    cell("seen['run_script'] = RAN")
    cell("import tensorflow as tf\nseen['after_run'] = hasattr(tf, 'placeholder')")
    cell("%unload_ext tf1mem")
    cell("import tensorflow as tf3\nseen['after_unload'] = hasattr(tf3, 'placeholder')")
    import tf1mem.compat as compat
    seen["installed_after_unload"] = compat.is_installed()
    seen["builtins_back"] = ip.user_global_ns["__builtins__"] is builtins
    seen["execfile_back"] = "safe_execfile" not in ip.__dict__
    print(json.dumps(seen, default=str))
''')


@pytest.mark.slow
def test_load_ext_survives_reset_and_run_and_unloads_exactly(tmp_path):
    (tmp_path / "shell.py").write_text(SHELL_ROUND_TRIP, encoding="utf-8")
    proc = _subproc.run([tmp_path / "shell.py"], cwd=tmp_path, check_rc=0)
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen == {"cell": [True, True], "after_reset": True, "run_script": [True, True],
                    "after_run": True, "after_unload": False,
                    "installed_after_unload": False, "builtins_back": True,
                    "execfile_back": True}, proc.stderr
    # tf_before was TF 2's module, imported before the extension: the note says so.
    assert "tf_before still name(s) TensorFlow 2's module" in proc.stderr


def test_a_notebook_takes_no_arguments(tmp_path):
    nb = _copy(TUTORIAL, tmp_path)
    proc = _subproc.run(["-m", "tf1mem.run", nb, "--flag"], cwd=tmp_path, check_rc=2)
    assert "is a notebook: it takes no arguments (got '--flag')" in proc.stderr


def test_a_file_that_is_no_notebook_is_a_usage_error(tmp_path):
    bad = tmp_path / "broken.ipynb"
    bad.write_text("{not json", encoding="utf-8")
    proc = _subproc.run(["-m", "tf1mem.run", bad], cwd=tmp_path, check_rc=2)
    assert "is not a readable Jupyter notebook" in proc.stderr
    other = tmp_path / "r.ipynb"
    other.write_text(json.dumps({"cells": [], "nbformat": 4, "nbformat_minor": 5,
                                 "metadata": {"kernelspec": {"name": "ir", "language": "R",
                                                             "display_name": "R"}}}))
    proc = _subproc.run(["-m", "tf1mem.run", other], cwd=tmp_path, check_rc=2)
    assert "is a R notebook: tf1mem.run runs Python notebooks only" in proc.stderr


def test_a_kernel_that_does_not_start_is_one_clear_failure(tmp_path):
    nb = _copy("cell_error.ipynb", tmp_path)
    code = ("import sys\nfrom tf1mem.compat.runtime import notebook\n"
            "refuse = [sys.executable, '-c', 'import sys; sys.exit(\"kernel refuses\")']\n"
            "sys.exit(notebook.run_notebook(sys.argv[1], refuse))\n")
    proc = _subproc.run(["-c", code, nb], cwd=tmp_path, check_rc=1, timeout=300)
    assert "kernel refuses" in proc.stderr  # the kernel's own error
    assert "the kernel did not start" in proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert not (tmp_path / "cell_error.tf1mem.ipynb").exists()
