"""``tf.nest`` as TF 1.15 had it: its five functions, with TF 1.15's behaviour
(:mod:`tf1mem.compat.tf.python.util.nest`)."""

from tf1mem.compat.tf.python.util.nest import (  # noqa: F401
    assert_same_structure, flatten, is_nested, map_structure, pack_sequence_as)

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure",
           "pack_sequence_as"]
