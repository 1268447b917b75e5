"""tf.contrib.learn (tf1mem's VocabularyProcessor, datasets, ModeKeys, RunConfig). Their
outputs against TF 1.15.5 are the corpus script contrib_learn.py; these tests check the
edges: bad input, the removed names and their replacements, the TF1 import paths."""

import numpy as np
import pytest

from tests import _subproc
from tf1mem.compat import contrib
from tf1mem.compat.contrib_impl.learn import datasets, preprocessing


def _module():
    return contrib.make_composite("tensorflow.contrib.learn", "learn")


def test_removed_learn_names_say_what_replaces_them():
    learn = _module()
    with pytest.raises(contrib.RemovedAttributeError, match=r"train_and_evaluate"):
        learn.Experiment
    with pytest.raises(contrib.RemovedAttributeError, match=r"EstimatorSpec"):
        learn.Estimator
    with pytest.raises(contrib.RemovedAttributeError, match=r"numpy_input_fn"):
        learn.SKCompat
    assert learn.ModeKeys.INFER == "infer"
    from tf1mem.compat.estimator import RunConfig

    assert learn.RunConfig is RunConfig


def test_load_dataset_other_than_mnist_is_a_clear_error():
    with pytest.raises(datasets.UnknownDatasetError, match=r"load_dataset\('iris'\).*sklearn"):
        datasets.load_dataset("iris")


def test_vocabulary_processor_checks_and_trims():
    with pytest.raises(ValueError, match="max_document_length must be a positive int; got 0"):
        preprocessing.VocabularyProcessor(0)
    vp = preprocessing.VocabularyProcessor(3, min_frequency=1)
    ids = np.array(list(vp.fit_transform(["b a a", "b c a"])))
    # a (3 times) then b (2); c (once) is unknown: most frequent first after trimming.
    assert ids.tolist() == [[2, 1, 1], [2, 0, 1]]
    vocab = preprocessing.CategoricalVocabulary(support_reverse=False)
    with pytest.raises(ValueError, match="support_reverse=True"):
        vocab.reverse(0)


def test_tf1_import_paths(tmp_path):
    script = tmp_path / "imports.py"
    script.write_text(
        "from tensorflow.contrib.learn.preprocessing import VocabularyProcessor\n"
        "from tensorflow.contrib.learn.python.learn.datasets import mnist as m1\n"
        "import tensorflow.contrib.learn.datasets.mnist as m2\n"
        "import tensorflow as tf\n"
        "print(m1 is m2, tf.contrib.learn.datasets.mnist is m2,\n"
        "      tf.contrib.learn.preprocessing.VocabularyProcessor is VocabularyProcessor)\n")
    proc = _subproc.run(["-m", "tf1mem.run", str(script)], cwd=tmp_path, check_rc=0)
    assert proc.stdout.strip().splitlines()[-1] == "True True True"
