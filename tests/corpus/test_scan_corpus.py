"""The scanner's per-file verdict agrees with running each tests/legacy_corpus script.

``expected.py`` records what each script really does under ``python -m tf1mem.run``
(checked by tests/corpus/test_legacy_corpus.py on every run): a script that stops on a removed
API has an ``error`` expectation matching "removed". The scanner must say "will stop"
for exactly those, and "runs under tf1mem.run" for every other. A few scripts are run
for real here too, checking the line the scanner names against the traceback.
"""

import json
import re

import pytest

from tests._subproc import REPO, describe, run
from tests.corpus.test_legacy_corpus import CASES, CORPUS, SCRIPTS

pytestmark = pytest.mark.slow

_REMOVED_EXPECTATION = re.compile(r"removed", re.I)


@pytest.fixture(scope="module")
def verdicts():
    proc = run(["-m", "tf1mem.scan", "--json", *[str(CORPUS / s) for s in SCRIPTS]],
               timeout=300, check_rc=0)
    return {f["path"].rsplit("/", 1)[-1]: f for f in json.loads(proc.stdout)["files"]}


def _stops_on_removed_api(case):
    return any(_REMOVED_EXPECTATION.search(p) for p in case.get("error", []))


def test_every_corpus_script_has_a_case_and_a_verdict(verdicts):
    assert sorted(verdicts) == SCRIPTS
    assert set(SCRIPTS) <= set(CASES)


@pytest.mark.parametrize("name", SCRIPTS)
def test_verdict_matches_the_recorded_run(verdicts, name):
    case, entry = CASES[name], verdicts[name]
    if _stops_on_removed_api(case):
        assert case["exit_code"] == 1
        assert not entry["runs"], entry["verdict"]
        for pattern in case["error"]:  # the scanner's reason is the runner's error
            assert re.search(pattern, entry["verdict"]), (pattern, entry["verdict"])
    else:
        assert entry["runs"], entry["verdict"]


# Real runs: two that stop, one that catches the ImportError, one that runs.
@pytest.mark.parametrize("name", ["contrib_removed_kmeans.py", "contrib_import_removed.py",
                                  "estimator_linear_regressor.py",
                                  "contrib_import_fallback.py", "slim_model.py"])
def test_verdict_matches_a_real_run(verdicts, name, tmp_path):
    case, entry = CASES[name], verdicts[name]
    args = [a.replace("{tmpdir}", str(tmp_path)) for a in case["args"]]
    proc = run(["-m", "tf1mem.run", str(CORPUS / name), *args], cwd=REPO, timeout=180)
    if entry["runs"]:
        assert proc.returncode == 0, describe(proc)
        return
    assert proc.returncode == 1, describe(proc)
    frames = re.findall(r'File "([^"]+)", line (\d+)', proc.stderr)
    in_script = [int(line) for path, line in frames if path.endswith("/" + name)]
    assert in_script and in_script[-1] == entry["stop_line"], (entry["verdict"], proc.stderr)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.split(": ", 1)[1] in entry["verdict"], (last, entry["verdict"])
