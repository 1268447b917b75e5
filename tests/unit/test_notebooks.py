"""Legacy notebooks run unchanged: ``python -m tf1mem.run NB.ipynb`` and ``%load_ext tf1mem``.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_notebooks.py.
"""

import configparser

import pytest

from tests import _subproc
from tests.commands.test_notebooks import TUTORIAL, _copy
from tf1mem import errors, run
from tf1mem.compat.runtime import notebook


def test_executed_copy_is_written_beside_the_notebook(tmp_path):
    assert notebook.executed_path(str(tmp_path / "a.ipynb")) == str(tmp_path / "a.tf1mem.ipynb")
    assert notebook.executed_path(str(tmp_path / "b.tf1mem.ipynb")) == \
        str(tmp_path / "b.tf1mem.tf1mem.ipynb")


def test_the_kernel_gets_the_runner_options_with_absolute_report_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    nb = _copy(TUTORIAL, tmp_path)
    opts = run.parse_args(["--seed", "3", "--placement-report", "p.csv",
                           "--memory-report=m.json", nb.name])
    assert opts.notebook
    assert opts.runner_args == ("--seed", "3", "--placement-report", str(tmp_path / "p.csv"),
                                f"--memory-report={tmp_path / 'm.json'}")
    assert notebook.kernel_command(["py", "-m", "tf1mem.run", *opts.runner_args])[-4:] == \
        ["-m", "ipykernel_launcher", "-f", "{connection_file}"]


def test_missing_jupyter_names_the_extra_that_installs_it(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "nbclient", None)
    with pytest.raises(errors.UsageError, match=r"pip install 'tf1mem\[notebook\]'"):
        notebook.run_notebook("x.ipynb", ["python", "-m", "tf1mem.run"])
    cfg = configparser.ConfigParser()
    cfg.read(_subproc.REPO / "setup.cfg", encoding="utf-8")
    extra = cfg.get("options.extras_require", "notebook")
    assert "nbclient" in extra and "ipykernel" in extra
    test_extra = cfg.get("options.extras_require", "test")
    assert "nbclient" in test_extra and "ipykernel" in test_extra
