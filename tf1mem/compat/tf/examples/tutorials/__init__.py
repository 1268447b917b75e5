"""``tensorflow.examples.tutorials``: of TF1's tutorial packages tf1mem provides ``mnist``,
the one TF1 scripts imported (``input_data`` to load MNIST, ``mnist`` for the model of
``fully_connected_feed.py``)."""
