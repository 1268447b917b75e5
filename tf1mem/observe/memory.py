"""The out-of-memory names ``tf1mem.compat`` reaches at their old address.

Not a module of its own concern: the wing's code lives in :mod:`~tf1mem.observe.oom`
(:func:`explain_oom`, :func:`describe_oom`) and :mod:`~tf1mem.observe.caps`
(:func:`device_memory_limit`). ``tf1mem.compat`` imports these three names from here
(its script runner preloads this module; its session hooks note and explain an
out-of-memory error with them), so this address re-exports exactly them and nothing
else. Everything else imports the wing's modules themselves.
"""

from tf1mem.observe.caps import device_memory_limit
from tf1mem.observe.oom import describe_oom, explain_oom

__all__ = ["describe_oom", "explain_oom", "device_memory_limit"]
