"""Executing a legacy notebook unchanged, in a real Jupyter kernel running under tf1mem.

:func:`run_notebook` is what ``python -m tf1mem.run [OPTIONS] notebook.ipynb`` does:
nbclient starts an IPython kernel (ipykernel) whose process is itself run by the
runner, ``python -m tf1mem.run [OPTIONS] -m ipykernel_launcher -f CONNECTION_FILE``,
so the runner's options (session options, ``--seed``, reports, the loopback-only
servers, ``--cpus``) hold in the kernel as in a script; before the first cell it
executes ``%load_ext tf1mem`` there, silently (no cell, no execution count), which
gives the cells the TF1 module and the legacy views
(:mod:`~tf1mem.compat.runtime.ipython`). The cells then run in order, in the
notebook's folder, as ``jupyter nbconvert --to notebook --execute`` runs them; what
they print to stdout and stderr is echoed as it comes. The executed copy is written
beside the notebook as ``NAME.tf1mem.ipynb`` (the input is never written). A cell that
raises stops the run as it stops nbconvert: the cell and its traceback on stderr, exit
status 1, no copy written (a cell tagged ``raises-exception`` may raise). Nothing here
imports nbclient, Jupyter or TensorFlow at import time.
"""

import os
import re
import sys

from tf1mem import errors

__all__ = ["KERNEL_STARTUP_S", "executed_path", "kernel_command", "run_notebook"]

KERNEL_STARTUP_S = 300  # a hang guard: the kernel's runner may build its bind shim first
_SETUP = "%load_ext tf1mem"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_INSTALL = "pip install 'tf1mem[notebook]' (nbclient and ipykernel)"


def executed_path(path):
    """Where the executed copy of ``path`` goes: ``NAME.tf1mem.ipynb`` beside it."""
    folder, name = os.path.split(os.path.abspath(path))
    stem = name[:-len(".ipynb")] if name.endswith(".ipynb") else name
    return os.path.join(folder, stem + ".tf1mem.ipynb")


def kernel_command(runner):
    """The kernel's command line: ``runner`` (a command that runs a module under
    tf1mem, e.g. ``[python, "-m", "tf1mem.run", "--seed", "1"]``) on ipykernel."""
    return [*runner, "-m", "ipykernel_launcher", "-f", "{connection_file}"]


def _imports():
    try:
        import ipykernel  # noqa: F401  (the kernel's own package, checked here first)
        import nbclient
        import nbformat
        from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
        from jupyter_client.manager import AsyncKernelManager
    except ImportError as exc:
        raise errors.UsageError(
            f"running a notebook needs Jupyter's nbclient and ipykernel, and {exc.name!r} "
            f"is not installed: {_INSTALL}") from None
    return nbclient, nbformat, KernelSpec, KernelSpecManager, AsyncKernelManager


def _read(nbformat, path):
    try:
        nb = nbformat.read(path, as_version=4)
    except (OSError, ValueError) as exc:  # JSON and nbformat's validation errors
        raise errors.UsageError(f"{path!r} is not a readable Jupyter notebook: {exc}") from None
    language = (nb.metadata.get("kernelspec", {}).get("language")
                or nb.metadata.get("language_info", {}).get("name") or "python")
    if language.lower() != "python":
        raise errors.UsageError(
            f"{path!r} is a {language} notebook: tf1mem.run runs Python notebooks only")
    return nb


def _client_class(nbclient, KernelSpec, KernelSpecManager, AsyncKernelManager, argv):

    class _OneSpec(KernelSpecManager):
        def get_kernel_spec(self, kernel_name):
            return KernelSpec(argv=argv, display_name="Python 3 (tf1mem)", language="python")

    class Client(nbclient.NotebookClient):
        """nbclient's client on tf1mem's kernel; echoes the cells' streams."""

        def create_kernel_manager(self):
            self.km = AsyncKernelManager(kernel_name="tf1mem",
                                         kernel_spec_manager=_OneSpec(), config=self.config)
            return self.km

        async def async_start_new_kernel_client(self):
            kc = await super().async_start_new_kernel_client()
            msg_id = kc.execute(_SETUP, silent=True, store_history=False)
            reply = await self.async_wait_for_reply(msg_id)
            content = (reply or {}).get("content", {})
            if content.get("status") != "ok":
                trace = _ANSI.sub("", "\n".join(content.get("traceback", [])))
                raise errors.ShimError(f"the kernel could not load tf1mem ({_SETUP}): "
                                       f"{content.get('ename')}: {content.get('evalue')}\n{trace}")
            return kc

        def output(self, outs, msg, display_id, cell_index):
            if msg["msg_type"] == "stream":
                stream = sys.stderr if msg["content"].get("name") == "stderr" else sys.stdout
                stream.write(msg["content"].get("text", ""))
                stream.flush()
            return super().output(outs, msg, display_id, cell_index)

    return Client


def run_notebook(path, runner):
    """Executes notebook ``path`` in a kernel run by ``runner``; returns the exit code.

    Args:
      path: the ``.ipynb`` file.
      runner: the command that runs a module under tf1mem with the user's options
        (see :func:`kernel_command`).

    Returns:
      0 with every cell run and the copy written (:func:`executed_path`); 1 when a
      cell raised (the cell and its traceback on stderr), or the kernel died or did
      not start.

    Raises:
      UsageError: nbclient / ipykernel missing, or not a Python notebook.
    """
    nbclient, nbformat, KernelSpec, KernelSpecManager, AsyncKernelManager = _imports()
    from nbclient.exceptions import CellExecutionError, DeadKernelError
    from tf1mem import _atomic

    nb = _read(nbformat, path)
    out = executed_path(path)
    client_class = _client_class(nbclient, KernelSpec, KernelSpecManager,
                                 AsyncKernelManager, kernel_command(runner))
    client = client_class(
        nb, timeout=None, startup_timeout=KERNEL_STARTUP_S, kernel_name="tf1mem",
        # TensorFlow's C++ log stays on this process's stderr, as it did in the Jupyter
        # of TF1's time, instead of being copied into the cells' outputs too.
        extra_arguments=["--HistoryManager.hist_file=:memory:",
                         "--IPKernelApp.capture_fd_output=False"],
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    clean = (lambda text: text) if sys.stderr.isatty() else (lambda text: _ANSI.sub("", text))
    try:
        client.execute()
    except CellExecutionError as exc:
        print(f"tf1mem.run: {path}: a cell raised; {out} not written.\n{clean(str(exc))}",
              file=sys.stderr, flush=True)
        return errors.EXIT_FAILURE
    except DeadKernelError as exc:
        print(f"tf1mem.run: {path}: the kernel died: {exc}; {out} not written.",
              file=sys.stderr, flush=True)
        return errors.EXIT_FAILURE
    except (RuntimeError, TimeoutError) as exc:  # nbclient's words for a kernel that never came up
        if client.km is None:  # cleaned up already: nbclient's exit hook would fail on it
            import atexit

            atexit.unregister(client._cleanup_kernel)
        print(f"tf1mem.run: {path}: the kernel did not start ({' '.join(runner)} -m "
              f"ipykernel_launcher): {exc}; its own error is above. {out} not written.",
              file=sys.stderr, flush=True)
        return errors.EXIT_FAILURE
    _atomic.write_text(out, nbformat.writes(nb))
    print(f"tf1mem.run: executed notebook written to {out}", file=sys.stderr, flush=True)
    return errors.EXIT_OK
