"""tf1mem's own code for ``tf.contrib`` APIs that TF 2 has no home for.

One module per contrib module (``hparams`` for ``tf.contrib.training.HParams``,
``layers`` for ``optimize_loss`` / ``embed_sequence``, ``losses`` and ``metrics`` for
the contrib argument orders, ``data`` and ``cudnn_rnn`` for the few symbols they
lacked). :mod:`tf1mem.compat.contrib`'s table says which names they serve; each
is checked against TF 1.15.5's output (``tests/test_contrib_impl.py`` and the
``contrib_*.py`` corpus scripts). Nothing here imports TensorFlow at import time.
"""
