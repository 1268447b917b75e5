"""Another tool's loader (pytest's assertion rewriter) gives user modules the TF1 API too.

The end-to-end proof is tests/commands/test_legacy_suites.py (a suite under ``python -m
tf1mem.run -m pytest`` with rewriting on); here: the wrapping is put in whether the
tool is imported before or after the install, reaches user files only, and is undone
exactly.
"""

import json
import textwrap

from tests import _subproc

ROUND_TRIP = textwrap.dedent(r'''
    import json, sys, types
    import tf1mem

    order = sys.argv[1]
    if order == "before":
        from _pytest.assertion import rewrite
    assert ("_pytest.assertion.rewrite" in sys.modules) == (order == "before")
    meta_before = [id(f) for f in sys.meta_path]
    tf1mem.install(import_hook="modules", lazy=True)
    from _pytest.assertion import rewrite
    cls = rewrite.AssertionRewritingHook
    own = cls.exec_module.__wrapped__

    def run_wrapped(module):
        try:
            cls.exec_module(None, module)
        except AssertionError:  # pytest's own exec_module wants a spec: ours ran first
            pass
        return type(module.__dict__.get("__builtins__")).__name__

    user = types.ModuleType("user_test")
    user.__file__ = sys.argv[2]
    lib = types.ModuleType("lib_test")
    lib.__file__ = json.__file__
    during = {"user": run_wrapped(user), "lib": run_wrapped(lib),
              "wrapped": cls.__dict__["exec_module"] is not own}
    tf1mem.uninstall()
    after = {"restored": cls.__dict__["exec_module"] is own,
             "meta_path": [id(f) for f in sys.meta_path] == meta_before}
    print(json.dumps({"during": during, "after": after}))
''')


def test_pytest_rewriter_wrapped_for_user_files_only_and_undone(tmp_path):
    script = tmp_path / "round_trip.py"
    script.write_text(ROUND_TRIP)
    user_file = tmp_path / "test_user.py"
    user_file.write_text("")
    for order in ("before", "after"):
        proc = _subproc.run([script, order, user_file], cwd=tmp_path, check_rc=0)
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        assert out == {"during": {"user": "_UserBuiltins", "lib": "NoneType", "wrapped": True},
                       "after": {"restored": True, "meta_path": True}}, (order, out)
