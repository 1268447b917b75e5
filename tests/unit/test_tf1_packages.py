"""TF1 packages: installed packages named by the user, or recognised, get TF1's ``tensorflow``.

The unit tests build fake installs (a folder with ``*.dist-info`` records and packages) and
check :mod:`tf1mem.compat.runtime.packages` and the user-code rule; the subprocess tests run
a script importing such fake packages through ``python -m tf1mem.run`` (the flag, the
environment variable, ``[tool.tf1mem]`` in ``pyproject.toml``) and through the in-process
``tf1mem.install(tf1_packages=...)``: named and recognised packages get TF1, a TF 2 package
beside them (and dm-sonnet 2, which is not TF1-era) keeps TF 2.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_tf1_packages.py.
"""

import sys
import textwrap

import pytest

from tf1mem import errors
from tf1mem.compat.runtime import packages, usercode

# What each fake package's modules record: does `import tensorflow` give TF1 there, does
# `import numpy` give NumPy 1.x's names, `import collections` Python 3.7's?
_PROBE = textwrap.dedent("""\
    import collections
    import numpy as np
    import tensorflow as tf
    FACTS = {"tf1": hasattr(tf, "set_random_seed"), "np_float": "float" in dir(np),
             "mapping": hasattr(collections, "Mapping")}
""")


def _dist(site, name, version, modules, *, top_level=True, single_file=False):
    """A fake installed distribution ``name==version`` in ``site`` providing ``modules``."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    record = []
    for module in modules:
        if single_file:
            (site / f"{module}.py").write_text(_PROBE)
            record.append(f"{module}.py,,")
        else:
            (site / module).mkdir()
            (site / module / "__init__.py").write_text(_PROBE + "from . import sub\n")
            (site / module / "sub.py").write_text(_PROBE)
            record += [f"{module}/__init__.py,,", f"{module}/sub.py,,"]
    record.append(f"{info.name}/METADATA,,")
    (info / "RECORD").write_text("\n".join(record) + "\n")
    if top_level:
        (info / "top_level.txt").write_text("\n".join(modules) + "\n")


@pytest.fixture()
def site(tmp_path):
    """A pip --target style install folder with fake TF1-era and TF 2 distributions."""
    site = tmp_path / "site"
    site.mkdir()
    _dist(site, "tf1lib", "1.0", ["tf1lib"])
    _dist(site, "tf2lib", "1.0", ["tf2lib"])
    _dist(site, "onefile-tf1", "0.1", ["onefile_tf1"], top_level=False, single_file=True)
    _dist(site, "tflearn", "0.3.2", ["tflearn"])
    _dist(site, "dm-sonnet", "2.0.0", ["sonnet"])
    _dist(site, "stable-baselines3", "2.0.0", ["stable_baselines3"])
    return site


# ---------------------------------------------------------------- finding packages

def test_find_by_module_and_by_distribution_name(site):
    path = [str(site)]
    (by_module,) = packages.find("tf1lib", "--tf1-packages", path)
    assert by_module.locations == (str(site / "tf1lib"),) and by_module.distribution is None
    (by_dist,) = packages.find("onefile-tf1", "cfg", path)  # RECORD, no top_level.txt
    assert (by_dist.name, by_dist.locations, by_dist.distribution, by_dist.version) == (
        "onefile_tf1", (str(site / "onefile_tf1.py"),), "onefile-tf1", "0.1")
    assert "named by cfg; onefile-tf1 0.1" in by_dist.describe()


@pytest.mark.parametrize("name, needle", [
    ("tf1libb", "'tf1libb' is neither a top-level module"),
    ("tf1lib.sub", "name its top-level package 'tf1lib'"),
    ("tf1 lib", "is not a package name"),
    ("", "is not a package name"),
])
def test_a_bad_name_is_named_with_what_to_do(site, name, needle):
    with pytest.raises(errors.ShimError) as info:
        packages.find(name, "--tf1-packages", [str(site)])
    assert needle in str(info.value) and str(info.value).startswith("--tf1-packages: ")


def test_a_misspelt_distribution_gets_a_suggestion(site):
    with pytest.raises(errors.ShimError, match=r"Did you mean 'tflearn'\?.*pip install"):
        packages.find("tflearm", "--tf1-packages", [str(site)])


def test_recognised_by_distribution_and_version(site):
    found = {p.name: p for p in packages.recognise([str(site)])}
    # tflearn (every release) yes; dm-sonnet 2.x and stable-baselines3 are TF 2 / PyTorch.
    assert sorted(found) == ["tflearn"]
    assert found["tflearn"].describe().startswith("tflearn (recognised: tflearn 0.3.2) at ")
    _dist(site, "stable-baselines", "2.10.2", ["stable_baselines"])
    assert sorted(p.name for p in packages.recognise([str(site)])) == [
        "stable_baselines", "tflearn"]


def test_resolve_names_first_then_recognised_each_module_once(site):
    got = packages.resolve([("tflearn", "--tf1-packages"), ("tf1lib", "TF1MEM_TF1_PACKAGES")],
                           path=[str(site)])
    assert [(p.name, p.source) for p in got] == [
        ("tflearn", "--tf1-packages"), ("tf1lib", "TF1MEM_TF1_PACKAGES")]
    assert packages.resolve(known=False, path=[str(site)]) == ()


def test_every_known_distribution_bound_is_a_version():
    for name, below, why in packages.KNOWN_TF1_DISTRIBUTIONS:
        assert packages._NAME.match(name) and why
        assert below is None or packages._release(below)


# ---------------------------------------------------------------- the project's config

def test_pyproject_found_from_the_script_folder_upward(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[tool.tf1mem]\ntf1-packages = ["a", "b"]\n'
        'known-tf1-packages = false\n')
    deep = tmp_path / "src" / "scripts"
    deep.mkdir(parents=True)
    (tmp_path / "src" / "pyproject.toml").write_text('[project]\nname = "inner"\n')
    got = packages.project_config(str(deep))
    assert got == packages.ProjectConfig(str(tmp_path / "pyproject.toml"), ("a", "b"), False)


def test_setup_cfg_section(tmp_path):
    (tmp_path / "setup.cfg").write_text("[tool:tf1mem]\ntf1-packages =\n    a\n    b, c\n")
    assert packages.project_config(str(tmp_path)) == packages.ProjectConfig(
        str(tmp_path / "setup.cfg"), ("a", "b", "c"), None)


@pytest.mark.parametrize("text, needle", [
    ('[tool.tf1mem]\ntf1_packages = ["a"]\n', "unknown key(s) tf1_packages; the keys are "
                                              "tf1-packages, known-tf1-packages"),
    ('[tool.tf1mem]\ntf1-packages = "a"\n', "must be a list of strings"),
    ('[tool.tf1mem]\nknown-tf1-packages = "no"\n', "must be true or false"),
    ('[tool.tf1mem\n', "cannot be read as TOML"),
])
def test_a_bad_pyproject_is_named(tmp_path, text, needle):
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(errors.ShimError) as info:
        packages.project_config(str(tmp_path))
    assert str(info.value).startswith(str(tmp_path / "pyproject.toml")) and needle in str(info.value)


# ---------------------------------------------------------------- the user-code rule

def test_install_folders_are_libraries_and_tf1_packages_user_code(site, tmp_path, monkeypatch):
    src = tmp_path / "src" / "myproj"  # a PYTHONPATH entry with no installed distribution
    src.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "app"), str(site), str(tmp_path / "src"),
                                      *sys.path[1:]])
    monkeypatch.setattr(usercode, "_USER_FILE_CACHE", {})
    monkeypatch.setattr(usercode, "_INSTALL_FOLDER_CACHE", {})
    assert not usercode.is_user_file(str(site / "tf2lib" / "__init__.py"))
    assert not usercode.is_user_file(str(site / "tf1lib" / "sub.py"))
    assert usercode.is_user_file(str(src / "__init__.py"))
    undo = usercode.use_tf1_packages(packages.resolve(
        [("tf1lib", "t"), ("onefile-tf1", "t")], known=False, path=[str(site)]))
    try:
        assert usercode.is_user_file(str(site / "tf1lib" / "sub.py"))
        assert not usercode.is_user_file(str(site / "tf2lib" / "sub.py"))
        assert usercode.is_user_code({"__name__": "onefile_tf1", "__file__": str(site / "onefile_tf1.py")})
        assert not usercode.is_user_code({"__name__": "tf2lib", "__file__": str(site / "tf2lib.py")})
    finally:
        undo()
    assert not usercode.is_user_file(str(site / "tf1lib" / "sub.py"))


def test_the_script_folder_stays_user_code_with_installed_distributions(site, monkeypatch):
    monkeypatch.setattr(sys, "path", [str(site), *sys.path[1:]])
    monkeypatch.setattr(usercode, "_USER_FILE_CACHE", {})
    assert usercode.is_user_file(str(site / "tf2lib" / "__init__.py"))
