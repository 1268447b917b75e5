"""Whole TF1 codebases under ``python -m tf1mem.run``: a training script, then a second
script that restores its checkpoint (tests/legacy_codebases/, with TF 1.15.5's output)."""

import json
import re
import shutil
from pathlib import Path

import pytest

from tests import _subproc

HERE = Path(__file__).resolve().parents[1] / "legacy_codebases"
_STEP = re.compile(r": step (\d+), loss (\S+), acc (\S+)$", re.M)


def _copy(name, tmp_path):
    work = tmp_path / name
    shutil.copytree(HERE / name, work,
                    ignore=shutil.ignore_patterns("oracle_tf115.json", "__pycache__"))
    return work


@pytest.mark.slow
def test_text_cnn_trains_then_eval_restores_its_checkpoint(tmp_path):
    oracle = json.loads((HERE / "text_cnn" / "oracle_tf115.json").read_text())
    work = _copy("text_cnn", tmp_path)

    train = _subproc.run(["-m", "tf1mem.run", "train.py"], cwd=work, timeout=600, check_rc=0)
    # Every step's loss and accuracy, the dev evaluations included, as TF 1.15.5 printed
    # them (the graph is seeded with tf.set_random_seed; NumPy's shuffles with np.random.seed).
    ours, theirs = _STEP.findall(train.stdout), _STEP.findall(oracle["train"]["stdout"])
    assert len(ours) == len(theirs) == 30, _subproc.describe(train)
    for (step, loss, acc), (step_115, loss_115, acc_115) in zip(ours, theirs):
        assert step == step_115 and acc == acc_115, (step, acc, step_115, acc_115)
        assert float(loss) == pytest.approx(float(loss_115), rel=1e-4, abs=1e-5), step
    # The batch iterator's np.array(list(zip(x, y))) of unequal rows: NumPy 1.18's object array.
    assert train.stderr.count("tf1mem: np.array of ragged nested sequences") == 1, train.stderr

    runs = list((work / "runs").iterdir())
    assert len(runs) == 1
    checkpoint_dir = runs[0] / "checkpoints"
    assert sorted(p.name for p in checkpoint_dir.glob("model-*.index")) == [
        "model-18.index", "model-27.index", "model-9.index"]
    assert (runs[0] / "vocab").is_file()

    # TF 1.15.5 itself stopped eval.py at FLAGS._parse_flags() (TF <= 1.4's; recorded):
    assert oracle["eval"]["returncode"] == 1
    assert oracle["eval"]["stderr_last_line"] == "AttributeError: _parse_flags"
    evaluate = _subproc.run(["-m", "tf1mem.run", "eval.py", f"--checkpoint_dir={checkpoint_dir}",
                             "--eval_train"], cwd=work, timeout=600, check_rc=0)
    lines = evaluate.stdout.splitlines()
    start = lines.index("Parameters:")
    # TF 1.4's FLAGS.__flags after _parse_flags(): the values of the program's own flags.
    assert lines[start + 1:start + 9] == [
        "ALLOW_SOFT_PLACEMENT=True", "BATCH_SIZE=8", f"CHECKPOINT_DIR={checkpoint_dir}",
        "EVAL_TRAIN=True", "LOG_DEVICE_PLACEMENT=False",
        "NEGATIVE_DATA_FILE=./data/rt-polarity.neg",
        "POSITIVE_DATA_FILE=./data/rt-polarity.pos", ""], _subproc.describe(evaluate)
    # The restored weights classify the 240 sentences as TF 1.15.5's restore of its own
    # checkpoint did (recorded with _parse_flags supplied to TF 1.15.5).
    supplied = oracle["eval_with_parse_flags_supplied"]
    assert supplied["returncode"] == 0
    expected = [line for line in supplied["stdout"].splitlines()
                if line.startswith(("Restoring ", "Total number", "Accuracy:"))]
    assert expected == ["Restoring model-27", "Total number of test examples: 240",
                        "Accuracy: 0.920833"]
    assert [line for line in lines if line.startswith(("Restoring ", "Total number",
                                                       "Accuracy:"))] == expected
    predictions = (runs[0] / "prediction.csv").read_text().splitlines()
    assert len(predictions) == 240 and predictions[0].endswith((",1.0", ",0.0"))
    for note in ("FLAGS._parse_flags() is TF <= 1.4's", "FLAGS.__flags held the flags' values"):
        assert evaluate.stderr.count(note) == 1, evaluate.stderr
