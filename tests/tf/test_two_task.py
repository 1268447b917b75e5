"""The article's example 2 (two in-process gRPC tasks) through ``tf1mem.train``.

The tests here: TensorFlow in the test process; the rest: tests/commands/test_two_task.py.
"""

import pytest

from tf1mem import config
from tf1mem.distributed import two_task


@pytest.mark.parametrize("options, growth, logged", [
    (None, False, True),
    (config.SessionOptions(allow_growth=True), True, True),
    (config.SessionOptions(log_device_placement=False), False, False),
])
def test_session_options_apply_over_the_articles_config(options, growth, logged):
    got = two_task._session_config(two_task.TwoTaskOptions(session_options=options))
    assert got.gpu_options.allow_growth is growth
    assert got.log_device_placement is logged
