"""tf.contrib.learn.monitors (tf1mem.compat.tf.contrib.learn.monitors); the corpus script
``contrib_learn_monitors.py`` compares a real fit's calls and early stopping with TF 1.15.5.

The tests here: TensorFlow in the test process; the rest:
tests/unit/test_contrib_learn_monitors.py.
"""

import pytest

from tests.unit.test_contrib_learn_monitors import _drive
from tf1mem.compat.tf.contrib.learn import monitors


def test_validation_monitor_needs_its_estimator():
    monitor = monitors.ValidationMonitor(x=[[1.0]], y=[1], every_n_steps=1,
                                         check_interval_secs=0)
    with pytest.raises(ValueError, match="has no estimator"):
        _drive(monitor, [1])


@pytest.mark.slow
def test_monitors_become_one_adapter_hook_after_the_hooks():
    import tensorflow as tf

    hook = tf.compat.v1.train.StepCounterHook()
    first, second = monitors.BaseMonitor(), monitors.EveryN()
    estimator = object()
    hooks = monitors.replace_monitors_with_hooks([first, hook, second], estimator)
    assert hooks[0] is hook and len(hooks) == 2
    assert isinstance(hooks[1], tf.compat.v1.train.SessionRunHook)
    assert first._estimator is estimator and second._estimator is estimator
    assert monitors.replace_monitors_with_hooks(None, estimator) == []
    with pytest.raises(ValueError, match=r"BaseMonitor\) or tf.train.SessionRunHook "
                                         r"instances, got 'not a hook'"):
        monitors.replace_monitors_with_hooks(["not a hook"], estimator)
