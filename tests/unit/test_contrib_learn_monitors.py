"""tf.contrib.learn.monitors (tf1mem.compat.tf.contrib.learn.monitors); the corpus script
``contrib_learn_monitors.py`` compares a real fit's calls and early stopping with TF 1.15.5.

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_learn_monitors.py.
"""

import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat.tf.contrib.learn import monitors, preprocessing


class _Recorder(monitors.EveryN):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = []

    def every_n_step_begin(self, step):
        self.calls.append(("begin", step))
        return ["t:0"]

    def every_n_step_end(self, step, outputs):
        self.calls.append(("end", step, dict(outputs)))
        return step == 22

    def every_n_post_step(self, step, session):
        self.calls.append(("post", step))


def _drive(monitor, steps):
    """Runs the monitor protocol as fit does; returns the steps whose step_end said stop."""
    monitor.begin(max_steps=None)
    stops = []
    for step in steps:
        wanted = monitor.step_begin(step)
        if monitor.step_end(step, {name: step for name in wanted}):
            stops.append(step)
        monitor.post_step(step, session=None)
    monitor.end(session=None)
    return stops


def test_every_n_runs_on_the_first_steps_then_every_n_and_posts_the_last_at_end():
    recorder = _Recorder(every_n_steps=10, first_n_steps=2)
    assert _drive(recorder, range(1, 26)) == [22]
    active = [c[1] for c in recorder.calls if c[0] == "begin"]
    assert active == [1, 2, 12, 22]  # TF 1.15.5's, as the corpus script shows
    assert ("end", 12, {"t:0": 12}) in recorder.calls
    assert recorder.calls[-1] == ("post", 25)  # the last step was not active: end posts it
    recorder.calls.clear()
    _drive(recorder, range(26, 30))  # the last active step (22) is kept across fits
    assert [c for c in recorder.calls if c[0] == "begin"] == []
    assert recorder.calls == [("post", 29)]


def test_misuse_of_the_protocol_is_named():
    monitor = monitors.BaseMonitor()
    with pytest.raises(ValueError, match=r"step_begin\(3\) called without begin"):
        monitor.step_begin(3)
    monitor.begin()
    with pytest.raises(ValueError, match="begin called twice without end"):
        monitor.begin()
    monitor.step_begin(3)
    with pytest.raises(ValueError, match=r"step_begin\(4\) called while step 3"):
        monitor.step_begin(4)
    with pytest.raises(ValueError, match=r"step_end\(4\) does not match the step begun, 3"):
        monitor.step_end(4, {})
    with pytest.raises(ValueError, match="every_n_steps must be an integer >= 1, got 0"):
        monitors.EveryN(every_n_steps=0)


@pytest.mark.parametrize("kwargs, message", [
    ({}, "Either x or input_fn should be provided."),
    ({"x": [[1.0]], "input_fn": lambda: None}, "Can not provide both input_fn and x or y"),
    ({"x": [[1.0]], "early_stopping_rounds": 0},
     "early_stopping_rounds must be a positive integer or None, got 0"),
])
def test_validation_monitor_refuses_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        monitors.ValidationMonitor(**kwargs)


def test_tf1s_other_monitors_and_processors_name_their_replacement():
    with pytest.raises(compat_errors.RemovedAttributeError,
                       match=r"tf.contrib.learn.monitors.PrintTensor was removed.*Use instead: "
                             r"tf.compat.v1.train.LoggingTensorHook"):
        monitors.PrintTensor
    with pytest.raises(compat_errors.RemovedAttributeError, match=r"StringLookup"):
        preprocessing.CategoricalProcessor
    with pytest.raises(AttributeError, match="has no attribute 'Nonesuch'"):
        monitors.Nonesuch
