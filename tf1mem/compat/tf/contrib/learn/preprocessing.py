"""``tf.contrib.learn.preprocessing``'s text vocabulary: TF 1.15's tokenizer regex,
``CategoricalVocabulary`` (id 0 is the unknown token, ids in first-seen order, ``trim``
by frequency) and ``VocabularyProcessor`` (fit / transform / fit_transform / reverse,
save / restore as a pickle)."""

import pickle
import re

import numpy as np

from tf1mem.compat import errors

__all__ = ["TOKENIZER_RE", "tokenizer", "CategoricalVocabulary", "VocabularyProcessor"]

# All-caps runs not followed by lower case, a capitalised word before another capital,
# else runs of word characters, apostrophes and hyphens (TF 1.15's pattern).
TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|['\w\-]+", re.UNICODE)


def tokenizer(iterator):
    """Yields the token list of each string of ``iterator``."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """Category -> id; 0 is ``unknown_token``; unseen categories get the next id until
    ``freeze()``, after which they map to 0."""

    def __init__(self, unknown_token="<UNK>", support_reverse=True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        self._reverse_mapping = [unknown_token] if support_reverse else None
        self._freq = {}
        self._freeze = False

    def __len__(self):
        return len(self._mapping)

    def freeze(self, freeze=True):
        self._freeze = freeze

    def get(self, category):
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
            self._freq[category] = 0
        return self._mapping[category]

    def add(self, category, count=1):
        category_id = self.get(category)
        if category_id <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency, max_frequency=-1):
        """Keeps categories seen more than ``min_frequency`` times (and fewer than
        ``max_frequency`` when it is > 0), renumbered most frequent first, ties in
        sorted order."""
        ranked = sorted(sorted(self._freq.items(), key=lambda kv: kv[0]),
                        key=lambda kv: kv[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        kept = {}
        for category, count in ranked:
            if 0 < max_frequency <= count:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = len(self._mapping)
            kept[category] = count
            if self._support_reverse:
                self._reverse_mapping.append(category)
        self._freq = kept

    def reverse(self, class_id):
        if not self._support_reverse:
            raise ValueError("CategoricalVocabulary.reverse: this vocabulary was built with "
                             "support_reverse=False; build it with support_reverse=True.")
        return self._reverse_mapping[class_id]


class VocabularyProcessor:
    """Maps documents to fixed-length arrays of word ids (TF 1.15's processor).

    Args:
      max_document_length: int, the length of every output row (longer documents
        are cut, shorter ones padded with 0).
      min_frequency: words seen at most this often in ``fit`` map to 0 (the unknown
        id); 0 keeps every word in first-seen order.
      vocabulary: a CategoricalVocabulary to start from.
      tokenizer_fn: documents -> token lists, default :func:`tokenizer`.
    """

    def __init__(self, max_document_length, min_frequency=0, vocabulary=None,
                 tokenizer_fn=None):
        if not isinstance(max_document_length, (int, np.integer)) or max_document_length < 1:
            raise ValueError(f"VocabularyProcessor: max_document_length must be a positive "
                             f"int; got {max_document_length!r}.")
        self.max_document_length = int(max_document_length)
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary is not None else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn is not None else tokenizer

    def fit(self, raw_documents, unused_y=None):
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents, unused_y=None):
        raw_documents = list(raw_documents)  # read twice: fit, then transform
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents):
        """Yields one int64 array of ``max_document_length`` ids per document."""
        for tokens in self._tokenizer(raw_documents):
            ids = np.zeros(self.max_document_length, np.int64)
            for i, token in enumerate(tokens[:self.max_document_length]):
                ids[i] = self.vocabulary_.get(token)
            yield ids

    def reverse(self, documents):
        """Yields each id sequence as its words joined by spaces."""
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename):
        from tensorflow.io import gfile

        with gfile.GFile(filename, "wb") as f:
            f.write(pickle.dumps(self))

    @classmethod
    def restore(cls, filename):
        from tensorflow.io import gfile

        with gfile.GFile(filename, "rb") as f:
            obj = pickle.loads(f.read())
        if not isinstance(obj, cls):
            raise TypeError(f"VocabularyProcessor.restore: {filename} holds a "
                            f"{type(obj).__name__}, not a VocabularyProcessor.")
        return obj


# TF 1.15's other processors: the error names what to use instead.
__getattr__ = errors.removed_names("tf.contrib.learn.preprocessing", __name__)
