"""tf.contrib.learn's parts that outlived its Estimators: VocabularyProcessor (fit,
transform, reverse, min_frequency, save/restore), ModeKeys, and
learn.datasets.mnist.read_data_sets(fake_data=True)."""
from __future__ import print_function

import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn

out_dir = sys.argv[1]

sentences = ["I like deep learning.", "I like NLP!", "I enjoy flying, don't you?",
             "TensorFlow's APIs: tf.contrib.learn and HTMLParser"]
vocab = learn.preprocessing.VocabularyProcessor(max_document_length=6)
x = np.array(list(vocab.fit_transform(sentences)))
print("vocab size:", len(vocab.vocabulary_))
print("ids:", x.tolist())
print("reverse:", list(vocab.reverse(x[:2])))
print("unknown:", list(vocab.transform(["I like pizza"]))[0].tolist())
print("like ->", vocab.vocabulary_.get("like"))
path = os.path.join(out_dir, "vocab")
vocab.save(path)
restored = learn.preprocessing.VocabularyProcessor.restore(path)
print("restored same:", list(restored.transform(sentences[:1]))[0].tolist())
frequent = learn.preprocessing.VocabularyProcessor(4, min_frequency=1)
print("min_frequency ids:", np.array(list(frequent.fit_transform(sentences))).tolist())
print("min_frequency size:", len(frequent.vocabulary_))
print("tokens:", list(learn.preprocessing.tokenizer(["Don't stop-me NOWPlease CamelCase"])))
print("mode keys:", learn.ModeKeys.TRAIN, learn.ModeKeys.EVAL, learn.ModeKeys.INFER)

mnist = learn.datasets.mnist.read_data_sets(os.path.join(out_dir, "mnist"), fake_data=True)
images, labels = mnist.train.next_batch(3, fake_data=True)
print("mnist fake batch:", np.array(images).shape, list(labels))
print("mnist sizes:", mnist.train.num_examples, mnist.validation.num_examples, mnist.test.num_examples)
