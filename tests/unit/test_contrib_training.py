"""tf.contrib.training.bucket / bucket_by_sequence_length: the refusals that need no
TensorFlow (the corpus script ``contrib_bucket_by_sequence_length.py`` runs the queues
against TF 1.15.5)."""

import pytest

from tf1mem.compat import table
from tf1mem.compat.tf.contrib.training import bucket_ops as training


def test_bucketing_is_provided_not_removed():
    assert "training.bucket_by_sequence_length" not in table.REMOVED_SYMBOLS
    assert "training.bucket" not in table.REMOVED_SYMBOLS
    assert "bucket_by_sequence_length" in table.CONTRIB_MODULES["training"][1]


@pytest.mark.slow
def test_bucket_resolves_and_builds_a_cond_only_for_a_tensor_keep_input():
    # (imports TensorFlow: slow tier) the default keep_input=True enqueues every example
    # without a tf.cond in the graph; a tensor keep_input decides per example.
    from tf1mem._tf import v1

    from tf1mem.compat.tf.contrib import training as contrib_training

    assert contrib_training.bucket_by_sequence_length is training.bucket_by_sequence_length
    assert contrib_training.bucket is training.bucket
    tf = v1()

    def cond_ops(keep_input):
        graph = tf.Graph()
        with graph.as_default():
            training.bucket([tf.constant([1.0, 2.0])], 0, 2, 2, keep_input=keep_input())
        return [op.type for op in graph.get_operations()
                if op.type in ("Switch", "Merge", "If", "StatelessIf")]

    assert cond_ops(lambda: True) == []
    assert cond_ops(lambda: tf.constant(True)) != []


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
