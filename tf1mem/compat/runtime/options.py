"""The options of one install, as a frozen record the runtime reads by name."""

import dataclasses
from typing import Any, Optional, Tuple

from tf1mem import errors

__all__ = ["IMPORT_HOOKS", "ShimOptions"]

IMPORT_HOOKS = ("builtins", "modules")


@dataclasses.dataclass(frozen=True)
class ShimOptions:
    """What :func:`tf1mem.compat.install` was asked for (its keyword arguments say each).

    Attributes:
      session_options: a :class:`tf1mem.config.SessionOptions`, or None.
      force_config: the options override what a script's own ConfigProto sets.
      placement_report: a path for the placement report, or None.
      forbid_servers: why no gRPC server may start in this process, or None.
      import_hook: ``"builtins"`` or ``"modules"`` (:data:`IMPORT_HOOKS`).
      allow_remote: servers may listen off loopback.
      numpy_compat: user code gets NumPy 1.x's removed names.
      memory_report: a path for the per-run memory report, or None.
      oom_tensors: every run asks for the live-tensor list on out-of-memory.
      python_compat: user code gets Python 3.7's removed standard-library names.
      stack_compat: user code gets the removed names of SciPy 1.1, Pillow 6 and
        scikit-learn 0.19 (the scientific stack of TF 1.x's time).
      tf1_packages: the installed packages that are TF1 code, as
        :class:`tf1mem.compat.runtime.packages.TF1Package` records (named by the
        caller, then recognised), each getting what user code gets.
    """

    session_options: Optional[Any] = None
    force_config: bool = False
    placement_report: Optional[str] = None
    forbid_servers: Optional[str] = None
    import_hook: str = "builtins"
    allow_remote: bool = False
    numpy_compat: bool = False
    memory_report: Optional[str] = None
    oom_tensors: bool = False
    python_compat: bool = False
    stack_compat: bool = False
    tf1_packages: Tuple[Any, ...] = ()

    def __post_init__(self):
        if self.import_hook not in IMPORT_HOOKS:
            raise errors.ShimError(
                f"import_hook must be one of {IMPORT_HOOKS}, got {self.import_hook!r}")

    def asks_for_something(self):
        """Whether these options change sessions or reports (a plain install does not)."""
        return (self.session_options is not None or self.force_config
                or self.placement_report is not None or self.forbid_servers is not None
                or bool(self.memory_report) or self.oom_tensors
                or any(p.source != "recognised" for p in self.tf1_packages))
