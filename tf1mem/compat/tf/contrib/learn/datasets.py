"""``tf.contrib.learn.datasets``: ``mnist`` (tf1mem's MNIST loader, the module
``tensorflow.examples.tutorials.mnist.input_data`` is), ``base`` (the CSV readers:
:mod:`tf1mem.compat.tf.contrib.learn.datasets_base`) and ``load_dataset``."""

from tf1mem import errors
from tf1mem.compat.tf.contrib.learn import datasets_base as base
from tf1mem.data import input_data as mnist

__all__ = ["base", "mnist", "load_dataset", "DATASETS"]

__path__ = []  # a package to the import system: ``...learn.datasets.mnist`` resolves

DATASETS = ("mnist",)


class UnknownDatasetError(errors.ShimError, ValueError):
    """``load_dataset`` asked for a data set tf1mem does not provide."""


def load_dataset(name, size="small", test_with_fake_data=False):
    """TF 1.15's ``load_dataset``; only ``"mnist"`` (read from ``MNIST-data`` as TF1
    did, through tf1mem's loader). ``size`` is ignored, as TF1 did for MNIST."""
    del size
    if name != "mnist":
        from tf1mem.compat import errors as removed

        raise UnknownDatasetError(removed.removed_message(
            f"tf.contrib.learn.datasets.load_dataset({name!r})",
            "sklearn.datasets (load_iris, fetch_california_housing, ...) or "
            "tensorflow_datasets; tf1mem provides load_dataset('mnist')"))
    return mnist.read_data_sets("MNIST-data", fake_data=test_with_fake_data)
