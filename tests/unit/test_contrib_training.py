"""tf.contrib.training.bucket / bucket_by_sequence_length: the refusals that need no
TensorFlow (the corpus script ``contrib_bucket_by_sequence_length.py`` runs the queues
against TF 1.15.5).

The tests here: no TensorFlow in the test process; the rest:
tests/tf/test_contrib_training.py.
"""

import pytest

from tf1mem.compat import table
from tf1mem.compat.tf.contrib.training import bucket_ops as training


def test_bucketing_is_provided_not_removed():
    assert "training.bucket_by_sequence_length" not in table.REMOVED_SYMBOLS
    assert "training.bucket" not in table.REMOVED_SYMBOLS
    assert "bucket_by_sequence_length" in table.CONTRIB_MODULES["training"][1]


@pytest.mark.parametrize("kwargs, error, needle", [
    (dict(bucket_boundaries=[]), ValueError, "must not be empty"),
    (dict(bucket_boundaries=[5, 5]), ValueError, "saw: 5 before 5"),
    (dict(bucket_boundaries=[2.5]), TypeError, "must be ints; got 2.5"),
    (dict(bucket_boundaries=[2, 5], batch_size=[2, 2]), ValueError, "num_buckets elements"),
    (dict(bucket_boundaries=[2, 5], batch_size=0), ValueError, "positive int"),
    (dict(bucket_boundaries=[2, 5], tensors=("x",)), TypeError, "list or a dict"),
])
def test_bad_arguments_are_named(kwargs, error, needle):
    args = dict(input_length=3, tensors=["x"], batch_size=2)
    args.update(kwargs)
    with pytest.raises(error, match=needle):
        training.bucket_by_sequence_length(**args)


def test_bucket_capacities_must_match_the_buckets():
    with pytest.raises(ValueError, match=r"\[4, 4\].*num_buckets \(3\)"):
        training.bucket(["x"], 0, 2, 3, bucket_capacities=[4, 4])
