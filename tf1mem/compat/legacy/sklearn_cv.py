"""scikit-learn 0.19's ``sklearn.cross_validation`` (removed in 0.20), on today's
``sklearn.model_selection``.

TF1 code split its data with ``from sklearn.cross_validation import train_test_split``
and cross-validated with ``KFold(n, n_folds)``, whose signature and iteration differ
from ``model_selection``'s (``KFold(n_splits).split(X)``). This module owns those
names as scikit-learn 0.19 had them, with 0.19's folds and splits (checked against
scikit-learn 0.19.2: tests/unit/test_legacy_stack.py):

- ``train_test_split``: ``model_selection``'s (the same arguments, the same split for
  the same ``random_state``);
- ``KFold(n, n_folds=3, shuffle=False, random_state=None)``: iterable, ``len()`` its
  folds, indices shuffled once when it is made (so every pass gives the same folds);
- ``StratifiedKFold(y, n_folds=3, shuffle=False, random_state=None)``: 0.19's folds
  (``model_selection``'s have been assigned differently since 0.22);
- ``ShuffleSplit(n, n_iter=10, test_size=0.1, train_size=None, random_state=None)``;
- ``cross_val_score(estimator, X, y=None, scoring=None, cv=None, n_jobs=1, verbose=0,
  fit_params=None)``: 0.19's default of 3 folds (stratified for a classifier), and
  these classes as ``cv``.

The rest of 0.19's module (``LeaveOneOut(n)``, ``LabelKFold``, ``cross_val_predict``,
``permutation_test_score``, ...) is not provided: :data:`NOT_PROVIDED` names what to use.
Nothing here imports scikit-learn or NumPy at import time.
"""

__all__ = ["KFold", "NOT_PROVIDED", "ShuffleSplit", "StratifiedKFold", "cross_val_score",
           "train_test_split"]

NOT_PROVIDED = {
    "LeaveOneOut": "sklearn.model_selection.LeaveOneOut().split(X)",
    "LeavePOut": "sklearn.model_selection.LeavePOut(p).split(X)",
    "LabelKFold": "sklearn.model_selection.GroupKFold(n_splits).split(X, y, groups)",
    "LeaveOneLabelOut": "sklearn.model_selection.LeaveOneGroupOut().split(X, y, groups)",
    "LeavePLabelOut": "sklearn.model_selection.LeavePGroupsOut(n_groups).split(X, y, groups)",
    "LabelShuffleSplit": "sklearn.model_selection.GroupShuffleSplit",
    "StratifiedShuffleSplit": "sklearn.model_selection.StratifiedShuffleSplit(n_splits, "
                              "test_size=..., random_state=...).split(X, y)",
    "PredefinedSplit": "sklearn.model_selection.PredefinedSplit(test_fold).split()",
    "cross_val_predict": "sklearn.model_selection.cross_val_predict",
    "permutation_test_score": "sklearn.model_selection.permutation_test_score",
    "check_cv": "sklearn.model_selection.check_cv",
}


def _np():
    import numpy

    return numpy


def _random_state(seed):
    from sklearn.utils import check_random_state

    return check_random_state(seed)


def train_test_split(*arrays, **options):
    """scikit-learn 0.19's ``train_test_split`` (``model_selection``'s)."""
    from sklearn.model_selection import train_test_split as split

    return split(*arrays, **options)


class KFold:
    """scikit-learn 0.19's ``KFold(n, n_folds=3, shuffle=False, random_state=None)``:
    iterating gives ``(train, test)`` index arrays, each in increasing order; the first
    ``n % n_folds`` folds are one longer."""

    def __init__(self, n, n_folds=3, shuffle=False, random_state=None):
        np = _np()
        if abs(n - int(n)) >= np.finfo("f").eps:
            raise ValueError("n must be an integer")
        self.n = int(n)
        if abs(n_folds - int(n_folds)) >= np.finfo("f").eps:
            raise ValueError("n_folds must be an integer")
        self.n_folds = n_folds = int(n_folds)
        if n_folds <= 1:
            raise ValueError(f"k-fold cross validation requires at least one train / test "
                             f"split by setting n_folds=2 or more, got n_folds={n_folds}.")
        if n_folds > self.n:
            raise ValueError(f"Cannot have number of folds n_folds={n_folds} greater than "
                             f"the number of samples: {self.n}.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be True or False; got {shuffle}")
        self.shuffle = shuffle
        self.random_state = random_state
        self.idxs = np.arange(self.n)
        if shuffle:
            _random_state(random_state).shuffle(self.idxs)

    def _test_folds(self):
        start = 0
        for fold in range(self.n_folds):
            stop = start + self.n // self.n_folds + (1 if fold < self.n % self.n_folds else 0)
            yield self.idxs[start:stop]
            start = stop

    def __iter__(self):
        np = _np()
        everything = np.arange(self.n)
        for test in self._test_folds():
            mask = np.zeros(self.n, dtype=bool)
            mask[test] = True
            yield everything[~mask], everything[mask]

    def __len__(self):
        return self.n_folds

    def __repr__(self):
        return (f"sklearn.cross_validation.KFold(n={self.n}, n_folds={self.n_folds}, "
                f"shuffle={self.shuffle}, random_state={self.random_state})")


class StratifiedKFold:
    """scikit-learn 0.19's ``StratifiedKFold(y, n_folds=3, shuffle=False,
    random_state=None)``: each class's samples are dealt into the folds by a
    :class:`KFold` of their own (shuffled with one shared random state)."""

    def __init__(self, y, n_folds=3, shuffle=False, random_state=None):
        import warnings

        np = _np()
        self.y = y = np.asarray(y)
        self.n = n = y.shape[0]
        self.n_folds = n_folds = int(n_folds)
        if n_folds <= 1 or n_folds > n:
            KFold(n, n_folds)  # its ValueError
        self.shuffle, self.random_state = shuffle, random_state
        rng = _random_state(random_state)
        labels, inverse = np.unique(y, return_inverse=True)
        counts = np.bincount(inverse)
        if np.all(n_folds > counts):
            raise ValueError(f"All the n_labels for individual classes are less than "
                             f"{n_folds} folds.")
        if n_folds > counts.min():
            warnings.warn(f"The least populated class in y has only {counts.min()} members, "
                          f"which is too few. The minimum number of labels for any class "
                          f"cannot be less than n_folds={n_folds}.", Warning)
        per_label = [list(KFold(max(c, n_folds), n_folds, shuffle=shuffle, random_state=rng))
                     for c in counts]
        self.test_folds = np.zeros(n, dtype=int)
        for fold in range(n_folds):
            for label, splits in zip(labels, per_label):
                members = np.flatnonzero(y == label)
                test = splits[fold][1]
                self.test_folds[members[test[test < len(members)]]] = fold

    def __iter__(self):
        np = _np()
        everything = np.arange(self.n)
        for fold in range(self.n_folds):
            mask = self.test_folds == fold
            yield everything[~mask], everything[mask]

    def __len__(self):
        return self.n_folds

    def __repr__(self):
        return (f"sklearn.cross_validation.StratifiedKFold(labels={self.y}, "
                f"n_folds={self.n_folds}, shuffle={self.shuffle}, "
                f"random_state={self.random_state})")


class ShuffleSplit:
    """scikit-learn 0.19's ``ShuffleSplit(n, n_iter=10, test_size=0.1, train_size=None,
    random_state=None)``: ``model_selection.ShuffleSplit``'s splits of ``n`` samples."""

    def __init__(self, n, n_iter=10, test_size=0.1, train_size=None, random_state=None):
        self.n, self.n_iter = int(n), int(n_iter)
        self.test_size, self.train_size = test_size, train_size
        self.random_state = random_state

    def __iter__(self):
        from sklearn.model_selection import ShuffleSplit as Modern

        splitter = Modern(n_splits=self.n_iter, test_size=self.test_size,
                          train_size=self.train_size, random_state=self.random_state)
        yield from splitter.split(_np().zeros((self.n, 1)))

    def __len__(self):
        return self.n_iter


def cross_val_score(estimator, X, y=None, scoring=None, cv=None, n_jobs=1, verbose=0,
                    fit_params=None, pre_dispatch="2*n_jobs"):
    """scikit-learn 0.19's ``cross_val_score``: ``cv=None`` is 3 folds, 0.19's
    :class:`StratifiedKFold` for a classifier with binary or multiclass ``y`` (else
    :class:`KFold`); an int
    ``cv`` the same with that many folds."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import cross_val_score as modern
    from sklearn.utils.multiclass import type_of_target

    folds = 3 if cv is None else cv
    if isinstance(folds, int):
        n = len(X) if not hasattr(X, "shape") else X.shape[0]
        if is_classifier(estimator) and y is not None and type_of_target(y) in (
                "binary", "multiclass"):
            folds = StratifiedKFold(y, folds)
        else:
            folds = KFold(n, folds)
    kwargs = {} if not fit_params else {"params": fit_params}
    return modern(estimator, X, y, scoring=scoring, cv=list(folds), n_jobs=n_jobs,
                  verbose=verbose, pre_dispatch=pre_dispatch, **kwargs)
