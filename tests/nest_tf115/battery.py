"""TF 1.15's ``nest`` on edge cases: each case's result as JSON, to compare across versions.

Run with the TF 1.15.5 oracle (Python 3.7) to record ``expected.json``::

    /work/oracle/bin/python tests/nest_tf115/battery.py > tests/nest_tf115/expected.json

``tests/tf/test_tf1_nest.py`` runs the same cases on tf1mem's ``tensorflow.python.util.nest``
(and on user code's ``tf.contrib.framework.nest`` and ``tf.nest``) and compares. Written for
Python 3.7 and 3.11 alike; TensorFlow is used only for a tensor and a SparseTensor, in a graph.
"""

import collections
import json
import sys

import attr
import numpy as np

__all__ = ["run", "show"]

Point = collections.namedtuple("Point", ["x", "y"])
Other = collections.namedtuple("Other", ["x", "y"])  # same fields, other name
Point3 = collections.namedtuple("Point3", ["x", "y", "z"])


class PointSub(Point):
    """A subclass of a namedtuple (still a namedtuple to nest)."""


@attr.s
class Pair(object):
    first = attr.ib()
    second = attr.ib()


class MyMapping(collections.abc.Mapping if hasattr(collections, "abc") else object):
    """A user Mapping that is not a dict."""

    def __init__(self, data):
        self._data = dict(data)

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)


def show(value):
    """A JSON-able picture of ``value`` that keeps what nest cares about (types, order)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    if isinstance(value, np.ndarray):
        return {"ndarray": value.tolist()}
    if hasattr(value, "_fields") and isinstance(value, tuple):
        return {"namedtuple": type(value).__name__, "items": [show(v) for v in value]}
    if isinstance(value, tuple):
        return {"tuple": [show(v) for v in value]}
    if isinstance(value, list):
        return {"list": [show(v) for v in value]}
    if isinstance(value, dict):
        return {type(value).__name__: [[show(k), show(v)] for k, v in value.items()]}
    if isinstance(value, MyMapping):
        return {"MyMapping": [[show(k), show(value[k])] for k in value]}
    if attr.has(type(value)):
        return {"attrs": type(value).__name__,
                "items": [show(getattr(value, a.name)) for a in attr.fields(type(value))]}
    if isinstance(value, (set, frozenset)):
        return {type(value).__name__: sorted(show(v) for v in value)}
    if type(value).__name__ in ("Tensor", "SymbolicTensor"):  # TF 2.21's graph tensor
        return {"Tensor": True}
    if type(value).__name__ == "SparseTensor":
        return {"SparseTensor": True}
    return {"other": type(value).__name__}


def _structures():
    return {
        "none": None,
        "int": 1,
        "str": "abc",
        "bytes": b"abc",
        "list": [1, [2, 3], []],
        "tuple": (1, (2,), ()),
        "dict": {"b": 1, "a": 2, "c": {"z": 3, "y": 4}},
        "int_keys": {3: "c", 1: "a", 2: "b"},
        "ordered": collections.OrderedDict([("b", 1), ("a", 2)]),
        "defaultdict": collections.defaultdict(int, [("b", 1), ("a", 2)]),
        "namedtuple": Point(1, [2, 3]),
        "namedtuple_sub": PointSub(1, 2),
        "attrs": Pair([1, 2], {"k": 3}),
        "mapping": MyMapping([("b", 1), ("a", 2)]),
        "set": {1, 2},
        "ndarray": np.array([1, 2]),
        "empty_dict": {},
        "nested_empty": [(), [], {}],
        "range": range(3),
        "deque": collections.deque([1, 2]),
        "bytearray": bytearray(b"ab"),
        "keys_view": {"b": 1, "a": 2}.keys(),
        "mixed": [{"a": (1, Point(2, 3))}, "s", None, Pair(4, (5,))],
    }


def _call(fn):
    try:
        return show(fn())
    except Exception as e:  # pylint: disable=broad-except
        return {"raises": type(e).__name__, "message": str(e)}


def _cases(nest):
    s = _structures()
    cases = collections.OrderedDict()
    for name, value in s.items():
        cases["flatten/" + name] = lambda v=value: nest.flatten(v)
        cases["is_sequence/" + name] = lambda v=value: nest.is_sequence(v)
        cases["is_sequence_or_composite/" + name] = (
            lambda v=value: nest.is_sequence_or_composite(v))
        cases["pack_identity/" + name] = (
            lambda v=value: nest.pack_sequence_as(v, nest.flatten(v)))
        cases["map_plus/" + name] = lambda v=value: nest.map_structure(
            lambda x: x + 1 if isinstance(x, int) and not isinstance(x, bool) else x, v)
        cases["yield_flat_paths/" + name] = lambda v=value: list(nest.yield_flat_paths(v))
        cases["joined_paths/" + name] = (
            lambda v=value: nest.flatten_with_joined_string_paths(v))
        cases["tuple_paths/" + name] = lambda v=value: nest.flatten_with_tuple_paths(v)
    cases["flatten/bad_keys"] = lambda: nest.flatten({1: "a", "b": 2})
    cases["map/two"] = lambda: nest.map_structure(lambda a, b: a * b, [1, (2, 3)], [4, (5, 6)])
    cases["map/list_vs_tuple"] = lambda: nest.map_structure(lambda a, b: a, [1, 2], (1, 2))
    cases["map/list_vs_tuple_nocheck"] = lambda: nest.map_structure(
        lambda a, b: a, [1, 2], (1, 2), check_types=False)
    cases["map/length"] = lambda: nest.map_structure(lambda a, b: a, [1, 2], [1, 2, 3])
    cases["map/dict_keys"] = lambda: nest.map_structure(lambda a, b: a, {"a": 1}, {"b": 1})
    cases["map/dict_vs_ordered"] = lambda: nest.map_structure(
        lambda a, b: (a, b), {"b": 1, "a": 2}, collections.OrderedDict([("b", 3), ("a", 4)]))
    cases["map/ordered_vs_dict"] = lambda: nest.map_structure(
        lambda a, b: (a, b), collections.OrderedDict([("b", 3), ("a", 4)]), {"b": 1, "a": 2})
    cases["map/namedtuples_other_name"] = lambda: nest.map_structure(
        lambda a, b: a, Point(1, 2), Other(1, 2))
    cases["map/no_structure"] = lambda: nest.map_structure(lambda: 1)
    cases["map/not_callable"] = lambda: nest.map_structure(1, [1])
    cases["map/bad_kwarg"] = lambda: nest.map_structure(lambda a: a, [1], foo=1)
    cases["map/none_leaf"] = lambda: nest.map_structure(lambda a: a, [None, (None,)])
    cases["map/attrs_two"] = lambda: nest.map_structure(
        lambda a, b: a + b, Pair(1, 2), Pair(10, 20))
    cases["assert_same/ok"] = lambda: nest.assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
    cases["assert_same/str_vs_list"] = lambda: nest.assert_same_structure("ab", ["a", "b"])
    cases["assert_same/list_vs_tuple"] = lambda: nest.assert_same_structure([1], (1,))
    cases["assert_same/list_vs_tuple_nocheck"] = lambda: nest.assert_same_structure(
        [1], (1,), check_types=False)
    cases["assert_same/namedtuple_vs_tuple"] = lambda: nest.assert_same_structure(
        Point(1, 2), (1, 2))
    cases["assert_same/namedtuple_other_name"] = lambda: nest.assert_same_structure(
        Point(1, 2), Other(1, 2))
    cases["assert_same/namedtuple_sub"] = lambda: nest.assert_same_structure(
        Point(1, 2), PointSub(1, 2))
    cases["assert_same/dict_vs_ordered"] = lambda: nest.assert_same_structure(
        {"a": 1}, collections.OrderedDict([("a", 1)]))
    cases["assert_same/dict_vs_mapping"] = lambda: nest.assert_same_structure(
        {"a": 1}, MyMapping([("a", 1)]))
    cases["assert_same/lengths"] = lambda: nest.assert_same_structure([1, 2], [1])
    cases["assert_same/nested_vs_leaf"] = lambda: nest.assert_same_structure([1, [2]], [1, 2])
    cases["pack/dict"] = lambda: nest.pack_sequence_as({"b": 0, "a": 0}, [1, 2])
    cases["pack/ordered"] = lambda: nest.pack_sequence_as(
        collections.OrderedDict([("b", 0), ("a", 0)]), [1, 2])
    cases["pack/namedtuple"] = lambda: nest.pack_sequence_as(Point(0, (0, 0)), [1, 2, 3])
    cases["pack/attrs"] = lambda: nest.pack_sequence_as(Pair(0, 0), ["p", "q"])
    cases["pack/too_few"] = lambda: nest.pack_sequence_as([0, 0], [1])
    cases["pack/too_many"] = lambda: nest.pack_sequence_as([0], [1, 2])
    cases["pack/leaf"] = lambda: nest.pack_sequence_as(0, [5])
    cases["pack/leaf_two"] = lambda: nest.pack_sequence_as(0, [5, 6])
    cases["pack/flat_not_seq"] = lambda: nest.pack_sequence_as([0], 5)
    cases["pack/mapping"] = lambda: nest.pack_sequence_as(MyMapping([("b", 0), ("a", 0)]), [1, 2])
    cases["pack/defaultdict"] = lambda: nest.pack_sequence_as(
        collections.defaultdict(int, [("b", 0), ("a", 0)]), [1, 2])
    shallow = [1, (2, 3)]
    deep = [[4, 5], ((6, 7), 8)]
    cases["flatten_up_to/basic"] = lambda: nest.flatten_up_to(shallow, deep)
    cases["flatten_up_to/dict"] = lambda: nest.flatten_up_to(
        {"a": 0, "b": 0}, {"b": [1, 2], "a": (3,)})
    cases["flatten_up_to/leaf_shallow"] = lambda: nest.flatten_up_to(0, [1, 2])
    cases["flatten_up_to/shallow_deeper"] = lambda: nest.flatten_up_to([0, [0]], [1, 2])
    cases["flatten_up_to/types"] = lambda: nest.flatten_up_to([0, 0], (1, 2))
    cases["flatten_up_to/types_nocheck"] = lambda: nest.flatten_up_to(
        [0, 0], (1, 2), check_types=False)
    cases["flatten_up_to/length"] = lambda: nest.flatten_up_to([0, 0], [1, 2, 3])
    cases["flatten_up_to/missing_key"] = lambda: nest.flatten_up_to({"a": 0, "c": 0}, {"a": 1, "b": 2})
    cases["flatten_up_to/str_input"] = lambda: nest.flatten_up_to([0, 0], "ab")
    cases["map_up_to/basic"] = lambda: nest.map_structure_up_to(
        shallow, lambda x: ("leaf", x), deep)
    cases["map_up_to/two"] = lambda: nest.map_structure_up_to(
        [0, 0], lambda a, b: [a, b], [[1], [2]], [3, 4])
    cases["map_up_to/namedtuple"] = lambda: nest.map_structure_up_to(
        Point(0, 0), lambda a: a, Point([1], (2,)))
    cases["map_up_to/namedtuple_vs_tuple"] = lambda: nest.map_structure_up_to(
        Point(0, 0), lambda a: a, (1, 2))
    cases["map_up_to/dict_vs_ordered"] = lambda: nest.map_structure_up_to(
        {"a": 0, "b": 0}, lambda a: a, collections.OrderedDict([("b", 1), ("a", 2)]))
    cases["map_up_to/no_inputs"] = lambda: nest.map_structure_up_to([0], lambda a: a)
    cases["assert_shallow/ok"] = lambda: nest.assert_shallow_structure([0, (0, 0)], deep)
    cases["assert_shallow/list_vs_tuple"] = lambda: nest.assert_shallow_structure([0], (1,))
    cases["assert_shallow/list_vs_tuple_nocheck"] = lambda: nest.assert_shallow_structure(
        [0], (1,), check_types=False)
    cases["assert_shallow/namedtuple_vs_other"] = lambda: nest.assert_shallow_structure(
        Point(0, 0), Other(1, 2))
    cases["assert_shallow/namedtuple_sub"] = lambda: nest.assert_shallow_structure(
        Point(0, 0), PointSub(1, 2))
    cases["assert_shallow/dict_vs_ordered"] = lambda: nest.assert_shallow_structure(
        {"a": 0}, collections.OrderedDict([("a", 1)]))
    cases["assert_shallow/dict_vs_list"] = lambda: nest.assert_shallow_structure({"a": 0}, [1])
    cases["assert_shallow/deeper"] = lambda: nest.assert_shallow_structure([[0]], [1])
    cases["assert_shallow/length"] = lambda: nest.assert_shallow_structure([0], [1, 2])
    cases["assert_shallow/keys"] = lambda: nest.assert_shallow_structure({"a": 0}, {"b": 1})
    cases["assert_shallow/keys_subset"] = lambda: nest.assert_shallow_structure(
        {"a": 0}, {"a": 1, "b": 2})
    cases["assert_shallow/str"] = lambda: nest.assert_shallow_structure([0, 0], "ab")
    cases["assert_shallow/attrs"] = lambda: nest.assert_shallow_structure(Pair(0, 0), Pair(1, [2]))
    cases["traverse/basic"] = lambda: nest.get_traverse_shallow_structure(
        lambda s: not isinstance(s, tuple), [(1, 2), [3, (4, 5)], 6])
    cases["traverse/bool_struct"] = lambda: nest.get_traverse_shallow_structure(
        lambda s: [True, False] if isinstance(s, list) else True, [[1, 2], [3, 4]])
    cases["traverse/bad_return"] = lambda: nest.get_traverse_shallow_structure(
        lambda s: 1, [1, 2])
    cases["traverse/bad_struct"] = lambda: nest.get_traverse_shallow_structure(
        lambda s: [True] if isinstance(s, list) else True, [1, 2])
    cases["flatten_dict_items/basic"] = lambda: sorted(
        nest.flatten_dict_items({(1, 2): (3, 4), "k": "v"}).items(), key=repr)
    cases["flatten_dict_items/nested_keys"] = lambda: sorted(
        nest.flatten_dict_items({((1, 2), 3): ((4, 5), 6)}).items(), key=repr)
    cases["flatten_dict_items/mismatch"] = lambda: nest.flatten_dict_items({(1, 2): 3})
    cases["flatten_dict_items/not_dict"] = lambda: nest.flatten_dict_items([1])
    cases["flatten_dict_items/dup"] = lambda: nest.flatten_dict_items({(1, 2): (3, 4), 1: 5})
    cases["map_with_paths/basic"] = lambda: nest.map_structure_with_paths(
        lambda p, v: p + ":" + str(v), {"a": [1, 2], "b": (3,)})
    cases["map_with_paths/two"] = lambda: nest.map_structure_with_paths(
        lambda p, a, b: (p, a + b), [1, {"x": 2}], [10, {"x": 20}])
    cases["map_with_tuple_paths/basic"] = lambda: nest.map_structure_with_tuple_paths(
        lambda p, v: (p, v), {"a": [1, 2], "b": Point(3, 4)})
    cases["tuple_paths_up_to/basic"] = lambda: nest.flatten_with_tuple_paths_up_to(
        [0, {"a": 0}], [[1, 2], {"a": (3,)}])
    cases["map_tuple_paths_up_to/basic"] = lambda: nest.map_structure_with_tuple_paths_up_to(
        [0, (0,)], lambda p, v: (p, v), [[1, 2], ([3],)])
    cases["joined/separator"] = lambda: nest.flatten_with_joined_string_paths(
        {"a": [1, {"b": 2}]}, separator="|")
    cases["is_nested/list"] = lambda: nest.is_nested([1])
    cases["is_nested/str"] = lambda: nest.is_nested("ab")
    return cases


def _tensor_cases(nest, tf):
    cases = collections.OrderedDict()
    graph = tf.Graph()
    with graph.as_default():
        t = tf.constant([1.0])
        sp = tf.SparseTensor(indices=[[0, 0]], values=[1.0], dense_shape=[2, 2])
    cases["tensor/flatten"] = lambda: nest.flatten([t, (t,)])
    cases["tensor/is_sequence"] = lambda: nest.is_sequence(t)
    cases["sparse/is_sequence"] = lambda: nest.is_sequence(sp)
    cases["sparse/is_sequence_or_composite"] = lambda: nest.is_sequence_or_composite(sp)
    cases["sparse/flatten"] = lambda: nest.flatten([sp])
    cases["sparse/flatten_expand"] = lambda: len(nest.flatten([sp], expand_composites=True))
    cases["sparse/pack_expand"] = lambda: nest.pack_sequence_as(
        [sp], nest.flatten([sp], expand_composites=True), expand_composites=True)
    return cases


def run(nest, tf=None):
    """Every case's result under ``nest`` (and the tensor cases when ``tf`` is given)."""
    cases = _cases(nest)
    if tf is not None:
        cases.update(_tensor_cases(nest, tf))
    return collections.OrderedDict((name, _call(fn)) for name, fn in cases.items())


def _main():
    import os

    import tensorflow as tf
    from tensorflow.python.util import nest as tf_nest

    # Run the cases from the module named ``battery`` (as the tests load it), so that the
    # classes in error messages read ``battery.Point`` in both.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import battery  # pylint: disable=import-self

    # The functions nest defines (is_sequence wraps a C function of pywrap): its API; the future
    # imports and the tf_export decorator it imported are left out.
    public = sorted(n for n, v in vars(tf_nest).items() if not n.startswith("_") and callable(v)
                    and getattr(v, "__module__", None) in (
                        tf_nest.__name__, "tensorflow.python.pywrap_tensorflow_internal"))
    json.dump({"tensorflow": tf.__version__, "python": "%d.%d" % sys.version_info[:2],
               "public": public, "results": battery.run(tf_nest, tf)}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    _main()
