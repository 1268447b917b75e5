"""``tensorflow.python.util`` as TF1-era user code imported it: TF 1.15's :mod:`.nest`
(``is_sequence``, ``map_structure_up_to``, ``flatten_up_to`` and TF 1.15's errors); the
rest of the package (``deprecation``, ``tf_inspect``, ...) is TF 2.21's own, unchanged.
"""
