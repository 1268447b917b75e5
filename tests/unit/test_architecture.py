"""The package map: docs/ARCHITECTURE.md's import rules hold for every module.

Imports are read with ``ast`` (module-level and inside functions), never by importing.
"""

import ast
import re
from pathlib import Path

import pytest

from tests import _subproc

PACKAGE = _subproc.REPO / "tf1mem"
DOC = _subproc.REPO / "docs" / "ARCHITECTURE.md"


def _rules():
    """{group: (module patterns, allowed groups)} from the doc's marked table."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- import-rules: begin -->")[1].split("<!-- import-rules: end -->")[0]
    rules = {}
    for line in block.strip().splitlines()[2:]:  # skip the header and the --- row
        group, modules, allowed = (cell.strip() for cell in line.strip("|").split("|"))
        patterns = tuple(re.findall(r"`([^`]+)`", modules))
        rules[group] = (patterns, tuple(a.strip() for a in allowed.split(",")))
    return rules


RULES = _rules()


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _group_of(module: str) -> str:
    for group, (patterns, _) in RULES.items():
        for pattern in patterns:
            if module == pattern or (pattern.endswith(".*") and
                                     (module + ".").startswith(pattern[:-1])):
                return group
    raise AssertionError(f"{module} is in no group of docs/ARCHITECTURE.md's table")


def _tf1mem_imports(path: Path):
    """The tf1mem modules a file imports (``from tf1mem.a import b`` -> tf1mem.a.b or
    tf1mem.a, whichever is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "tf1mem")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "tf1mem":
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                as_path = PACKAGE.parent.joinpath(*candidate.split("."))
                is_module = as_path.with_suffix(".py").is_file() or as_path.is_dir()
                found.add(candidate if is_module else node.module)
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_belongs_to_a_group_and_every_subpackage_says_what_it_owns():
    for path in MODULES:
        _group_of(_module_name(path))
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) > 20, f"{init} needs a docstring saying what it owns"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_imports_follow_the_architecture_table(path):
    module = _module_name(path)
    group = _group_of(module)
    allowed = RULES[group][1]
    bad = {imported: _group_of(imported) for imported in _tf1mem_imports(path)
           if _group_of(imported) not in allowed and _group_of(imported) != group}
    assert not bad, (f"{module} ({group}) imports {bad}; docs/ARCHITECTURE.md allows "
                     f"{group} to import only {allowed}")


def test_the_rules_catch_a_forbidden_import(tmp_path):
    """The checker itself: compat importing distributed is found."""
    fake = PACKAGE / "compat" / "runtime" / "lifecycle.py"
    assert _group_of(_module_name(fake)) == "compat-runtime"
    source = tmp_path / "probe.py"
    source.write_text("def f():\n    from tf1mem.distributed import loopback\n")
    imported = _tf1mem_imports(source)
    assert imported == {"tf1mem.distributed.loopback"}
    assert _group_of("tf1mem.distributed.loopback") not in RULES["compat-runtime"][1]
    # ... and the runtime importing a re-implementation
    assert _group_of("tf1mem.compat.tf.contrib.rnn.cells") not in RULES["compat-runtime"][1]


def test_no_module_is_left_flat_outside_the_wings():
    """ls tf1mem/ maps the package: only the groups' own top-level files are there."""
    flat = {p.name for p in PACKAGE.glob("*.py")}
    listed = {pattern.split(".")[-1] + ".py" for patterns, _ in RULES.values()
              for pattern in patterns if pattern.count(".") == 1
              and not PACKAGE.parent.joinpath(*pattern.split(".")).is_dir()}
    listed.add("__init__.py")
    assert flat == listed, f"top-level modules not in the table: {sorted(flat - listed)}"


def _import_graph():
    """{module: the tf1mem modules it imports}, module- and function-level imports."""
    names = {_module_name(p): p for p in MODULES}
    return {module: {imported for imported in _tf1mem_imports(path)
                     if imported in names and imported != module}
            for module, path in names.items()}


def _circles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle():
    assert _circles(_import_graph()) == []


def test_the_circle_check_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


_HEAVY = ("tensorflow", "tf_slim", "tf_keras", "keras", "tqdm")


def _top_level_heavy_imports(path):
    """Heavy modules imported by statements that run when the module is imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def walk(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Import):
                found.extend(a.name for a in node.names if a.name.split(".")[0] in _HEAVY)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] in _HEAVY:
                found.append(node.module)
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list) and not isinstance(node, ast.ClassDef):
                    walk(inner)
                elif isinstance(node, ast.ClassDef) and field == "body":
                    walk(node.body)

    walk(tree.body)
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: _module_name(p))
def test_tensorflow_is_imported_at_a_top_only_in_the_re_implementations(path):
    """Only compat/tf/ (loaded after TensorFlow) may import TensorFlow when it loads."""
    module = _module_name(path)
    if _group_of(module) == "compat-tf":
        return
    assert _top_level_heavy_imports(path) == [], (
        f"{module} imports {_top_level_heavy_imports(path)} when it loads; only "
        f"tf1mem.compat.tf.* may (docs/ARCHITECTURE.md)")


def test_the_top_level_check_finds_a_top_level_import(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os\ntry:\n    import tensorflow as tf\nexcept ImportError:\n"
                     "    pass\n\ndef f():\n    import tf_slim\n")
    assert _top_level_heavy_imports(probe) == ["tensorflow"]


# A re-implementation defines its classes at its top (it imports TensorFlow there): no
# function that builds them on first use, no hand-written module __getattr__.
_BUILDER = re.compile(r"^(_\w*classes|symbols|lazy_classes|_build(_\w+)?)$")
_GETATTR_FACTORIES = ("attach", "removed_names")  # tf1mem._lazy / tf1mem.compat.errors


def _lazy_violations(path):
    """What in a file is not the one lazy mechanism: a module-level class-building
    function (``_classes``, ``_build``, ``symbols``, ``lazy_classes`` ...) or ``def
    __getattr__``, or a ``__getattr__`` (of the module or of a module object it builds)
    assigned from anything but ``_lazy.attach(...)`` / ``errors.removed_names(...)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in tree.body:  # module-level functions (a method may well be _build)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                _BUILDER.match(node.name) or node.name == "__getattr__"):
            found.append(f"line {node.lineno}: def {node.name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        targets = [t for target in node.targets
                   for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        if not any(getattr(t, "id", getattr(t, "attr", None)) == "__getattr__" for t in targets):
            continue
        call = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        factory = getattr(getattr(call, "func", None), "attr", None) \
            if isinstance(call, ast.Call) else None
        if factory not in _GETATTR_FACTORIES or any(isinstance(t, ast.Attribute)
                                                    for t in targets):
            found.append(f"line {node.lineno}: __getattr__ = {ast.unparse(node.value)[:60]}")
    return found


@pytest.mark.parametrize("path", [p for p in MODULES
                                  if _module_name(p).startswith("tf1mem.compat.tf")],
                         ids=lambda p: _module_name(p))
def test_re_implementations_use_the_one_lazy_mechanism(path):
    """Classes at the module's top; lazy names through tf1mem._lazy.attach, removed TF1
    names through tf1mem.compat.errors.removed_names (docs/ARCHITECTURE.md)."""
    assert _lazy_violations(path) == [], (
        f"{_module_name(path)}: {_lazy_violations(path)}; define the classes at the top "
        f"(the module may import TensorFlow there) and use _lazy.attach / "
        f"errors.removed_names for the module's __getattr__")


def test_the_lazy_mechanism_check_finds_builders_and_hand_written_getattr(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import types\n"
        "from tf1mem import _lazy\n"
        "from tf1mem.compat import errors\n"
        "def _classes():\n    class A: pass\n    return {'A': A}\n"
        "def symbols():\n    return _classes()\n"
        "def _build_cells():\n    pass\n"
        "def __getattr__(name):\n    return _classes()[name]\n"
        "__getattr__ = lambda name: None\n"
        "module = types.ModuleType('m')\n"
        "module.__getattr__ = errors.removed_names('tf.contrib.x', 'm')\n"
        "class Fine:\n    def __getattr__(self, name):\n        raise AttributeError(name)\n"
        "    def _build(self):\n        pass\n")
    assert [v.split(": ", 1)[1] for v in _lazy_violations(probe)] == [
        "def _classes", "def symbols", "def _build_cells", "def __getattr__",
        "__getattr__ = lambda name: None",
        "__getattr__ = errors.removed_names('tf.contrib.x', 'm')"]
    probe.write_text(
        "from tf1mem import _lazy\n"
        "from tf1mem.compat import errors\n"
        "__getattr__, __dir__, __all__ = _lazy.attach(__name__, {'x': '.y'},\n"
        "    fallback=errors.removed_names('tf.contrib.x', __name__))\n")
    assert _lazy_violations(probe) == []
    probe.write_text("from tf1mem.compat import errors\n"
                     "__getattr__ = errors.removed_names('tf.contrib.x', __name__)\n"
                     "__getattr__ = _lazy.attach(__name__, {'x': 'os:sep'})[0]\n")
    assert _lazy_violations(probe) == []


def test_doors_commands_and_runtime_load_without_tensorflow():
    modules = ["tf1mem", "tf1mem.v1", "tf1mem.compat", "tf1mem.compat.table",
               "tf1mem.compat.errors", "tf1mem.run", "tf1mem.train", "tf1mem.cluster",
               "tf1mem.scan", "tf1mem.memory", "tf1mem.migrate.inventory",
               *sorted(m for m in map(_module_name, MODULES)
                       if m.startswith("tf1mem.compat.runtime.")
                       or m.startswith("tf1mem.compat.legacy."))]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {_HEAVY!r}))\n")
    proc = _subproc.run(["-c", code], check_rc=0)
    assert proc.stdout.strip() == "[]", proc.stdout


def _namespace(module):
    """``tf1mem.compat.tf.contrib.rnn.cells`` -> ``tf1mem.compat.tf.contrib.rnn``."""
    parts = module.split(".")
    depth = 5 if parts[3:4] == ["contrib"] else 4
    return ".".join(parts[:depth])


@pytest.mark.parametrize("path", [p for p in MODULES
                                  if _module_name(p).startswith("tf1mem.compat.tf.")],
                         ids=lambda p: _module_name(p))
def test_re_implementations_use_each_other_only_through_public_names(path):
    module = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.startswith("tf1mem.compat.tf."):
            if _namespace(node.module) == _namespace(module):
                continue
            private = [a.name for a in node.names if a.name.startswith("_")]
            if private or any(p.startswith("_") for p in node.module.split(".")):
                bad.append(f"from {node.module} import {', '.join(a.name for a in node.names)}")
    assert not bad, f"{module} reaches into another namespace's private names: {bad}"


def test_no_module_is_over_1000_lines():
    long = {_module_name(p): n for p in MODULES
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 1000}
    assert not long, f"modules over 1,000 lines: {long}"


def test_compat_top_holds_only_its_sub_packages_the_table_the_errors_and_the_face():
    top = {p.name for p in (PACKAGE / "compat").iterdir()
           if p.name != "__pycache__"}
    assert top == {"__init__.py", "table.py", "errors.py", "runtime", "tf", "legacy"}
