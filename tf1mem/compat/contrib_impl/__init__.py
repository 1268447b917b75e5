"""tf1mem's own code for ``tf.contrib`` APIs that TF 2 has no home for.

One module per contrib module (``hparams`` for ``tf.contrib.training.HParams``,
``summary`` and ``image`` for ``tf.contrib.summary`` / ``tf.contrib.image``,
``layers`` for ``optimize_loss`` / ``embed_sequence``, ``opt`` for the tf.contrib.opt
optimizers, ``learn`` for VocabularyProcessor / datasets / ModeKeys, ``losses`` and
``metrics`` for the contrib argument orders, ``data`` and ``cudnn_rnn`` for the few symbols they
lacked, ``factorization_estimators`` for tf.contrib.factorization's KMeansClustering and GMM
on tf1mem's tf.estimator). :mod:`tf1mem.compat.contrib`'s table says which names they serve; each
is checked against TF 1.15.5's output (the ``contrib_*.py`` scripts of
``tests/legacy_corpus``). Nothing here imports TensorFlow at import time.
"""
