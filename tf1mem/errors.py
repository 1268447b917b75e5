"""tf1mem's exception hierarchy and the exit codes of its commands.

Every error tf1mem raises on purpose derives from :class:`Error`; each message names
the value, file or flag at fault and says what to do. Exit codes of all
``python -m tf1mem.*`` commands are defined here, in one place:

====  ===================================================================
code  meaning
====  ===================================================================
0     success
1     the job itself failed (an uncaught exception, a failed training run)
2     usage error: a bad flag or flag value (:class:`UsageError`)
3     data error: MNIST files missing, corrupt, or not fetchable
      (:class:`DataError` and :class:`FetchError`)
4     cluster error: a port in use, a peer that never came up, a task
      that kept dying (:class:`ClusterError`)
130   interrupted (Ctrl-C / SIGINT; SIGTERM is reported the same way)
====  ===================================================================

``python -m tf1mem.run SCRIPT`` is the exception: it exits with whatever SCRIPT
exits with, exactly as ``python SCRIPT`` would.
"""

__all__ = [
    "EXIT_OK",
    "EXIT_FAILURE",
    "EXIT_USAGE",
    "EXIT_DATA",
    "EXIT_CLUSTER",
    "EXIT_INTERRUPTED",
    "Error",
    "UsageError",
    "ConfigError",
    "DataError",
    "ChecksumError",
    "FetchError",
    "ShimError",
    "ClusterError",
    "TrainingError",
    "exit_code_for",
]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_DATA = 3
EXIT_CLUSTER = 4
EXIT_INTERRUPTED = 130


class Error(Exception):
    """Base class of every error tf1mem raises on purpose."""

    exit_code = EXIT_FAILURE


class UsageError(Error):
    """A command-line flag or its value is wrong."""

    exit_code = EXIT_USAGE


class ConfigError(Error, ValueError):
    """A session-config option has an invalid value (also a ValueError)."""

    exit_code = EXIT_USAGE


class DataError(Error):
    """A data file is missing, malformed or fails its checksum."""

    exit_code = EXIT_DATA


class ChecksumError(DataError):
    """A data file's decompressed payload does not have the expected sha256."""


class FetchError(DataError):
    """No source could provide a data file; the message lists each source tried."""


class ShimError(Error):
    """The TF1 compatibility layer cannot be installed or used as asked."""


class ClusterError(Error):
    """A distributed run could not start or keep running."""

    exit_code = EXIT_CLUSTER


class TrainingError(Error):
    """Training cannot go on: e.g. the loss became NaN or infinite (exit code 1)."""


def exit_code_for(exc: BaseException) -> int:
    """Returns the documented exit code for an exception raised by a command."""
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(exc, Error):
        return exc.exit_code
    return EXIT_FAILURE
