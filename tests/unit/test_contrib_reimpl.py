"""tf1mem's re-implementations of tf.contrib.eager, crf, factorization.KMeans, seq2seq.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_contrib_reimpl.py.
"""

import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat import table
from tf1mem.compat.tf.contrib.factorization import kmeans as contrib_factorization


REIMPLEMENTED = ("eager", "crf", "factorization", "seq2seq", "legacy_seq2seq")


def test_reimplemented_modules_are_mapped_not_removed():
    for name in REIMPLEMENTED:
        assert name in table.CONTRIB_MODULES, name
        assert name not in table.REMOVED_CONTRIB, name


@pytest.mark.parametrize("kwargs, needle", [
    (dict(num_clusters=0), "num_clusters must be a positive int"),
    (dict(num_clusters=2, distance_metric="manhattan"), "distance_metric"),
    (dict(num_clusters=2, initial_clusters="kmc3"), "initial_clusters"),
    (dict(num_clusters=2, initial_clusters="kmc2"), "use 'kmeans_plus_plus'"),
    (dict(num_clusters=2, use_mini_batch=True, mini_batch_steps_per_iteration=3),
     "mini_batch_steps_per_iteration=3"),
])
def test_kmeans_rejects_unsupported_options_clearly(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        contrib_factorization.KMeans(inputs=object(), **kwargs)


def test_metric_learning_names_what_it_does_not_provide():
    from tf1mem.compat.tf.contrib.losses import loss_ops as losses, metric_learning

    assert losses.metric_learning is metric_learning
    assert "losses.metric_learning" not in table.REMOVED_SYMBOLS
    with pytest.raises(compat_errors.RemovedAttributeError, match="tensorflow_addons.losses"):
        metric_learning.lifted_struct_loss  # noqa: B018
    with pytest.raises(AttributeError):
        metric_learning.no_such_loss  # noqa: B018
