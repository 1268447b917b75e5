"""Telling a Python 2 line from other errors, for the runner's one-line hint.

tf1mem runs Python 3 code; it does not translate Python 2 (``print "x"``,
``urllib.urlretrieve``, ``gen.next()``, ``xrange``, ``dict.iteritems()``,
``import cPickle`` ...). When a script stops on one of those, :func:`hint` gives the
line the runner prints after Python's own traceback: the file and line, what the
Python 3 spelling is, and ``2to3``. This module owns only that recognition; it
never changes how an error is raised or its exit status.
"""

import os
import re

__all__ = ["hint"]

_NAMES = {  # NameError: name -> Python 3
    "xrange": "range", "raw_input": "input", "unicode": "str", "unichr": "chr",
    "long": "int", "basestring": "str", "reduce": "functools.reduce",
    "execfile": "exec(open(f).read())", "file": "open", "cmp": "(a > b) - (a < b)",
}
_ATTRIBUTES = {  # (type or module in the message, attribute) -> Python 3
    ("generator", "next"): "next(gen)",
    ("dict", "iteritems"): "d.items()", ("dict", "itervalues"): "d.values()",
    ("dict", "iterkeys"): "d.keys()", ("dict", "has_key"): "key in d",
    ("str", "decode"): "bytes.decode / str as is",
    ("urllib", "urlretrieve"): "urllib.request.urlretrieve",
    ("urllib", "urlopen"): "urllib.request.urlopen",
    ("urllib", "urlencode"): "urllib.parse.urlencode",
    ("urllib", "quote"): "urllib.parse.quote", ("urllib", "unquote"): "urllib.parse.unquote",
    ("string", "letters"): "string.ascii_letters", ("string", "maketrans"): "str.maketrans",
    ("itertools", "izip"): "zip", ("itertools", "imap"): "map",
    ("sys", "maxint"): "sys.maxsize", ("os", "getcwdu"): "os.getcwd",
}
_MODULES = {  # ModuleNotFoundError: module -> Python 3
    "cPickle": "pickle", "urllib2": "urllib.request", "StringIO": "io.StringIO",
    "cStringIO": "io.StringIO", "Queue": "queue", "ConfigParser": "configparser",
    "httplib": "http.client", "HTMLParser": "html.parser", "Tkinter": "tkinter",
    "urlparse": "urllib.parse", "commands": "subprocess", "__builtin__": "builtins",
}
_ATTRIBUTE_MESSAGE = re.compile(
    r"^(?:module '([\w.]+)'|'(\w+)' object) has no attribute '(\w+)'")


def _where(exc, tb):
    """(file, line) of the failing line: the SyntaxError's, or the innermost frame's."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return exc.filename, exc.lineno
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return None, None
    return last.tb_frame.f_code.co_filename, last.tb_lineno


def _python3_spelling(exc):
    if isinstance(exc, SyntaxError):
        msg = exc.msg or ""
        if "Missing parentheses in call to 'print'" in msg:
            return "print(...)"
        if "Missing parentheses in call to 'exec'" in msg:
            return "exec(...)"
        if exc.text is not None and re.match(r"\s*except\s+[\w.]+\s*,\s*\w+\s*:", exc.text):
            return "except E as e:"
        if exc.text is not None and re.match(r"\s*raise\s+[\w.]+\s*,", exc.text):
            return "raise E(message)"
        return None
    if isinstance(exc, ModuleNotFoundError):
        top = (exc.name or "").split(".")[0]
        return _MODULES.get(top)
    if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError):
        return _NAMES.get(getattr(exc, "name", None) or "")
    if isinstance(exc, AttributeError) and exc.args:
        match = _ATTRIBUTE_MESSAGE.match(str(exc.args[0]))
        if match:
            owner = match.group(1) or match.group(2)
            return _ATTRIBUTES.get((owner, match.group(3)))
    return None


def hint(exc, tb=None):
    """The runner's hint for an exception that looks like Python 2 code, or None.

    Args:
      exc: the exception that ended the script.
      tb: its traceback (default: ``exc.__traceback__``).

    Returns:
      One line naming the file and line, the Python 3 spelling and ``2to3``;
      None when the error is not a known Python 2 idiom.
    """
    spelling = _python3_spelling(exc)
    if spelling is None:
        return None
    path, line = _where(exc, exc.__traceback__ if tb is None else tb)
    if path is None:
        return None
    shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    return (f"tf1mem.run: {shown}, line {line} is Python 2 code (Python 3: {spelling}). "
            f"tf1mem runs Python 3 code and does not translate Python 2: port the file, "
            f"e.g. with `2to3 -w {shown}`.")
