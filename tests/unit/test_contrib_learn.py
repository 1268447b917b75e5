"""tf.contrib.learn (tf1mem's VocabularyProcessor, datasets, ModeKeys, RunConfig, Experiment,
learn_runner). Their outputs against TF 1.15.5 are the corpus scripts contrib_learn.py and
contrib_learn_experiment.py; these tests check the edges: bad input, the removed names and
their replacements, the TF1 import paths, learn_runner's schedule choice and errors (TF
1.15.5's, measured on the oracle), and how far each Experiment schedule trains.

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_learn.py, tests/commands/test_contrib_learn.py.
"""

import numpy as np
import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat.runtime import composite
from tf1mem.compat.tf.contrib.learn import (datasets, experiment, export_strategy,
                                            learn_runner, preprocessing)
from tf1mem.compat.tf.contrib.learn.run_config import RunConfig
from tf1mem.compat.tf.estimator import RunConfig as CoreRunConfig


def _module():
    return composite.make_composite("tensorflow.contrib.learn", "learn")


def test_removed_learn_names_say_what_replaces_them():
    learn = _module()
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"numeric_column"):
        learn.infer_real_valued_columns_from_input_fn
    assert learn.monitors.ValidationMonitor.__name__ == "ValidationMonitor"
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"LoggingTensorHook"):
        learn.monitors.PrintTensor
    assert learn.make_export_strategy is export_strategy.make_export_strategy
    assert learn.ModeKeys.INFER == "infer"
    assert learn.Experiment is experiment.Experiment
    assert learn.learn_runner is learn_runner
    assert learn.RunConfig is RunConfig and issubclass(RunConfig, CoreRunConfig)


def test_load_dataset_other_than_mnist_is_a_clear_error():
    with pytest.raises(datasets.UnknownDatasetError, match=r"load_dataset\('iris'\).*sklearn"):
        datasets.load_dataset("iris")


def test_vocabulary_processor_checks_and_trims():
    with pytest.raises(ValueError, match="max_document_length must be a positive int; got 0"):
        preprocessing.VocabularyProcessor(0)
    vp = preprocessing.VocabularyProcessor(3, min_frequency=1)
    ids = np.array(list(vp.fit_transform(["b a a", "b c a"])))
    # a (3 times) then b (2); c (once) is unknown: most frequent first after trimming.
    assert ids.tolist() == [[2, 1, 1], [2, 0, 1]]
    vocab = preprocessing.CategoricalVocabulary(support_reverse=False)
    with pytest.raises(ValueError, match="support_reverse=True"):
        vocab.reverse(0)


# -- learn_runner: experiment_fn forms and errors ------------------------------------


def test_make_export_strategy_checks_and_passes_what_export_fn_takes():
    with pytest.raises(ValueError, match=r"serving_input_fn must be a function.*got 3"):
        export_strategy.make_export_strategy(3)
    with pytest.raises(ValueError, match=r"exports_to_keep.*got 0"):
        export_strategy.make_export_strategy(lambda: None, exports_to_keep=0)
    seen = []

    def export_fn(estimator, export_dir_base, checkpoint_path, eval_result):
        seen.append((estimator, export_dir_base, checkpoint_path, eval_result))
        return b"path"

    strategy = export_strategy.ExportStrategy("mine", export_fn)
    assert strategy.export("est", "base", "ckpt", {"loss": 1.0}) == b"path"
    assert seen == [("est", "base", "ckpt", {"loss": 1.0})]
    keyed = export_strategy.make_export_strategy(lambda: None,
                                                 default_output_alternative_key="k")
    with pytest.raises(ValueError, match=r"default_output_alternative_key is not supported "
                                         r"in core Estimator. Given: k"):
        keyed.export(None, "base")


# -- the schedules, trained (subprocess under the shim) ------------------------------


def test_learn_io_input_fns_shuffle_by_default_as_tf1s_contrib(monkeypatch):
    from tf1mem.compat.tf.contrib.learn import io
    from tf1mem.compat.tf.estimator import inputs

    seen = {}
    monkeypatch.setattr(inputs, "numpy_input_fn", lambda **kw: seen.setdefault("np", kw))
    monkeypatch.setattr(inputs, "pandas_input_fn", lambda **kw: seen.setdefault("pd", kw))
    io.numpy_input_fn({"x": np.ones(3)}, np.ones(3), 4, num_epochs=7)
    io.pandas_input_fn("frame", shuffle=False, target_column="y")
    assert seen["np"]["shuffle"] is True and seen["np"]["batch_size"] == 4 \
        and seen["np"]["num_epochs"] == 7
    assert seen["pd"]["shuffle"] is False and seen["pd"]["target_column"] == "y"
    with pytest.raises(compat_errors.RemovedAttributeError, match="make_batched_features_dataset"):
        io.read_batch_features  # noqa: B018
