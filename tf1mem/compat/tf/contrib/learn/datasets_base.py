"""``tf.contrib.learn.datasets.base``: the CSV readers of the Iris tutorial.

TF 1.15's ``load_csv_with_header(filename, target_dtype, features_dtype,
target_column=-1)`` read a CSV whose first row holds the number of samples and of
features (then, unused, the class names), and each later row one sample: the
``target_column`` entry is the target, the rest the features. ``load_csv_without_header``
read every row so. Both return ``Dataset(data, target)``; ``Datasets(train,
validation, test)`` is the tuple the MNIST loader returns. Values equal TF 1.15.5's
(corpus script ``contrib_learn_csv.py``).

Unlike TF 1.15, a file with fewer sample rows than its header says, a row with another
number of features, or a value that does not parse is a ValueError naming the file and
the line: TF 1.15 left the missing rows zero (features and targets) and trained on them.
``load_iris`` / ``load_boston`` (data files TF 1.15 shipped) and ``maybe_download`` are
not provided: the error names a replacement.
"""

import collections
import csv

from tf1mem import errors
from tf1mem.compat import errors as compat_errors

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header"]

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


class CsvDataError(errors.ShimError, ValueError):
    """A CSV file that ``load_csv_with_header`` / ``without_header`` cannot read whole."""


def _rows(filename):
    from tensorflow.python.platform import gfile

    with gfile.Open(filename) as f:
        return list(csv.reader(f))


def _sample(filename, line, row, target_column, target_dtype, features_dtype):
    import numpy as np

    row = list(row)
    try:
        target = np.asarray(row.pop(target_column), dtype=target_dtype)
        features = np.asarray(row, dtype=features_dtype)
    except (ValueError, IndexError) as exc:
        raise CsvDataError(f"{filename}, line {line}: {exc} (row {row!r}; target_column "
                           f"{target_column})") from exc
    return target, features


def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
    """Reads ``filename``: a header ``n_samples,n_features,...``, then one sample a row."""
    import numpy as np

    rows = _rows(filename)
    if not rows:
        raise CsvDataError(f"{filename} is empty: load_csv_with_header needs a header row "
                           f"'n_samples,n_features,...'")
    try:
        n_samples, n_features = int(rows[0][0]), int(rows[0][1])
    except (ValueError, IndexError) as exc:
        raise CsvDataError(f"{filename}, line 1: the header must start with the number of "
                           f"samples and of features, got {rows[0]!r}; for a file without "
                           f"that header use load_csv_without_header") from exc
    samples = rows[1:]
    if len(samples) != n_samples:
        raise CsvDataError(f"{filename}: the header says {n_samples} samples but "
                           f"{len(samples)} rows follow (TF 1.15 filled the missing rows "
                           f"with zeros); correct the header")
    data = np.zeros((n_samples, n_features), dtype=features_dtype)
    target = np.zeros((n_samples,), dtype=target_dtype)
    for i, row in enumerate(samples):
        target[i], features = _sample(filename, i + 2, row, target_column, target_dtype,
                                      features_dtype)
        if features.shape != (n_features,):
            raise CsvDataError(f"{filename}, line {i + 2}: {features.size} features where "
                               f"the header says {n_features} (row {row!r})")
        data[i] = features
    return Dataset(data=data, target=target)


def load_csv_without_header(filename, target_dtype, features_dtype, target_column=-1):
    """Reads ``filename``: one sample a row, no header."""
    import numpy as np

    data, target = [], []
    for i, row in enumerate(_rows(filename)):
        label, features = _sample(filename, i + 1, row, target_column, target_dtype,
                                  features_dtype)
        if data and features.shape != data[0].shape:
            raise CsvDataError(f"{filename}, line {i + 1}: {features.size} features where "
                               f"line 1 has {data[0].size} (row {row!r})")
        target.append(label)
        data.append(features)
    return Dataset(data=np.array(data, dtype=features_dtype),
                   target=np.array(target, dtype=target_dtype))


# load_iris, load_boston, maybe_download, shrink_csv: the table's replacements.
__getattr__ = compat_errors.removed_names("tf.contrib.learn.datasets.base", __name__)
