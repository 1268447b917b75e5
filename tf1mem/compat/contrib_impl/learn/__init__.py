"""The parts of ``tf.contrib.learn`` that TF1 code kept using after its Estimators.

Owns: ``preprocessing`` (``VocabularyProcessor``, ``CategoricalVocabulary``,
``tokenizer``, ``TOKENIZER_RE``), ``datasets`` (``mnist`` is tf1mem's MNIST loader,
``load_dataset("mnist")``), ``ModeKeys`` (TF1's learn keys: ``"train"``, ``"eval"``,
``"infer"``) and ``RunConfig`` (tf1mem's ``tf.estimator.RunConfig``). Everything else
(``Estimator``, ``Experiment``, ``SKCompat``, the canned learn models, ``learn_runner``)
is named removed by :mod:`tf1mem.compat.contrib`, with a replacement. Values equal
TF 1.15.5's (corpus script ``contrib_learn.py``). Nothing here imports TensorFlow at
import time.
"""

from tf1mem.compat.contrib_impl.learn import datasets, preprocessing

__all__ = ["ModeKeys", "RunConfig", "datasets", "preprocessing", "symbols"]


class ModeKeys:
    """TF 1.15's ``tf.contrib.learn.ModeKeys`` (``INFER``, where tf.estimator says
    ``PREDICT``)."""

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"


def _run_config():
    from tf1mem.compat.estimator import RunConfig

    return RunConfig


def symbols():
    """The names tf.contrib.learn resolves to under tf1mem."""
    return {"ModeKeys": ModeKeys, "RunConfig": _run_config(), "datasets": datasets,
            "preprocessing": preprocessing}
