"""tf.contrib.learn (tf1mem's VocabularyProcessor, datasets, ModeKeys, RunConfig, Experiment,
learn_runner). Their outputs against TF 1.15.5 are the corpus scripts contrib_learn.py and
contrib_learn_experiment.py; these tests check the edges: bad input, the removed names and
their replacements, the TF1 import paths, learn_runner's schedule choice and errors (TF
1.15.5's, measured on the oracle), and how far each Experiment schedule trains.

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_contrib_learn.py, tests/unit/test_contrib_learn.py.
"""

import json

import numpy as np
import pytest

from tf1mem.compat.tf.contrib.learn import experiment, export_strategy, learn_runner
from tf1mem.compat.tf.contrib.learn.run_config import RunConfig
from tf1mem.compat.tf.estimator import Estimator
from tf1mem.compat.tf.estimator import RunConfig as CoreRunConfig


# -- RunConfig (contrib) --------------------------------------------------------------

def test_contrib_run_config_is_tf115s(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = RunConfig()
    # TF 1.15.5: no task type without TF_CONFIG (core says "worker"), 600 s checkpoints.
    assert (config.task_type, config.task_id, config.is_chief, config.environment) == (
        None, 0, True, "local")
    assert (config.save_checkpoints_secs, config.save_checkpoints_steps) == (600, None)
    assert (config.num_ps_replicas, config.num_worker_replicas, config.master) == (0, 0, "")
    stepped = RunConfig(model_dir="m", save_checkpoints_steps=50)
    assert (stepped.model_dir, stepped.save_checkpoints_secs,
            stepped.save_checkpoints_steps) == ("m", None, 50)
    replaced = stepped.replace(save_checkpoints_steps=7)
    assert isinstance(replaced, RunConfig) and replaced.save_checkpoints_steps == 7
    assert replaced.model_dir == "m" and replaced.task_type is None
    tuned = RunConfig(num_cores=2, log_device_placement=True, gpu_memory_fraction=0.5)
    session = tuned.session_config
    assert (session.intra_op_parallelism_threads, session.inter_op_parallelism_threads,
            session.log_device_placement) == (2, 2, True)
    assert session.gpu_options.per_process_gpu_memory_fraction == 0.5
    assert RunConfig(master="grpc://x:1").master == "grpc://x:1"


# -- learn_runner: the default schedule ----------------------------------------------

@pytest.mark.parametrize("tf_config, schedule", [
    (None, "train_and_evaluate"),
    ({"task": {"type": "worker", "index": 0}}, "train_and_evaluate"),
    ({"task": {"type": "ps", "index": 0}}, "train_and_evaluate"),
    ({"cluster": {"worker": ["localhost:2"]}, "task": {"type": "worker", "index": 0}},
     "train_and_evaluate"),
    ({"cluster": {"ps": ["localhost:1"], "worker": ["localhost:2"]},
      "task": {"type": "worker", "index": 0}}, "train"),
    ({"cluster": {"ps": ["localhost:1"], "worker": ["localhost:2"],
                  "master": ["localhost:3"]}, "task": {"type": "master", "index": 0}},
     "train_and_evaluate"),
    ({"cluster": {"ps": ["localhost:1"], "worker": ["localhost:2"],
                  "master": ["localhost:3"]}, "task": {"type": "ps", "index": 0}},
     "run_std_server"),
])
def test_default_schedule_follows_the_task_type(monkeypatch, tf_config, schedule):
    # The TF 1.15.5 oracle chose these for the same TF_CONFIGs.
    if tf_config is None:
        monkeypatch.delenv("TF_CONFIG", raising=False)
    else:
        monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    assert learn_runner._default_schedule(RunConfig()) == schedule


@pytest.mark.parametrize("tf_config, message", [
    ({"cluster": {"ps": ["localhost:1"], "worker": ["localhost:2"]}},
     r"Must specify a schedule"),
    ({"cluster": {"ps": ["localhost:1"], "foo": ["localhost:2"]},
      "task": {"type": "foo", "index": 0}}, r"No default schedule for task type: foo"),
])
def test_no_default_schedule_is_tf115s_error(monkeypatch, tf_config, message):
    monkeypatch.setenv("TF_CONFIG", json.dumps(tf_config))
    with pytest.raises(ValueError, match=message):
        learn_runner._default_schedule(RunConfig())


# -- learn_runner: experiment_fn forms and errors ------------------------------------

def _model_fn(features, labels, mode):
    raise AssertionError("these tests never build the model")


class _Recording(experiment.Experiment):
    """An Experiment with one more schedule, which records that it ran."""

    def record(self):
        return ("record", self.estimator.model_dir)


@pytest.fixture()
def calls(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    return []


def _experiment_fn(calls, cls=_Recording):
    def experiment_fn(run_config, hparams):
        calls.append((type(run_config).__name__, run_config.model_dir, hparams))
        return cls(Estimator(_model_fn, config=run_config), lambda: None, lambda: None)
    return experiment_fn


def test_run_calls_experiment_fn_with_run_config_and_hparams(tmp_path, calls):
    from tf1mem.compat.tf.contrib.training.hparams import HParams

    hparams = HParams(learning_rate=0.1)
    config = RunConfig(model_dir=str(tmp_path))
    result = learn_runner.run(_experiment_fn(calls), run_config=config, schedule="record",
                              hparams=hparams)
    assert result == ("record", str(tmp_path))
    assert calls == [("RunConfig", str(tmp_path), hparams)]


def test_run_calls_the_old_experiment_fn_with_output_dir(tmp_path, calls):
    def old_experiment_fn(output_dir):
        calls.append(output_dir)
        return _Recording(Estimator(_model_fn, model_dir=output_dir), lambda: None,
                          lambda: None)

    assert learn_runner.run(old_experiment_fn, output_dir=str(tmp_path),
                            schedule="record") == ("record", str(tmp_path))
    assert calls == [str(tmp_path)]


@pytest.mark.parametrize("schedule, error, message", [
    ("trian", ValueError, r"Schedule references non-existent task trian.*'train'"),
    ("_call_train", ValueError, r"non-existent task _call_train"),
    ("estimator", TypeError, r"Schedule references non-callable member estimator"),
    ("train_steps", TypeError, r"non-callable member train_steps"),
    (3, TypeError, r"schedule must be the name of an Experiment method.*got 3"),
])
def test_bad_schedule_errors_name_the_value(tmp_path, calls, schedule, error, message):
    with pytest.raises(error, match=message):
        learn_runner.run(_experiment_fn(calls), run_config=RunConfig(model_dir=str(tmp_path)),
                         schedule=schedule)


def test_run_argument_errors_are_tf115s(tmp_path, calls):
    config = RunConfig(model_dir=str(tmp_path))
    fn = _experiment_fn(calls)
    with pytest.raises(TypeError, match=r'Experiment builder "5" is not callable'):
        learn_runner.run(5, run_config=config)
    with pytest.raises(ValueError, match=r"Cannot provide both `output_dir` and `run_config`"):
        learn_runner.run(fn, output_dir=str(tmp_path), run_config=config)
    with pytest.raises(ValueError, match=r"Must set value for `output_dir` or `run_config`"):
        learn_runner.run(fn)
    with pytest.raises(ValueError, match=r"Must set `hparams` as None.*\{'a': 1\}"):
        learn_runner.run(fn, output_dir=str(tmp_path), hparams={"a": 1})
    with pytest.raises(ValueError, match=r"`hparams` must be `HParams` instance"):
        learn_runner.run(fn, run_config=config, hparams={"a": 1})
    with pytest.raises(ValueError, match=r"must be `tf.contrib.learn.RunConfig` instance"):
        learn_runner.run(fn, run_config=CoreRunConfig(model_dir=str(tmp_path)))
    with pytest.raises(ValueError, match=r"Must specify a model directory `model_dir`"):
        learn_runner.run(fn, run_config=RunConfig())
    with pytest.raises(TypeError, match=r"did not return an Experiment instance, got "
                                        r"<class 'int'>"):
        learn_runner.run(lambda run_config, hparams: 5, run_config=config)
    assert calls == []


def test_experiment_checks_its_arguments(tmp_path):
    estimator = Estimator(_model_fn, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"`estimator` must implement.*got 5"):
        experiment.Experiment(5, None, None)
    with pytest.raises(ValueError, match=r"`eval_metrics` must be `None`"):
        experiment.Experiment(estimator, None, None, eval_metrics={"a": 1})
    strategy = export_strategy.make_export_strategy(lambda: None, exports_to_keep=1)
    # TF 1.15.5's text, naming the first value that is no ExportStrategy.
    with pytest.raises(ValueError, match=r"`export_strategies` must be an ExportStrategy, an "
                                         r"iterable of ExportStrategy, or `None`, found 5\."):
        experiment.Experiment(estimator, None, None, export_strategies=[strategy, 5])
    exp = experiment.Experiment(estimator, None, None, train_steps=7,
                                export_strategies=strategy)
    assert (exp.estimator, exp.train_steps, exp.eval_steps, exp.eval_metrics) == (
        estimator, 7, 100, None)
    assert exp._min_eval_frequency == 1
    assert strategy.name == "Servo"
    assert exp.reset_export_strategies() == (strategy,)
    assert exp.reset_export_strategies() == ()


# -- the schedules, trained (subprocess under the shim) ------------------------------


def _csv(tmp_path, text):
    path = tmp_path / "data.csv"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("text, needle", [
    ("5,2,a,b\n1.0,2.0,0\n", r"header says 5 samples but 1 rows follow.*zeros"),
    ("2,2\n1.0,2.0,0\n1.0,0\n", r"line 3: 1 features where the header says 2"),
    ("1,2\n1.0,x,0\n", r"line 2: .*'x'"),
    ("n,f\n1.0,2.0,0\n", r"line 1: the header must start with the number of samples"),
    ("", r"is empty"),
])
def test_csv_reader_refuses_what_tf1_filled_with_zeros(tmp_path, text, needle):
    # TF 1.15 left rows the header announced but the file lacked as zeros, and trained on
    # them; tf1mem names the file and the line instead.
    from tf1mem.compat.tf.contrib.learn import datasets_base

    with pytest.raises(datasets_base.CsvDataError, match=needle):
        datasets_base.load_csv_with_header(_csv(tmp_path, text), int, np.float32)


def test_csv_reader_values_and_removed_loaders(tmp_path):
    from tf1mem.compat import errors as compat_errors
    from tf1mem.compat.runtime import composite
    from tf1mem.compat.tf.contrib.learn import datasets, datasets_base

    got = datasets.base.load_csv_with_header(
        _csv(tmp_path, "2,2,a,b\n1.5,2.0,1\n3.0,4.5,0\n"), np.int64, np.float32)
    assert got.data.tolist() == [[1.5, 2.0], [3.0, 4.5]] and got.target.tolist() == [1, 0]
    plain = datasets_base.load_csv_without_header(_csv(tmp_path, "1,2,0\n3,4,1\n"), int,
                                                  np.float64, target_column=0)
    assert plain.target.tolist() == [1, 3] and plain.data.tolist() == [[2, 0], [4, 1]]
    with pytest.raises(datasets_base.CsvDataError, match="line 2: 1 features where line 1"):
        datasets_base.load_csv_without_header(_csv(tmp_path, "1,2,0\n3,1\n"), int, float)
    with pytest.raises(compat_errors.RemovedAttributeError, match="sklearn.datasets.load_iris"):
        datasets_base.load_iris  # noqa: B018
