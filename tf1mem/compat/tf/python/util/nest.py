"""TF 1.15's ``tensorflow.python.util.nest``, on TF 2.21's.

TF1-era code and libraries (tflearn, sonnet 1, copied ``_linear`` helpers) import
``nest.is_sequence``, ``map_structure_up_to``, ``flatten_up_to`` and friends from here, or
reach them as ``tf.contrib.framework.nest``. TF 2.21 renamed ``is_sequence`` to
``is_nested`` and otherwise kept TF 1.15's functions and behaviour (dict and ``OrderedDict``
keys sorted, namedtuples, ``attrs`` classes, strings and ``None`` as leaves); this module is TF 2.21's functions under TF 1.15's names, with TF 1.15's errors
where TF 2.21 words them differently (:func:`pack_sequence_as`, :func:`flatten_dict_items`).
``tests/nest_tf115`` holds what TF 1.15.5 returned and raised on edge cases; the tests
compare.
"""

from collections import abc as _collections_abc

from tensorflow.python.util import nest as _nest

__all__ = [
    "assert_same_structure", "assert_shallow_structure", "flatten", "flatten_dict_items",
    "flatten_up_to", "flatten_with_joined_string_paths", "flatten_with_tuple_paths",
    "flatten_with_tuple_paths_up_to", "get_traverse_shallow_structure", "is_nested",
    "is_sequence", "is_sequence_or_composite", "map_structure", "map_structure_up_to",
    "map_structure_with_paths", "map_structure_with_tuple_paths",
    "map_structure_with_tuple_paths_up_to", "pack_sequence_as", "yield_flat_paths",
]

# TF 2.21's, unchanged in behaviour since TF 1.15.
assert_same_structure = _nest.assert_same_structure
assert_shallow_structure = _nest.assert_shallow_structure
flatten = _nest.flatten
flatten_up_to = _nest.flatten_up_to
flatten_with_joined_string_paths = _nest.flatten_with_joined_string_paths
flatten_with_tuple_paths = _nest.flatten_with_tuple_paths
flatten_with_tuple_paths_up_to = _nest.flatten_with_tuple_paths_up_to
get_traverse_shallow_structure = _nest.get_traverse_shallow_structure
is_nested = _nest.is_nested
is_sequence = _nest.is_nested  # TF 1.15's name for it
is_sequence_or_composite = _nest.is_nested_or_composite
map_structure = _nest.map_structure
map_structure_up_to = _nest.map_structure_up_to
map_structure_with_paths = _nest.map_structure_with_paths
map_structure_with_tuple_paths = _nest.map_structure_with_tuple_paths
map_structure_with_tuple_paths_up_to = _nest.map_structure_with_tuple_paths_up_to
yield_flat_paths = _nest.yield_flat_paths

# The private helpers TF1-era code called (the Object Detection API's shape_utils calls
# nest._sequence_like; copied RNN code _is_namedtuple).
_sequence_like = _nest._sequence_like  # pylint: disable=protected-access
_is_namedtuple = _nest._is_namedtuple  # pylint: disable=protected-access
_is_mapping = _nest._is_mapping  # pylint: disable=protected-access
_is_attrs = _nest._is_attrs  # pylint: disable=protected-access
_yield_value = _nest._yield_value  # pylint: disable=protected-access
_yield_sorted_items = _nest._yield_sorted_items  # pylint: disable=protected-access
_same_namedtuples = _nest.same_namedtuples


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Packs ``flat_sequence`` into the shape of ``structure`` (TF 1.15's errors).

    Args:
      structure: a nested structure (or a single leaf).
      flat_sequence: a flat list (or other sequence) of leaves.
      expand_composites: whether composite tensors count as structures.

    Returns:
      ``flat_sequence`` packed like ``structure``.

    Raises:
      TypeError: ``flat_sequence`` is not a sequence.
      ValueError: the numbers of leaves differ.
    """
    is_seq = is_sequence_or_composite if expand_composites else is_sequence
    if not is_seq(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if not is_seq(structure):
        if len(flat_sequence) != 1:
            raise ValueError("Structure is a scalar but len(flat_sequence) == %d > 1"
                             % len(flat_sequence))
        return flat_sequence[0]
    expected = len(flatten(structure, expand_composites=expand_composites))
    if expected != len(flat_sequence):
        raise ValueError(
            "Could not pack sequence. Structure had %d elements, but flat_sequence had %d "
            "elements.  Structure: %s, flat_sequence: %s."
            % (expected, len(flat_sequence), structure, flat_sequence))
    return _nest.pack_sequence_as(structure, flat_sequence,
                                  expand_composites=expand_composites)


def flatten_dict_items(dictionary):
    """``{flattened key: flattened value}`` of a dict whose keys may be structures.

    Args:
      dictionary: a dict; a key that is a structure must have a value of the same
        structure, and the flattened keys must be unique.

    Returns:
      A dict of the flattened keys and values.

    Raises:
      TypeError: ``dictionary`` is not a mapping.
      ValueError: a key and its value differ in structure, or a key repeats.
    """
    if not isinstance(dictionary, (dict, _collections_abc.Mapping)):
        raise TypeError("input must be a dictionary")
    seen = set()
    for key in dictionary:
        # A key and its value of different structures: TF 2.21 raises TF 1.15's error.
        keys = flatten(key) if is_sequence(key) else [key]
        if is_sequence(key) and len(keys) != len(flatten(dictionary[key])):
            return _nest.flatten_dict_items(dictionary)
        for flat_key in keys:
            if flat_key in seen:
                raise ValueError("Could not flatten dictionary: key %s is not unique."
                                 % (flat_key,))
            seen.add(flat_key)
    return _nest.flatten_dict_items(dictionary)
