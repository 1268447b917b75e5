"""``tf.contrib.training``: ``HParams`` and the queue-based length bucketing.

``hparams.py`` (``HParams``, TF 1.15's parsing and types) and ``bucket_ops.py``
(``bucket``, ``bucket_by_sequence_length`` on TF's v1 queues); tf1mem's table serves
``create_train_op`` and its friends from tf-slim.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'HParams': '.hparams',
    'bucket': '.bucket_ops',
    'bucket_by_sequence_length': '.bucket_ops',
    'checkpoints_iterator': 'tensorflow:compat.v1.train.checkpoints_iterator',
})
