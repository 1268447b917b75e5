"""TF1 packages: installed packages named by the user, or recognised, get TF1's ``tensorflow``.

The tests here: the commands in subprocesses; the rest: tests/unit/test_tf1_packages.py.
"""

import json
import os
import textwrap

import pytest

from tests import _subproc
from tests.unit.test_tf1_packages import _PROBE, site  # noqa: F401 (fixture: site)


# ---------------------------------------------------------------- end to end (TensorFlow)


_MAIN = textwrap.dedent("""\
    import json, sys
    {prelude}
    import myproj, onefile_tf1, sonnet, tf1lib, tf2lib, tflearn
    facts = {{"main": hasattr(tf, "set_random_seed")}}
    for module in (myproj, onefile_tf1, sonnet, sonnet.sub, tf1lib, tf1lib.sub, tf2lib,
                   tf2lib.sub, tflearn, tflearn.sub):
        facts[module.__name__] = module.FACTS["tf1"]
        if module.__name__ in ("tf1lib.sub", "tf2lib.sub"):
            facts[module.__name__ + " np/collections"] = [module.FACTS["np_float"],
                                                          module.FACTS["mapping"]]
    print(json.dumps(facts, sort_keys=True))
""")


_RUNNER_PRELUDE = "import tensorflow as tf"


_INSTALL_PRELUDE = ("import tf1mem\n"
                    "tf = tf1mem.install(tf1_packages=['tf1lib', 'onefile-tf1'], "
                    "numpy_compat=True, python_compat=True)")


def _expected(tflearn):
    return {"main": True, "myproj": True, "onefile_tf1": True, "sonnet": False,
            "sonnet.sub": False, "tf1lib": True, "tf1lib.sub": True, "tf2lib": False,
            "tf2lib.sub": False, "tflearn": tflearn, "tflearn.sub": tflearn,
            "tf1lib.sub np/collections": [True, True],
            "tf2lib.sub np/collections": [False, False]}


def _project(tmp_path, site, prelude):
    src = tmp_path / "src" / "myproj"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text(_PROBE)
    app = tmp_path / "app"
    app.mkdir()
    (app / "main.py").write_text(_MAIN.format(prelude=prelude))
    env = {"PYTHONPATH": os.pathsep.join([str(_subproc.REPO), str(site), str(tmp_path / "src")])}
    return app / "main.py", env


@pytest.mark.slow
@pytest.mark.parametrize("how", ["flag", "env", "pyproject", "install"])
def test_named_and_recognised_packages_get_tf1_and_others_keep_tf2(site, tmp_path, how):
    script, env = _project(tmp_path, site, _INSTALL_PRELUDE if how == "install" else _RUNNER_PRELUDE)
    args = ["-m", "tf1mem.run", "--verbose"]
    if how == "flag":
        args += ["--tf1-packages", "tf1lib", "--tf1-packages=onefile-tf1"]
    elif how == "env":
        env["TF1MEM_TF1_PACKAGES"] = "tf1lib, onefile-tf1"
        args += ["--no-known-tf1-packages"]
    elif how == "pyproject":
        (tmp_path / "pyproject.toml").write_text(
            '[tool.tf1mem]\ntf1-packages = ["tf1lib", "onefile-tf1"]\n')
    else:
        args = []
    proc = _subproc.run([*args, script], cwd=tmp_path, env=env, check_rc=0)
    assert json.loads(proc.stdout.splitlines()[-1]) == _expected(tflearn=how != "env"), \
        _subproc.describe(proc)
    if how != "install":
        source = {"flag": "--tf1-packages", "env": "TF1MEM_TF1_PACKAGES",
                  "pyproject": str(tmp_path / "pyproject.toml")}[how]
        assert (f"tf1mem.run:   tf1lib (named by {source}) at {site / 'tf1lib'}"
                in proc.stderr.splitlines()), _subproc.describe(proc)
        assert (f"tf1mem.run:   onefile_tf1 (named by {source}; onefile-tf1 0.1) at "
                f"{site / 'onefile_tf1.py'}" in proc.stderr.splitlines())
        assert any(line.startswith("tf1mem.run:   tflearn (recognised: tflearn 0.3.2)")
                   for line in proc.stderr.splitlines()) == (how != "env")


@pytest.mark.slow
def test_memory_report_and_exit_lines_name_the_tf1_packages(site, tmp_path):
    script = tmp_path / "app.py"
    script.write_text("import tensorflow as tf\nimport tf1lib\n"
                      "with tf.Session() as s:\n    s.run(tf.constant(1) + 1)\n")
    report = tmp_path / "memory.json"
    proc = _subproc.run(["-m", "tf1mem.run", "--tf1-packages", "tf1lib", "--memory-report",
                         report, script], cwd=tmp_path, check_rc=0,
                        env={"PYTHONPATH": f"{_subproc.REPO}{os.pathsep}{site}"})
    data = json.loads(report.read_text())
    assert [(p["name"], p["source"]) for p in data["tf1_packages"]] == [
        ("tf1lib", "--tf1-packages"), ("tflearn", "recognised")]
    assert "tf1mem.run: TF1 packages (in the reports' run)" in proc.stderr


@pytest.mark.parametrize("args, env, needle", [
    (["--tf1-packages", "no_such_pkg_xyz"], {},
     "tf1mem.run: error: --tf1-packages: 'no_such_pkg_xyz' is neither a top-level module"),
    ([], {"TF1MEM_TF1_PACKAGES": "tf1lib.sub"},
     "tf1mem.run: error: TF1MEM_TF1_PACKAGES: 'tf1lib.sub' is a submodule"),
    (["--tf1-packages", ","], {}, "--tf1-packages needs a comma-separated list"),
])
def test_a_bad_name_is_a_usage_error_before_the_script_runs(site, tmp_path, args, env, needle):
    script = tmp_path / "app.py"
    script.write_text("print('ran')\n")
    proc = _subproc.run(["-m", "tf1mem.run", *args, script], cwd=tmp_path, check_rc=2,
                        env={"PYTHONPATH": f"{_subproc.REPO}{os.pathsep}{site}", **env})
    assert needle in proc.stderr and "ran" not in proc.stdout, _subproc.describe(proc)


def test_a_bad_pyproject_is_a_usage_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.tf1mem]\npackages = ["a"]\n')
    script = tmp_path / "app.py"
    script.write_text("print('ran')\n")
    proc = _subproc.run(["-m", "tf1mem.run", script], cwd=tmp_path, check_rc=2)
    assert f"{tmp_path / 'pyproject.toml'}: [tool.tf1mem] has unknown key(s) packages" in proc.stderr
