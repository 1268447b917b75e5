"""``python -m tf1mem.run [OPTIONS] SCRIPT [ARGS...]``: run a TF1 script unchanged.

SCRIPT runs as ``__main__`` with ``sys.argv == [SCRIPT, *ARGS]`` and its own folder
first on ``sys.path``, as ``python SCRIPT`` would, under the TF1 shim
(:mod:`tf1mem.compat`; the running is :mod:`tf1mem.compat.runtime.script`'s).
``-m MODULE`` runs a module of a package instead, as ``python -m MODULE`` would (the
current folder first on ``sys.path``). A Jupyter notebook (``NOTEBOOK.ipynb``) is
executed in a Jupyter kernel that itself runs under the runner with the same options,
and its executed copy is written beside it as ``NOTEBOOK.tf1mem.ipynb``
(:mod:`tf1mem.compat.runtime.notebook`).

Runner options come before SCRIPT; everything after it is the script's. They are
the session-config flags of :mod:`tf1mem.config` (``--allow-growth``,
``--gpu-memory-fraction F``, ``--log-device-placement``, ...; ``TF1MEM_*``
environment variables too), applied to every Session the script creates and merged
with the script's own config (the script's explicit value wins unless
``--force-config``), ``--placement-report FILE`` (``.csv`` or ``.json``) and
``--memory-report FILE`` (``.json`` or ``.csv``: each ``session.run`` label's
peak per device and largest tensors, from its first runs traced with
``FULL_TRACE``; a one-line summary on stderr at exit), ``--cpus LIST`` (the
runner, the script and its children pinned to those CPUs, checked with the
kernel: :mod:`tf1mem.config.affinity`), ``--seed N`` (as if the script began with ``tf.set_random_seed(N)``; TF1's MNIST
loader then shuffles deterministically, as it did under TF 1.x), ``--tf1-packages LIST``
(installed packages that are TF1 code too; also ``TF1MEM_TF1_PACKAGES`` and the
project's ``[tool.tf1mem]``; the TF1-era libraries tf1mem recognises count unless
``--no-known-tf1-packages``; ``--verbose`` lists them at start).

Exit status, ``sys.exit`` codes, uncaught exceptions (traceback from the script's
own frames, through ``sys.excepthook``), signals (SIGINT: traceback, then death by
SIGINT; SIGTERM: death by SIGTERM) and output are those of ``python SCRIPT``; so are
a folder or zip file with a ``__main__.py``. The runner's own errors (a bad option, a
missing script) exit 2. Not supported: ``-c CODE``, a script on standard input
(``-``), and python's own interpreter options (give those to python:
``python -X dev -m tf1mem.run SCRIPT``).

``--warm`` (or ``TF1MEM_WARM=1``) runs the script in a child forked from a per-user
template that has imported TensorFlow already (:mod:`tf1mem._warm`,
:mod:`tf1mem._warm_template`): the same run without TensorFlow's start-up. A run whose
import-time settings differ from the template's runs cold (``--verbose`` says why);
``--warm-status`` and ``--warm-stop`` show and end the template.

TensorFlow's gRPC server runs any graph it is sent, without authentication, and in
TF 2.21 listens on every interface whatever the ClusterSpec says. So the command
restarts itself once, before TensorFlow is imported, under :mod:`tf1mem.distributed.loopback`'s
bind shim: servers the script starts listen on 127.0.0.1 only (the script sees
``LD_PRELOAD`` and ``TF1MEM_LOOPBACK_ONLY`` in its environment). ``--allow-remote``
keeps TensorFlow's behaviour and prints its warning. Without a C compiler to build
that shim, a script that starts no server runs as usual, and one that does fails
closed at its ``tf.train.Server(...)`` line (exit 4).
"""

import argparse
import dataclasses
import os
import signal
import sys
from typing import Optional, Tuple

from tf1mem import _cli, errors

__all__ = ["RunOptions", "parse_args", "main", "entry"]



@dataclasses.dataclass(frozen=True)
class RunOptions:
    """The runner's parsed command line.

    Attributes:
      script: path of the script to run, or None with ``module``.
      module: ``-m`` module name, or None.
      args: the script's own arguments.
      session: :class:`tf1mem.config.SessionOptions` for every Session, or None.
      force_config: the session options beat the script's own ConfigProto values.
      placement_report: ``.csv``/``.json`` path for the placement report, or None.
      seed: graph-level seed to set before the script runs, or None.
      allow_remote: let the script's gRPC servers listen on every interface.
      memory_report: ``.json``/``.csv`` path for the per-run-label memory report, or None.
      oom_tensors: every session run asks for TensorFlow's live-tensor list on
        out-of-memory (costs time on every run; implied by ``memory_report``).
      numpy_compat: the script and its own modules get NumPy 1.x's removed names
        (:mod:`tf1mem.compat.legacy.numpy_view`); ``--no-numpy-compat`` turns it off.
      python_compat: the script and its own modules get the standard-library names
        Python 3.7 had and Python removed since (:mod:`tf1mem.compat.legacy.stdlib_view`);
        ``--no-python-compat`` turns it off.
      stack_compat: the script and its own modules get the names SciPy 1.1, Pillow 6 and
        scikit-learn 0.19 had and their libraries removed since
        (:mod:`tf1mem.compat.legacy.stack_view`); ``--no-stack-compat`` turns it off.
      cpus: CPU numbers the runner, the script and its children are pinned to
        (``--cpus`` / ``TF1MEM_CPUS``, :mod:`tf1mem.config.affinity`), or None.
      tf1_packages: ``(name, source)`` pairs: installed packages that are TF1 code,
        from ``--tf1-packages``, ``TF1MEM_TF1_PACKAGES`` and the project's
        ``[tool.tf1mem]`` (:mod:`tf1mem.compat.runtime.packages`); found on the
        script's ``sys.path`` when it starts.
      known_tf1_packages: the TF1-era libraries tf1mem recognises are TF1 code too
        (``--no-known-tf1-packages`` or the project's ``known-tf1-packages = false``
        turn it off).
      verbose: say at start which packages are TF1 code.
      runner_args: the runner's own options as given, report paths made absolute:
        what a notebook's kernel is started with (it runs in the notebook's folder).
      warm: run in a child of the warm template (``--warm`` or ``TF1MEM_WARM=1``,
        ``--no-warm`` wins; :mod:`tf1mem._warm`).
      warm_action: ``"status"`` or ``"stop"`` for ``--warm-status`` / ``--warm-stop``
        (then there is no script), else None.
      plain_argv: the command line without ``--warm`` / ``--no-warm``: what a warm
        child, or a cold run after a warm one was refused, is given.
    """

    script: Optional[str]
    module: Optional[str]
    args: Tuple[str, ...] = ()
    session: object = None
    force_config: bool = False
    placement_report: Optional[str] = None
    seed: Optional[int] = None
    allow_remote: bool = False
    numpy_compat: bool = True
    python_compat: bool = True
    stack_compat: bool = True
    memory_report: Optional[str] = None
    oom_tensors: bool = False
    cpus: Optional[Tuple[int, ...]] = None
    tf1_packages: Tuple[Tuple[str, str], ...] = ()
    known_tf1_packages: bool = True
    verbose: bool = False
    runner_args: Tuple[str, ...] = ()
    warm: bool = False
    warm_action: Optional[str] = None
    plain_argv: Tuple[str, ...] = ()

    @property
    def notebook(self):
        """Whether the target is a Jupyter notebook (``.ipynb``)."""
        return self.script is not None and self.script.lower().endswith(".ipynb")


# Options whose value is a path: absolute for a notebook's kernel (another folder).
_PATH_OPTIONS = ("--placement-report", "--memory-report")


def _absolute_paths(tokens):
    """The runner's own tokens with the values of :data:`_PATH_OPTIONS` made absolute."""
    out, i = [], 0
    while i < len(tokens):
        name, eq, value = tokens[i].partition("=")
        if name in _PATH_OPTIONS and eq:
            out.append(f"{name}={os.path.abspath(value)}")
        elif name in _PATH_OPTIONS and i + 1 < len(tokens):
            out += [tokens[i], os.path.abspath(tokens[i + 1])]
            i += 1
        else:
            out.append(tokens[i])
        i += 1
    return tuple(out)


def _parser():
    from tf1mem import config
    from tf1mem.distributed import loopback

    parser = argparse.ArgumentParser(
        prog="python -m tf1mem.run",
        usage="python -m tf1mem.run [OPTIONS] (SCRIPT | -m MODULE) [ARGS...]\n"
              "       python -m tf1mem.run [OPTIONS] NOTEBOOK.ipynb",
        description="Run a TensorFlow 1.x script unchanged on current TensorFlow. A "
                    "Jupyter notebook is executed in a kernel under the same options; "
                    "its executed copy is written beside it as NOTEBOOK.tf1mem.ipynb.",
        allow_abbrev=False,  # an abbreviation would move the split before SCRIPT
        epilog="Exit status: the script's own. The runner's usage errors exit 2.")
    parser.add_argument("-m", dest="module", metavar="MODULE",
                        help="run library module MODULE as a script, like python -m")
    loopback.add_allow_remote_flag(parser, "the script's tf.train.Servers")
    parser.add_argument("--force-config", action="store_true",
                        help="the session options beat the script's own ConfigProto values")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="as if the script began with tf.set_random_seed(N): fixes "
                             "random initialisers and the MNIST loader's batch order "
                             "(creates the default graph, so not for eager scripts)")
    parser.add_argument("--placement-report", metavar="FILE",
                        help="write each session run's node -> device table (.csv or .json)")
    parser.add_argument("--memory-report", metavar="FILE",
                        help="write each session.run label's peak memory per device and "
                             "its largest tensors, from traced runs (.json or .csv); a "
                             "one-line summary goes to stderr at exit")
    parser.add_argument("--oom-tensors", action="store_true",
                        help="on out of memory, list the largest tensors in use: every "
                             "session.run asks TensorFlow to track its allocations "
                             "(about 30%% slower per step of a small graph; implied by "
                             "--memory-report)")
    parser.add_argument("--no-numpy-compat", dest="numpy_compat", action="store_false",
                        help="give the script NumPy as installed: no np.float, np.int, "
                             "np.asscalar, np.reshape(newshape=) ... of NumPy 1.x")
    parser.add_argument("--no-python-compat", dest="python_compat", action="store_false",
                        help="give the script the standard library as installed: no "
                             "inspect.getargspec, time.clock, collections.Iterable ... of "
                             "Python 3.7")
    parser.add_argument("--no-stack-compat", dest="stack_compat", action="store_false",
                        help="give the script SciPy, Pillow and scikit-learn as installed: "
                             "no scipy.misc.imread/imresize, Image.ANTIALIAS, "
                             "sklearn.cross_validation ... of 2017")
    parser.add_argument("--cpus", metavar="LIST",
                        help="run the script, and what it starts, on these CPUs only, as "
                             "taskset -c LIST would (e.g. 0 or 0-3,6; env TF1MEM_CPUS): on a "
                             "small machine a TF1 loop's steps can be much faster on one core")
    parser.add_argument("--tf1-packages", metavar="LIST", action="append", default=[],
                        help="installed packages that are TF1 code too, comma-separated "
                             "(module or distribution names, e.g. stable_baselines,tflearn; "
                             "env TF1MEM_TF1_PACKAGES; tf1-packages in the project's "
                             "[tool.tf1mem]): they get TF1's tensorflow, as the script does")
    parser.add_argument("--no-known-tf1-packages", dest="known_tf1_packages",
                        action="store_false",
                        help="do not treat the TF1-era libraries tf1mem recognises "
                             "(stable-baselines 2, tflearn, dm-sonnet 1, tensornets, "
                             "tensorpack) as TF1 code unless named")
    parser.add_argument("--verbose", action="store_true",
                        help="say at start which installed packages are TF1 code, and "
                             "why a --warm run runs cold")
    warm = parser.add_argument_group(
        "warm runs", "a per-user template process that has imported TensorFlow forks "
                     "each run (docs/RUNNING.md, 'Warm runs')")
    warm.add_argument("--warm", action="store_true",
                      help="run the script in a child of the warm template, skipping "
                           "TensorFlow's start-up (env TF1MEM_WARM=1); it starts on first "
                           "use, and a run whose environment or installation differs from "
                           "the template's runs cold")
    warm.add_argument("--no-warm", action="store_true",
                      help="run cold even where TF1MEM_WARM=1")
    warm.add_argument("--warm-status", action="store_true",
                      help="say whether a warm template runs, and its state; run nothing")
    warm.add_argument("--warm-stop", action="store_true",
                      help="stop the warm template (after its running children); run "
                           "nothing")
    config.add_argparse_flags(parser)
    return parser


def _takes_value(parser, option):
    for action in parser._actions:  # argparse has no public lookup by option string
        if option in action.option_strings:
            return action.nargs != 0
    return False


def _split(parser, argv):
    """Splits argv into (runner options, target, script args) at SCRIPT or -m MODULE."""
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            return argv[:i], argv[i + 1:i + 2], argv[i + 2:]
        if token == "-m" or (token.startswith("-m") and not token.startswith("--")):
            module = token[2:] or (argv[i + 1] if i + 1 < len(argv) else None)
            rest = argv[i + 2:] if not token[2:] else argv[i + 1:]
            if module is None:
                return argv, [], []
            return argv[:i] + ["-m", module], [], rest
        if not token.startswith("-") or token == "-":
            return argv[:i], [token], argv[i + 1:]
        if "=" not in token and _takes_value(parser, token):
            i += 1
        i += 1
    return argv, [], []


def parse_args(argv):
    """Parses the runner's command line into :class:`RunOptions`.

    Raises:
      SystemExit(2): a bad option or no SCRIPT / -m MODULE.
    """
    from tf1mem import config

    from tf1mem import _warm

    argv = list(argv)
    parser = _parser()
    own, target, rest = _split(parser, argv)
    ns = parser.parse_args(own)
    if ns.warm_status or ns.warm_stop:
        if target or ns.module or ns.warm_status == ns.warm_stop:
            parser.error("--warm-status and --warm-stop are alone: give one of them, "
                         "without a SCRIPT or -m MODULE")
        return RunOptions(script=None, module=None, verbose=ns.verbose,
                          warm_action="status" if ns.warm_status else "stop")
    try:
        warm = (ns.warm or _warm.warm_requested(os.environ.get(_warm.WARM_ENV_VAR))) \
            and not ns.no_warm
        if warm:
            _warm.idle_seconds()
    except errors.UsageError as exc:
        parser.error(str(exc))
    plain = [t for t in own if t not in ("--warm", "--no-warm")]
    plain_argv = (*plain, "--", *target, *rest) if target else (*plain, *rest)
    if not target and not ns.module:
        parser.error("give a SCRIPT to run, or -m MODULE")
    if target and not os.path.exists(target[0]):
        parser.error(f"can't open file {target[0]!r}: no such file")
    if target and target[0].lower().endswith(".ipynb"):
        if rest:
            parser.error(f"{target[0]!r} is a notebook: it takes no arguments "
                         f"(got {' '.join(rest)!r})")
        folder = os.path.dirname(os.path.abspath(target[0]))
        if not os.access(folder, os.W_OK):
            parser.error(f"{target[0]!r}: its folder {folder!r} is not writable, and the "
                         f"executed copy is written beside the notebook; copy the notebook "
                         f"to a writable folder")
    if ns.placement_report:
        report = ns.placement_report
        if os.path.splitext(report)[1].lower() not in (".csv", ".json"):
            parser.error(f"--placement-report {report!r}: the file name must end "
                         f"in .csv or .json")
        folder = os.path.dirname(os.path.abspath(report))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            parser.error(f"--placement-report {report!r}: folder {folder!r} does not "
                         f"exist or is not writable; create it or choose another path")
    if ns.memory_report:
        from tf1mem.observe import run_memory

        try:
            run_memory.check_report_path(ns.memory_report)
        except errors.UsageError as exc:
            parser.error(str(exc))
    try:
        session = config.resolve_options(config.options_from_args(ns))
    except errors.ConfigError as exc:
        parser.error(str(exc))
    from tf1mem.config import affinity

    try:
        cpus = affinity.requested(ns.cpus)
    except errors.UsageError as exc:
        parser.error(str(exc))
    tf1_packages, known = _tf1_package_names(parser, ns, target[0] if target else None)
    return RunOptions(
        script=target[0] if target else None, module=ns.module, args=tuple(rest),
        session=None if session == config.SessionOptions() else session,
        force_config=ns.force_config, placement_report=ns.placement_report, seed=ns.seed,
        allow_remote=ns.allow_remote, numpy_compat=ns.numpy_compat,
        python_compat=ns.python_compat, stack_compat=ns.stack_compat,
        memory_report=ns.memory_report, oom_tensors=ns.oom_tensors, cpus=cpus,
        tf1_packages=tf1_packages, known_tf1_packages=known, verbose=ns.verbose,
        runner_args=_absolute_paths([t for t in own if t not in ("--warm", "--no-warm")]),
        warm=warm, plain_argv=tuple(plain_argv))


def _tf1_package_names(parser, ns, script):
    """``((name, source), ...)`` and whether recognised packages count, from the flags,
    ``TF1MEM_TF1_PACKAGES`` and the nearest ``[tool.tf1mem]`` above the script (``-m``:
    the current folder); a malformed config file is a usage error."""
    from tf1mem.compat.runtime import packages

    names = [(n, "--tf1-packages") for value in ns.tf1_packages
             for n in packages.split_names(value)]
    if any(not packages.split_names(value) for value in ns.tf1_packages):
        parser.error("--tf1-packages needs a comma-separated list of package names, "
                     "e.g. --tf1-packages stable_baselines,tflearn")
    names += [(n, packages.ENV_VAR)
              for n in packages.split_names(os.environ.get(packages.ENV_VAR, ""))]
    start = os.path.dirname(os.path.abspath(script)) if script else os.getcwd()
    try:
        project = packages.project_config(start)
    except errors.ShimError as exc:
        parser.error(str(exc))
    known = ns.known_tf1_packages
    if project is not None:
        names += [(n, project.path) for n in project.tf1_packages]
        if project.known_tf1_packages is False:
            known = False
    return tuple(names), known


def _keep_servers_on_loopback(opts, argv):
    """Restarts the runner under the loopback-bind shim, unless --allow-remote.

    Returns:
      None when servers may start (on loopback, or everywhere with
      ``--allow-remote``); else why they cannot be kept on loopback (no C compiler
      to build the shim), which makes the script's ``tf.train.Server`` fail closed
      while a script that starts no server runs as usual.
    """
    from tf1mem.distributed import loopback

    if opts.allow_remote:
        print(f"tf1mem.run: {loopback.REMOTE_WARNING}", file=sys.stderr, flush=True)
        return None
    try:
        loopback.reexec_with_loopback("tf1mem.run", argv)  # returns only if already on
    except errors.ClusterError as exc:
        return f"tf1mem.run will not start a gRPC server that listens on every interface: {exc}"
    return None


def _warm_command(opts):
    """``--warm-status`` / ``--warm-stop``: print the template's state, or stop it."""
    from tf1mem import _warm

    folder = _warm.warm_dir()
    # tf1mem.run's template, then the one of `memory sweep|fit --warm` (in its own
    # sub-folder) when it runs.
    memory_folder = _warm.command_folder(folder, "tf1mem.memory")
    try:
        if opts.warm_action == "status":
            print(_warm.format_status(_warm.status(), folder))
            memory = _warm.status(command="tf1mem.memory")
            if memory is not None:
                print(_warm.format_status(memory, memory_folder))
            return errors.EXIT_OK
        pid = _warm.stop()
        memory_pid = _warm.stop(command="tf1mem.memory")
    except _warm.Unavailable as exc:
        raise errors.UsageError(str(exc)) from None
    print(f"stopped the warm template (pid {pid}) in {folder}" if pid is not None
          else f"no warm template runs in {folder}")
    if memory_pid is not None:
        print(f"stopped the warm template (pid {memory_pid}) in {memory_folder}")
    return errors.EXIT_OK


def _run_warm(opts):
    """Runs the command in a child of the warm template; returns its exit code.

    Returns:
      None when the run must go cold (the reason is printed under ``--verbose``, or
      always for a safety refusal); else the child's exit code (a child's death by a
      signal is re-raised on this process, which then does not return).
    """
    from tf1mem import _warm
    from tf1mem.distributed import loopback

    always = False
    if opts.allow_remote:
        reason = ("--allow-remote runs cold: the template keeps its servers on "
                  "loopback")
    else:
        try:
            # What the cold run's re-exec would give: the template imports TensorFlow
            # under it, and a child sees it (the shim active, so no re-exec there).
            env = loopback.loopback_env()
        except errors.ClusterError as exc:
            reason = f"the loopback bind shim cannot be built: {exc}"
        else:
            try:
                code = _warm.run_warm("tf1mem.run", opts.plain_argv, env=env,
                                      forward_signals=True)
            except _warm.Unavailable as exc:
                reason, always = str(exc), exc.always
            else:
                return _warm.exit_as(code)
    if opts.verbose or always:
        print(f"tf1mem.run: --warm: running cold: {reason}", file=sys.stderr, flush=True)
    return None


def main(argv=None):
    """Runs the command. Returns 0, or raises SystemExit with the script's code.

    Args:
      argv: the runner's arguments; None means ``sys.argv[1:]``, a real command line,
        which may then be re-executed under the loopback-bind shim.
    """
    def body():
        from tf1mem.compat.runtime import script

        opts = parse_args(sys.argv[1:] if argv is None else argv)
        if opts.warm_action is not None:
            return _warm_command(opts)
        if opts.cpus is not None:
            from tf1mem.config import affinity

            affinity.pin(opts.cpus)  # before any re-exec: the new image keeps the pin
        if opts.notebook:
            if opts.warm and opts.verbose:
                print("tf1mem.run: --warm: running cold: a notebook runs in its own "
                      "Jupyter kernel", file=sys.stderr, flush=True)
            # The kernel is the runner's own: python -m tf1mem.run OPTIONS -m
            # ipykernel_launcher, which keeps servers on loopback itself.
            from tf1mem.compat.runtime import notebook

            # The kernel runs cold (nbclient manages it by its pid), also where
            # TF1MEM_WARM=1 would make it warm.
            return notebook.run_notebook(
                opts.script, [sys.executable, "-m", "tf1mem.run",
                              *(("--no-warm",) if opts.warm else ()), *opts.runner_args])
        forbid = None
        if argv is None:  # a real command line: safe to re-exec before TF is imported
            from tf1mem import _warm

            command_line = sys.argv[1:]
            if opts.warm and not _warm.in_warm_child():
                code = _run_warm(opts)
                if code is not None:
                    return code
                command_line = ["--no-warm", *opts.plain_argv]  # cold from here on
            forbid = _keep_servers_on_loopback(opts, command_line)
            from tf1mem.distributed import loopback

            # The script (and its children) get the user's PYTHONPATH, not ours.
            loopback.restore_user_pythonpath()
        try:
            script.run_script(opts, forbid_servers=forbid)
        except KeyboardInterrupt:
            # As python: the traceback is printed; the process then dies of SIGINT
            # (a shell shows 130), so whoever waits for it sees the interrupt.
            sys.stdout.flush()
            sys.stderr.flush()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        return errors.EXIT_OK

    return _cli.run_command("tf1mem.run", body)


def entry():
    """Console-script entry point (``tf1mem-run``)."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
