"""Fixtures shared by the tests: a seeded default graph, its session, the XOR data."""

import numpy as np
import pytest
import tensorflow as tf


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        tf.set_random_seed(1234)
        yield g


@pytest.fixture
def sess(graph):
    with tf.Session(graph=graph) as session:
        yield session


@pytest.fixture
def xor_data():
    X = np.array([[0., 0.], [0., 1.], [1., 0.], [1., 1.]], dtype=np.float32)
    Y = np.array([[0.], [1.], [1.], [0.]], dtype=np.float32)
    return X, Y
