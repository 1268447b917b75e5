"""Running a script or module as ``python`` would, under the TF1 shim.

:func:`run_script` is what ``python -m tf1mem.run`` does once its flags are parsed:
the script runs as ``__main__`` with ``sys.argv == [SCRIPT, *ARGS]`` and its own
folder first on ``sys.path`` (``-m MODULE``: the current folder), exactly as
``python SCRIPT`` would; a folder or zip file with a ``__main__.py`` runs that.
Exit status, ``sys.exit`` codes, uncaught exceptions (traceback from the script's own
frames, through ``sys.excepthook``) and output are those of ``python SCRIPT``, with
python's one-line messages for a folder without ``__main__.py`` and a module that
does not exist.
"""

import gc
import os
import sys

from tf1mem import errors

__all__ = ["PRELOAD", "run_script"]

# Modules the shim reaches lazily. They are imported before sys.path[0] becomes the
# script's folder, so that tf1mem still imports when it is not installed.
PRELOAD = ("tf1mem.compat", "tf1mem.compat.table", "tf1mem.compat.errors",
           "tf1mem.compat.runtime.packages",
           "tf1mem.compat.runtime.composite", "tf1mem.config",
           "tf1mem.data.input_data", "tf1mem.data.fetch", "tf1mem.data.idx",
           "tf1mem.compat.tf.examples.tutorials.mnist.mnist",
           "tf1mem.compat.runtime.session_hooks", "tf1mem.compat.runtime.op_seeds",
           "tf1mem.observe.placement", "tf1mem.compat.legacy.py2_hints",
           "tf1mem.observe.oom", "tf1mem.observe.caps", "tf1mem.observe.run_memory")


def _user_traceback(tb, path):
    """The traceback from the first frame in the user's script (or all of it)."""
    path = os.path.realpath(path) if path else None
    start = tb
    while start is not None:
        if path is None or os.path.realpath(start.tb_frame.f_code.co_filename) == path:
            return start
        start = start.tb_next
    return tb


def _print_py2_hint(exc):
    """After the traceback: one line saying the failing line is Python 2, if it is."""
    from tf1mem.compat.legacy import py2_hints

    line = py2_hints.hint(exc)
    if line is not None:
        print(line, file=sys.stderr)


def _explain_oom(exc):
    """After the traceback of an uncaught out-of-memory error: tf1mem's short table."""
    from tf1mem.compat.runtime import session_hooks

    found = session_hooks.oom_context(exc)
    if found is None:
        return
    from tf1mem.observe import oom

    try:
        text = oom.describe_oom(*found)
    except Exception as err:  # the script's own failure stays what is reported
        text = f"(could not be explained: {err!r})"
    print("tf1mem.run: out of memory\n" + text, file=sys.stderr)


def _exec_file(path, init_globals):
    """Runs a source file as ``__main__``, as ``python FILE`` does.

    Not ``runpy.run_path``, which sets ``sys.argv[0]`` to the absolute path: python
    keeps it as typed (scripts print it and build paths from it), while
    ``__file__`` is absolute (Python 3.9+). The module stands in ``sys.modules``
    as ``__main__`` while it runs, so pickling and ``multiprocessing`` find it.
    """
    import importlib.machinery
    import types

    main = types.ModuleType("__main__")
    main.__dict__.update(init_globals)
    main.__file__ = path
    main.__cached__ = None
    main.__package__ = None
    main.__spec__ = None
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    with open(path, "rb") as f:  # bytes: compile honours the coding cookie
        code = compile(f.read(), path, "exec", dont_inherit=True)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def _is_runner_frame(filename):
    """Whether a traceback frame is runpy's, importlib's or this module's."""
    import runpy

    return filename == runpy.__file__ or filename.startswith("<frozen") \
        or filename == __file__


def _module_traceback(tb):
    """The traceback from the first frame that is not runpy's, importlib's or tf1mem's
    runner (a ``-m`` module's own code), or all of it when there is none."""
    start = tb
    while start is not None:
        if not _is_runner_frame(start.tb_frame.f_code.co_filename):
            return start
        start = start.tb_next
    return tb


def _raised_by_lookup(exc):
    """Whether an ImportError came from finding the -m module, not from running it.

    runpy raises the same ImportError type for "No module named X" as the module's
    own code may; only a lookup error has no frame outside runpy and importlib.
    """
    tb = exc.__traceback__
    while tb is not None:
        if not _is_runner_frame(tb.tb_frame.f_code.co_filename):
            return False
        tb = tb.tb_next
    return True


def _check_target(opts):
    """SystemExit(1) with python's own line for what ``python`` would not run.

    A folder or zip file without ``__main__.py``; a ``-m`` module whose top-level package does
    not exist (looked up without executing anything: a package's ``__init__`` must
    only run under the shim). Deeper misses are reported by runpy, after the install.
    """
    import importlib.util

    if opts.script is not None:
        import zipfile

        path = os.path.abspath(opts.script)
        if os.path.isdir(path):
            runnable = os.path.isfile(os.path.join(path, "__main__.py"))
        elif zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                runnable = "__main__.py" in archive.namelist()
        else:
            runnable = True
        if not runnable:
            print(f"{sys.executable}: can't find '__main__' module in {path!r}",
                  file=sys.stderr)
            raise SystemExit(1)
        return
    top = opts.module.split(".")[0]
    saved = sys.path[0] if sys.path else None
    if sys.path:
        sys.path[0] = os.getcwd()  # where python -m looks first
    try:
        found = importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        found = True  # let runpy report it, with python's words
    finally:
        if saved is not None:
            sys.path[0] = saved
    if not found:
        if top == opts.module:
            message = f"No module named {opts.module}"
        else:
            message = (f"Error while finding module specification for {opts.module!r} "
                       f"(ModuleNotFoundError: No module named {top!r})")
        print(f"{sys.executable}: {message}", file=sys.stderr)
        raise SystemExit(1)


def _tf1_packages(opts):
    """The TF1 packages of ``opts`` (named, then recognised), found on the ``sys.path`` the
    script will have (its own folder first; ``-m``: the current folder).

    Raises:
      UsageError: a named package is not installed (the message names it and its source).
    """
    from tf1mem.compat.runtime import packages

    first = (os.path.dirname(os.path.realpath(os.path.abspath(opts.script)))
             if opts.script is not None else os.getcwd())
    try:
        return packages.resolve(getattr(opts, "tf1_packages", ()),
                                known=getattr(opts, "known_tf1_packages", True),
                                path=[first, *sys.path[1:]])
    except errors.ShimError as exc:
        raise errors.UsageError(str(exc)) from None


def _print_tf1_packages(tf1_packages, when):
    """``tf1mem.run: TF1 packages...`` on stderr: one line each, or one saying none."""
    if not tf1_packages:
        print(f"tf1mem.run: TF1 packages{when}: none (only the script and its own "
              f"modules get TF1's tensorflow)", file=sys.stderr)
        return
    print(f"tf1mem.run: TF1 packages{when} (they get TF1's tensorflow, as the script does):",
          file=sys.stderr)
    for package in tf1_packages:
        print(f"tf1mem.run:   {package.describe()}", file=sys.stderr)


def run_script(opts, *, forbid_servers=None):
    """Runs the script of ``opts`` under the shim; returns or raises as it does.

    Args:
      opts: a :class:`tf1mem.run.RunOptions` (script or module, args, session
        options, force_config, placement_report, seed).
      forbid_servers: None, or why the script's ``tf.train.Server`` must fail
        (see :func:`tf1mem.compat.install`); such an error ends the run with
        its traceback and the error's exit code (4 for a cluster error).

    Uncaught exceptions other than SystemExit and KeyboardInterrupt are printed
    through ``sys.excepthook`` with the traceback from the script's own frames, and
    turn into ``SystemExit(1)``, as with ``python SCRIPT``.

    Raises:
      ShimError: the shim cannot be installed.
    """
    import importlib
    import runpy

    from tf1mem.compat.runtime import hooks, lifecycle

    # What python refuses before running anything, refused the same way, before
    # TensorFlow is imported (its start-up log would otherwise come first).
    _check_target(opts)
    for name in PRELOAD:
        importlib.import_module(name)
    tf1_packages = _tf1_packages(opts)
    if getattr(opts, "verbose", False):
        _print_tf1_packages(tf1_packages, "")
    froze = []

    def on_tensorflow(tf):
        # Runs when the program first imports TensorFlow (a program that never does
        # never pays for it): then --seed, and the collector's permanent generation.
        if opts.seed is not None:
            tf.set_random_seed(opts.seed)
        # TensorFlow leaves ~300,000 long-lived objects; left in the collector's
        # generations, the script's first full collection walks them all (~150 ms
        # here). Collect once now and move what survives, nearly all of it start-up
        # state of TF, tf1mem and the standard library, to the permanent generation.
        # The collector's thresholds stay the user's; a user who froze objects
        # already (PYTHONSTARTUP, sitecustomize) is left as is.
        if gc.isenabled() and gc.get_freeze_count() == 0:
            gc.collect()
            gc.freeze()
            froze.append(True)

    lifecycle.install(session_options=opts.session, force_config=opts.force_config,
                 placement_report=opts.placement_report, forbid_servers=forbid_servers,
                 import_hook="modules", allow_remote=opts.allow_remote, lazy=True,
                 on_tensorflow=on_tensorflow, numpy_compat=opts.numpy_compat,
                 python_compat=opts.python_compat, stack_compat=opts.stack_compat,
                 memory_report=opts.memory_report, oom_tensors=opts.oom_tensors,
                 tf1_packages=tf1_packages, known_tf1_packages=False)
    init_globals = hooks.user_globals()
    saved_argv, saved_path0 = sys.argv, sys.path[0] if sys.path else None
    try:
        if opts.script is not None:
            path = os.path.abspath(opts.script)
            sys.argv = [opts.script, *opts.args]
            sys.path[0] = os.path.dirname(os.path.realpath(path))
            try:
                if os.path.isfile(path) and not path.endswith((".pyc", ".zip")):
                    _exec_file(path, init_globals)
                else:  # a folder or zip with __main__.py, or compiled code
                    runpy.run_path(path, init_globals=init_globals, run_name="__main__")
            except SystemExit:
                raise
            except KeyboardInterrupt as exc:
                # python prints the traceback, then dies of SIGINT (the caller does that).
                user_tb = _user_traceback(exc.__traceback__, path)
                sys.excepthook(type(exc), exc.with_traceback(user_tb), user_tb)
                raise
            except BaseException as exc:
                user_tb = _user_traceback(exc.__traceback__, path)
                if isinstance(exc, SyntaxError) and exc.filename == path:
                    user_tb = None  # python prints a script that does not compile so
                # The default hook prints exc.__traceback__, whatever tb it is given.
                sys.excepthook(type(exc), exc.with_traceback(user_tb), user_tb)
                _print_py2_hint(exc)
                _explain_oom(exc)
                # A tf1mem error at the script's line (a server that must not start)
                # keeps its documented exit code; anything else is python's 1.
                raise SystemExit(errors.exit_code_for(exc)
                                 if isinstance(exc, errors.Error) else 1) from None
        else:
            sys.argv = [opts.module, *opts.args]
            sys.path[0] = os.getcwd()
            try:
                runpy.run_module(opts.module, init_globals=init_globals, run_name="__main__",
                                 alter_sys=True)
            except (SystemExit, KeyboardInterrupt):
                raise
            except BaseException as exc:
                if isinstance(exc, ImportError) and _raised_by_lookup(exc):
                    # python -m prints runpy's message on one line and exits 1.
                    print(f"{sys.executable}: {exc}", file=sys.stderr)
                    raise SystemExit(1) from None
                # As for a script: the traceback from the module's own frames, then
                # the Python 2 hint naming the module's file and line, then exit 1
                # (a tf1mem error keeps its documented exit code).
                user_tb = _module_traceback(exc.__traceback__)
                if isinstance(exc, SyntaxError) and _raised_by_lookup(exc):
                    user_tb = None  # a module that does not compile: its file and line
                sys.excepthook(type(exc), exc.with_traceback(user_tb), user_tb)
                _print_py2_hint(exc)
                _explain_oom(exc)
                raise SystemExit(errors.exit_code_for(exc)
                                 if isinstance(exc, errors.Error) else 1) from None
    finally:
        if opts.placement_report:
            try:
                lifecycle.write_placement_report(opts.placement_report)
            except (OSError, errors.Error) as exc:  # keep the script's own exit status
                print(f"tf1mem.run: could not write --placement-report "
                      f"{opts.placement_report!r}: {exc}", file=sys.stderr)
        if opts.memory_report:
            try:
                written = lifecycle.write_memory_report(
                    extra={"tf1_packages": [p.to_dict() for p in tf1_packages]})
                if written is not None:
                    print(f"tf1mem.run: memory report {written[0]}: {written[1]}",
                          file=sys.stderr)
            except (OSError, errors.Error) as exc:  # keep the script's own exit status
                print(f"tf1mem.run: could not write --memory-report "
                      f"{opts.memory_report!r}: {exc}", file=sys.stderr)
        if tf1_packages and (opts.placement_report or opts.memory_report):
            _print_tf1_packages(tf1_packages, " (in the reports' run)")
        sys.argv = saved_argv
        if saved_path0 is not None:
            sys.path[0] = saved_path0
        if froze:
            gc.unfreeze()
