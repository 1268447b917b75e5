"""Which installed packages are TF1 code: named by the user, or recognised by tf1mem.

A TF1 package gets what the user's own code gets (TF1's ``tensorflow``, NumPy 1.x's and
Python 3.7's removed names); every other installed package keeps TF 2 and the modules as
installed (:mod:`~tf1mem.compat.runtime.usercode` applies the rule). Packages come from:

- names the user gives (``python -m tf1mem.run --tf1-packages a,b``, ``TF1MEM_TF1_PACKAGES``,
  ``tf1-packages`` under ``[tool.tf1mem]`` of the project's ``pyproject.toml`` or
  ``[tool:tf1mem]`` of its ``setup.cfg``, ``tf1mem.install(tf1_packages=...)``): each a
  top-level module name (``stable_baselines``) or an installed distribution's name
  (``stable-baselines``: the modules it installs);
- :data:`KNOWN_TF1_DISTRIBUTIONS`: TF1-era libraries found installed at a TF1-era version,
  looked up by distribution name through :mod:`importlib.metadata` (no scan of every
  installed distribution), with the modules their ``top_level.txt`` (else ``RECORD``) names.

Nothing here imports the packages: modules are found with
:class:`importlib.machinery.PathFinder`, which only looks at folders.
"""

import configparser
import dataclasses
import difflib
import importlib.machinery
import importlib.metadata
import os
import re
import sys
from typing import Iterable, Optional, Tuple

from tf1mem import errors

__all__ = ["ENV_VAR", "KNOWN_TF1_DISTRIBUTIONS", "RECOGNISED", "CONFIG_KEYS",
           "ProjectConfig", "TF1Package", "find", "recognise", "resolve", "split_names",
           "project_config", "describe_all"]

ENV_VAR = "TF1MEM_TF1_PACKAGES"
RECOGNISED = "recognised"  # the source of a package found in KNOWN_TF1_DISTRIBUTIONS

# TF1-era distributions recognised without being named: (distribution name, the first
# version that is no longer TF1 code or None, what it is). A version below the bound is
# recognised; the distribution's name tells stable-baselines (TF1) from stable-baselines3
# (PyTorch), and its version dm-sonnet 1.x (TF1 graphs) from 2.x (TF 2 modules).
KNOWN_TF1_DISTRIBUTIONS = (
    ("stable-baselines", "3", "stable-baselines 2.x: RL algorithms on TF1 graphs"),
    ("tflearn", None, "TFLearn: Keras-like layers on TF1 graphs (every release)"),
    ("dm-sonnet", "2", "Sonnet 1.x: DeepMind's modules on TF1 graphs (2.x is TF 2)"),
    ("tensornets", None, "TensorNets: pretrained-model graphs for TF1 (every release)"),
    ("tensorpack", None, "Tensorpack: training on TF1 graphs (every release)"),
)

CONFIG_KEYS = ("tf1-packages", "known-tf1-packages")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclasses.dataclass(frozen=True)
class TF1Package:
    """One top-level module treated as TF1 code.

    Attributes:
      name: the top-level module name (``stable_baselines``).
      locations: its folder(s), or its file for a single-module distribution (absolute).
      source: who asked: ``"--tf1-packages"``, ``"TF1MEM_TF1_PACKAGES"``, a config
        file's path, ``"install(tf1_packages=)"``, or :data:`RECOGNISED`.
      distribution: the distribution that installs it, where known.
      version: that distribution's version, where known.
    """

    name: str
    locations: Tuple[str, ...]
    source: str
    distribution: Optional[str] = None
    version: Optional[str] = None

    def describe(self) -> str:
        """One line: ``name (how; distribution version) at location``."""
        how = (f"recognised: {self.distribution} {self.version}" if self.source == RECOGNISED
               else f"named by {self.source}"
               + (f"; {self.distribution} {self.version}" if self.distribution else ""))
        return f"{self.name} ({how}) at {', '.join(self.locations)}"

    def to_dict(self) -> dict:
        """JSON-ready (the memory report's ``tf1_packages``)."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class ProjectConfig:
    """What a project's ``[tool.tf1mem]`` / ``[tool:tf1mem]`` says.

    Attributes:
      path: the file it was read from.
      tf1_packages: the names under ``tf1-packages``.
      known_tf1_packages: ``known-tf1-packages`` (None when not given).
    """

    path: str
    tf1_packages: Tuple[str, ...] = ()
    known_tf1_packages: Optional[bool] = None


def split_names(text: str) -> Tuple[str, ...]:
    """``"a, b c"`` -> ``("a", "b", "c")``: names separated by commas or whitespace."""
    return tuple(n for n in re.split(r"[,\s]+", text or "") if n)


def _search_path(path):
    return list(sys.path if path is None else path)


def _locations(spec):
    if spec.submodule_search_locations:
        return tuple(os.path.abspath(p) for p in spec.submodule_search_locations)
    if spec.origin and spec.origin not in ("built-in", "frozen"):
        return (os.path.abspath(spec.origin),)
    return ()


def _module_spec(name, path):
    try:
        return importlib.machinery.PathFinder.find_spec(name, path)
    except (ImportError, ValueError):
        return None


def _distribution(name, path):
    for dist in importlib.metadata.distributions(name=name, path=path):
        return dist
    return None


def _top_level_modules(dist) -> Tuple[str, ...]:
    """The top-level modules a distribution installs: ``top_level.txt``, else ``RECORD``."""
    text = dist.read_text("top_level.txt")
    if text:
        names = [line.strip().replace("/", ".").split(".")[0] for line in text.splitlines()]
    else:
        names = []
        for file in dist.files or ():
            parts = file.parts
            if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith(
                    (".dist-info", ".egg-info", ".data")):
                continue
            if len(parts) > 1:
                names.append(parts[0])
            elif parts[0].endswith(".py") or any(
                    parts[0].endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES):
                names.append(parts[0].split(".")[0])
    return tuple(dict.fromkeys(n for n in names if _IDENTIFIER.match(n)))


def _not_found(name, source, path):
    known = sorted({d.metadata["Name"] for d in importlib.metadata.distributions(path=path)
                    if d.metadata["Name"]}, key=str.lower)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.7)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return errors.ShimError(
        f"{source}: {name!r} is neither a top-level module on this interpreter's sys.path nor "
        f"an installed distribution ({sys.executable}).{hint} Name the package as you import "
        f"it (stable_baselines) or as pip installs it (stable-baselines), and install it into "
        f"this interpreter first (python -m pip install ...).")


def find(name: str, source: str, path: Optional[Iterable[str]] = None
         ) -> Tuple[TF1Package, ...]:
    """The TF1 packages one user-given name stands for.

    Args:
      name: a top-level module name, or an installed distribution's name.
      source: who gave it (for messages and reports).
      path: the folders to search; None means ``sys.path``.

    Returns:
      One :class:`TF1Package` for a module name; one per module a distribution installs.

    Raises:
      ShimError: the name is malformed, dotted, or neither a module nor a distribution.
    """
    path = _search_path(path)
    if not isinstance(name, str) or not _NAME.match(name):
        raise errors.ShimError(
            f"{source}: {name!r} is not a package name; give top-level module or "
            f"distribution names, e.g. stable_baselines,tflearn")
    if "." in name and _IDENTIFIER.match(name.split(".")[0]) and all(
            _IDENTIFIER.match(p) for p in name.split(".")):
        top = name.split(".")[0]
        raise errors.ShimError(
            f"{source}: {name!r} is a submodule; name its top-level package {top!r} (the whole "
            f"package is then TF1 code)")
    if _IDENTIFIER.match(name):
        spec = _module_spec(name, path)
        if spec is not None and _locations(spec):
            return (TF1Package(name, _locations(spec), source),)
    dist = _distribution(name, path)
    if dist is None:
        raise _not_found(name, source, path)
    found = []
    for module in _top_level_modules(dist):
        spec = _module_spec(module, path)
        if spec is not None and _locations(spec):
            found.append(TF1Package(module, _locations(spec), source,
                                    dist.metadata["Name"], dist.version))
    if not found:
        raise errors.ShimError(
            f"{source}: the distribution {name!r} ({dist.metadata['Name']} {dist.version}) is "
            f"installed, but none of the modules it lists ({', '.join(_top_level_modules(dist)) or 'none'}) "
            f"is on sys.path; reinstall it (python -m pip install --force-reinstall "
            f"{dist.metadata['Name']}=={dist.version}) or name the module you import")
    return tuple(found)


def _release(version):
    match = re.match(r"\d+(?:\.\d+)*", version or "")
    return tuple(int(p) for p in match.group(0).split(".")) if match else ()


def recognise(path: Optional[Iterable[str]] = None) -> Tuple[TF1Package, ...]:
    """The installed :data:`KNOWN_TF1_DISTRIBUTIONS` at a TF1-era version, module by module."""
    path = _search_path(path)
    found = []
    for name, below, _ in KNOWN_TF1_DISTRIBUTIONS:
        dist = _distribution(name, path)
        if dist is None:
            continue
        if below is not None and _release(dist.version) >= _release(below):
            continue
        for module in _top_level_modules(dist):
            spec = _module_spec(module, path)
            if spec is not None and _locations(spec):
                found.append(TF1Package(module, _locations(spec), RECOGNISED,
                                        dist.metadata["Name"], dist.version))
    return tuple(found)


def resolve(named: Iterable = (), *, known: bool = True,
            path: Optional[Iterable[str]] = None) -> Tuple[TF1Package, ...]:
    """Named packages, then recognised ones, each module once (the first source wins).

    Args:
      named: :class:`TF1Package` records, or ``(name, source)`` pairs to :func:`find`.
      known: add the recognised packages (:func:`recognise`).
      path: the folders to search; None means ``sys.path``.
    """
    path = _search_path(path)
    out = {}
    for item in named:
        records = (item,) if isinstance(item, TF1Package) else find(item[0], item[1], path)
        for record in records:
            out.setdefault(record.name, record)
    if known:
        for record in recognise(path):
            out.setdefault(record.name, record)
    return tuple(out.values())


def _config_error(path, text):
    return errors.ShimError(f"{path}: {text}")


def _read_pyproject(path):
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        try:
            import tomli as tomllib
        except ImportError:
            raise _config_error(path, "has a [tool.tf1mem] table, and reading it on Python "
                                      "< 3.11 needs tomli: python -m pip install tomli") from None
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, ValueError) as exc:
        raise _config_error(path, f"cannot be read as TOML ({exc}); fix the file") from None
    table = data.get("tool", {}).get("tf1mem")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise _config_error(path, "[tool.tf1mem] must be a table")
    _check_keys(path, "[tool.tf1mem]", table)
    names = table.get("tf1-packages", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _config_error(path, f"[tool.tf1mem] tf1-packages must be a list of strings, "
                                  f"e.g. tf1-packages = [\"stable_baselines\"], got {names!r}")
    known = table.get("known-tf1-packages")
    if known is not None and not isinstance(known, bool):
        raise _config_error(path, f"[tool.tf1mem] known-tf1-packages must be true or false, "
                                  f"got {known!r}")
    return ProjectConfig(path, tuple(names), known)


def _read_setup_cfg(path):
    parser = configparser.ConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except configparser.Error as exc:
        raise _config_error(path, f"cannot be read ({exc}); fix the file") from None
    if not parser.has_section("tool:tf1mem"):
        return None
    section = dict(parser.items("tool:tf1mem"))
    _check_keys(path, "[tool:tf1mem]", section)
    known = section.get("known-tf1-packages")
    if known is not None:
        lowered = known.strip().lower()
        if lowered not in ("true", "false"):
            raise _config_error(path, f"[tool:tf1mem] known-tf1-packages must be true or false, "
                                      f"got {known!r}")
        known = lowered == "true"
    return ProjectConfig(path, split_names(section.get("tf1-packages", "")), known)


def _check_keys(path, where, table):
    unknown = sorted(set(table) - set(CONFIG_KEYS))
    if unknown:
        raise _config_error(path, f"{where} has unknown key(s) {', '.join(unknown)}; "
                                  f"the keys are {', '.join(CONFIG_KEYS)}")


def project_config(start: str) -> Optional[ProjectConfig]:
    """The nearest ``[tool.tf1mem]`` (``pyproject.toml``) or ``[tool:tf1mem]`` (``setup.cfg``).

    Looked for in ``start`` (the script's folder) and each folder above it; in one folder
    ``pyproject.toml`` is read before ``setup.cfg``.

    Raises:
      ShimError: a file with such a section is malformed, or has an unknown key.
    """
    folder = os.path.abspath(start)
    while True:
        pyproject = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(pyproject):
            with open(pyproject, "rb") as f:
                mentions = b"tf1mem" in f.read()
            found = _read_pyproject(pyproject) if mentions else None
            if found is not None:
                return found
        setup_cfg = os.path.join(folder, "setup.cfg")
        if os.path.isfile(setup_cfg):
            found = _read_setup_cfg(setup_cfg)
            if found is not None:
                return found
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def describe_all(packages: Iterable[TF1Package]) -> str:
    """``"a (how) at X; b (how) at Y"``, or ``"none"``."""
    packages = list(packages)
    return "; ".join(p.describe() for p in packages) if packages else "none"
