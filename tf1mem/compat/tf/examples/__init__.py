"""``tensorflow.examples``, which TF 2 dropped: of it, tf1mem provides ``tutorials.mnist``
(the tutorial's model file here, its ``input_data`` loader in :mod:`tf1mem.data`), which
2016-2018 tutorials and courses imported."""
