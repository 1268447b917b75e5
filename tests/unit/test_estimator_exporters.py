"""tf.estimator exporters (Latest/Final/BestExporter) and EvalSpec's check of them.

The fast tests check the arguments as TF 1.15 did (each error names the value at fault).
The slow one runs train_and_evaluate under the runner with exporters into
model_dir/export/<name>/<timestamp>, garbage-collected to exports_to_keep, and loads the
exports back with tf.compat.v1.saved_model.loader; the corpus script
estimator_exporters.py checks the same layout against what TF 1.15.5 wrote.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_estimator_exporters.py.
"""

import pytest

from tf1mem.compat.tf.estimator import exporter, training


def _receiver():
    raise AssertionError("not called by these tests")


def _input_fn():
    raise AssertionError("not called by these tests")


def test_eval_spec_takes_one_exporter_or_a_list():
    latest = exporter.LatestExporter("latest", _receiver)
    assert training.EvalSpec(_input_fn, exporters=latest).exporters == (latest,)
    final = exporter.FinalExporter("final", _receiver)
    assert training.EvalSpec(_input_fn, exporters=[latest, final]).exporters == (latest, final)
    assert training.EvalSpec(_input_fn).exporters == ()


@pytest.mark.parametrize("bad, error, words", [
    ("not an exporter", TypeError, ["found not an exporter", "It is a str"]),
    (42, TypeError, ["found 42", "It is a int"]),
    ([None], TypeError, ["Element 0 (None) is a NoneType"]),
])
def test_eval_spec_rejects_what_is_no_exporter(bad, error, words):
    with pytest.raises(error) as info:
        training.EvalSpec(_input_fn, exporters=bad)
    assert str(info.value).startswith("`exporters` must be an Exporter, an iterable of "
                                      "Exporter, or `None`")
    for word in words:
        assert word in str(info.value)


class _Named(exporter.Exporter):
    def __init__(self, name):
        self._name = name

    @property
    def name(self):
        return self._name

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        return None


def test_eval_spec_rejects_empty_non_string_and_repeated_names():
    with pytest.raises(ValueError, match=r"`exporters` must have unique names.*'a' is used "
                                         r"twice; all exporter names: \['a', 'b', 'a'\]"):
        training.EvalSpec(_input_fn, exporters=[_Named("a"), _Named("b"), _Named("a")])
    with pytest.raises(ValueError, match=r"cannot have a name that is `None` or empty.*"
                                         r"\['a', ''\]"):
        training.EvalSpec(_input_fn, exporters=[_Named("a"), _Named("")])
    with pytest.raises(ValueError, match=r"must have a string name.*int.*\(7\)"):
        training.EvalSpec(_input_fn, exporters=[_Named(7)])


def test_exporters_check_their_arguments():
    with pytest.raises(ValueError, match=r"LatestExporter: `exports_to_keep`.*got 0"):
        exporter.LatestExporter("x", _receiver, exports_to_keep=0)
    with pytest.raises(ValueError, match=r"BestExporter: `exports_to_keep`.*got -1"):
        exporter.BestExporter("x", _receiver, exports_to_keep=-1)
    with pytest.raises(ValueError, match=r"FinalExporter: serving_input_receiver_fn.*got "
                                         r"'nope'"):
        exporter.FinalExporter("x", "nope")
    with pytest.raises(ValueError, match=r"BestExporter: serving_input_receiver_fn.*None"):
        exporter.BestExporter()
    with pytest.raises(ValueError, match=r"LatestExporter: name must be a non-empty string"):
        exporter.LatestExporter("", _receiver)
    with pytest.raises(ValueError, match="`compare_fn` must not be None"):
        exporter.BestExporter("x", _receiver, compare_fn=None)
    with pytest.raises(ValueError, match=r"lacks \['current_eval_result'\]"):
        exporter.BestExporter("x", _receiver, compare_fn=lambda best_eval_result, b: True)
    with pytest.raises(ValueError, match="assets_extra must be a dict"):
        exporter.LatestExporter("x", _receiver, assets_extra=["a.txt"])
    assert exporter.LatestExporter("x", _receiver, exports_to_keep=None).name == "x"
    assert exporter.BestExporter(serving_input_receiver_fn=_receiver).name == "best_exporter"


def test_default_compare_fn_is_a_smaller_loss_and_needs_a_loss():
    assert exporter._loss_smaller({"loss": 2.0}, {"loss": 1.0})
    assert not exporter._loss_smaller({"loss": 1.0}, {"loss": 1.0})
    with pytest.raises(ValueError, match=r"current_eval_result cannot be empty or no loss.*"
                                         r"'auc'"):
        exporter._loss_smaller({"loss": 1.0}, {"auc": 0.5})
    with pytest.raises(ValueError, match="best_eval_result cannot be empty"):
        exporter._loss_smaller({}, {"loss": 1.0})


def test_garbage_collection_keeps_the_newest_timestamps_only(tmp_path):
    for name in ("100", "99", "1000", "temp-1001", "notes"):
        (tmp_path / name).mkdir()
    exporter._garbage_collect(str(tmp_path), 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["100", "1000", "notes", "temp-1001"]
    exporter._garbage_collect(str(tmp_path), None)
    assert len(list(tmp_path.iterdir())) == 4
