"""tf.contrib.training.bucket / bucket_by_sequence_length: the refusals that need no
TensorFlow (the corpus script ``contrib_bucket_by_sequence_length.py`` runs the queues
against TF 1.15.5).

The tests here: TensorFlow in the test process; the rest:
tests/unit/test_contrib_training.py.
"""

import pytest

from tf1mem.compat.tf.contrib.training import bucket_ops as training


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
