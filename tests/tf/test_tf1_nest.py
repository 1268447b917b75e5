"""TF 1.15's ``nest`` under tf1mem: ``tensorflow.python.util.nest``, ``tf.contrib.framework.nest``
and ``tf.nest`` give TF 1.15.5's results and errors on the edge cases of
``tests/nest_tf115/battery.py`` (recorded by the oracle in ``expected.json``), and the real
``tensorflow.python.util.nest`` that libraries see is never changed.

The tests here: TensorFlow in the test process; the rest: tests/commands/test_tf1_nest.py,
tests/unit/test_tf1_nest.py.
"""

import importlib.util
import json

from tests.commands.test_tf1_nest import EXPECTED, FIXTURE, _differences


def _battery():
    spec = importlib.util.spec_from_file_location("battery", FIXTURE / "battery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tf1mem_nest_gives_tf115_results_on_every_case():
    import tensorflow as tf

    from tf1mem.compat.tf.python.util import nest

    got = json.loads(json.dumps(_battery().run(nest, tf)))
    problems = _differences(got, EXPECTED["results"])
    assert not problems, "\n".join(problems)
    # TF 1.15.5's whole public nest, nothing more
    assert sorted(n for n in dir(nest) if not n.startswith("_")) == sorted(nest.__all__) \
        == EXPECTED["public"]
