"""TF 1.15's ``nest`` under tf1mem: ``tensorflow.python.util.nest``, ``tf.contrib.framework.nest``
and ``tf.nest`` give TF 1.15.5's results and errors on the edge cases of
``tests/nest_tf115/battery.py`` (recorded by the oracle in ``expected.json``), and the real
``tensorflow.python.util.nest`` that libraries see is never changed.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_tf1_nest.py, tests/tf/test_tf1_nest.py.
"""

from tests.commands.test_tf1_nest import EXPECTED


def test_the_oracle_recorded_the_battery():
    assert EXPECTED["tensorflow"] == "1.15.5" and EXPECTED["python"] == "3.7"
    assert len(EXPECTED["results"]) > 250
    # A few facts of TF 1.15.5 the comparison rests on (not all cases agree by chance).
    results = EXPECTED["results"]
    assert results["flatten/dict"] == {"list": [2, 1, 4, 3]}  # keys sorted, nested too
    assert results["flatten/ordered"] == {"list": [2, 1]}  # OrderedDict sorted as well
    assert results["flatten/range"] == {"list": [0, 1, 2]}  # a range is a sequence
    assert results["is_sequence/str"] is False and results["flatten/none"] == {"list": [None]}
    assert results["flatten/bad_keys"]["raises"] == "TypeError"
