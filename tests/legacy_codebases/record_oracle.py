"""Records what TF 1.15.5 did with each codebase here: run with the oracle's Python
(``/work/oracle/bin/python tests/legacy_codebases/record_oracle.py``), it writes each
codebase's ``oracle_tf115.json``. The tests read those files; they never run the oracle.

For the text CNN: ``train.py`` as is; ``eval.py`` as is (TF 1.15.5 stops at
``FLAGS._parse_flags()``: the exit code and the error's last line are recorded); then, to
record the accuracy TF 1.15.5 gave for the restored checkpoint, ``eval.py`` again with a
``_parse_flags`` supplied for this recording only (absl's known-flags parse: what tf1mem
gives; ``FLAGS.__flags`` is TF 1.15's Flag dict there, so its parameter lines differ).
"""

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

_PATCHED_EVAL = """\
import runpy, sys
from absl.flags import FlagValues
def _parse_flags(self, args=None):
    argv = sys.argv[1:] if args is None else list(args)
    return self([sys.argv[0]] + argv, known_only=True)[1:]
FlagValues._parse_flags = _parse_flags  # TF 1.15's FLAGS reads its names there
sys.argv[0] = "eval.py"
runpy.run_path("eval.py", run_name="__main__")
"""


def _run(args, cwd):
    proc = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)
    err = [line for line in proc.stderr.splitlines() if line.strip()]
    return {"args": args, "returncode": proc.returncode, "stdout": proc.stdout,
            "stderr_last_line": err[-1] if err else ""}


def record_text_cnn():
    import numpy
    import tensorflow as tf

    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "text_cnn")
        shutil.copytree(os.path.join(HERE, "text_cnn"), work,
                        ignore=shutil.ignore_patterns("oracle_tf115.json", "__pycache__"))
        train = _run(["train.py"], work)
        runs = os.path.join(work, "runs")
        checkpoint_dir = os.path.join(runs, os.listdir(runs)[0], "checkpoints")
        flags = [f"--checkpoint_dir={checkpoint_dir}", "--eval_train"]
        evaluate = _run(["eval.py", *flags], work)
        patched = _run(["-c", _PATCHED_EVAL, *flags], work)
        for record in (train, evaluate, patched):  # the temporary folder, as a placeholder
            record["stdout"] = record["stdout"].replace(runs, "<runs>")
            record["args"] = [a.replace(runs, "<runs>") for a in record["args"]]
    result = {
        "tensorflow": tf.__version__, "numpy": numpy.__version__,
        "python": platform.python_version(),
        "note": "TF 1.15.5's own runs, by tests/legacy_codebases/record_oracle.py",
        "train": train, "eval": evaluate, "eval_with_parse_flags_supplied": patched,
    }
    with open(os.path.join(HERE, "text_cnn", "oracle_tf115.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    record_text_cnn()
