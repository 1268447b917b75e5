"""What a corpus case expects of a finished run, checked: shared by the legacy corpus
(``tests/corpus/test_legacy_corpus.py``) and the library corpus
(``tests/corpus/test_library_corpus.py``).

A case is a dict; ``tests/legacy_corpus/expected.py``'s docstring says what each key means.
"""

import re

__all__ = ["check", "error_report"]

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def error_report(stderr):
    at = stderr.rfind("Traceback (most recent call last):")
    return stderr if at < 0 else stderr[at:]


def check(case, proc):
    """Returns a list of what is wrong with the finished process ``proc``."""
    problems = []
    out, err = proc.stdout, proc.stderr
    if proc.returncode != case["exit_code"]:
        problems.append("exit code %r, expected %r" % (proc.returncode, case["exit_code"]))
    lines = out.splitlines()
    pos = 0
    for want in case.get("lines", []):
        try:
            pos = lines.index(want, pos) + 1
        except ValueError:
            where = "at all" if want not in lines else "in order"
            problems.append("stdout lacks line %r (%s)" % (want, where))
    for prefix, numbers, tol in case.get("numbers", []):
        line = next((l for l in lines if l.startswith(prefix)), None)
        if line is None:
            problems.append("stdout has no line starting %r" % prefix)
            continue
        got = [float(v) for v in _NUMBER.findall(line[len(prefix):])]
        if len(got) != len(numbers) or any(abs(g - w) > tol for g, w in zip(got, numbers)):
            problems.append("%r: got %s, expected %s (abs tol %g)" % (prefix, got, numbers, tol))
    for pattern in case.get("stdout_regex", []):
        if not re.search(pattern, out, re.MULTILINE):
            problems.append("stdout does not match %r" % pattern)
    for text in case.get("absent", []):
        if text in out:
            problems.append("stdout unexpectedly contains %r" % text)
    report = error_report(err)
    for pattern in case.get("error", []):
        if not re.search(pattern, report, re.MULTILINE):
            problems.append("error report does not match %r" % pattern)
    for pattern in case.get("stderr", []):
        if not re.search(pattern, err, re.MULTILINE):
            problems.append("stderr does not match %r" % pattern)
    for text in case.get("stderr_absent", []):
        if text in err:
            problems.append("stderr unexpectedly contains %r" % text)
    return problems
