"""tf.contrib.layers' feature columns beyond those of the 2017 wide-and-deep tutorial:
sparse_column_with_integerized_feature, sparse_column_with_vocabulary_file,
weighted_sparse_column, one_hot_column, shared_embedding_columns and crossed_column, and
input_from_feature_columns / weighted_sum_from_feature_columns. Their outputs in models
against TF 1.15.5 are the corpus script contrib_learn_more_columns.py; these tests check
each column's record (TF 1.15.5's reprs and names), its ids (the crossed ids measured on
TF 1.15.5), its values in a layer, and bad arguments named."""

import numpy as np
import pytest

from tf1mem.compat.tf.contrib import layers as fc


@pytest.fixture
def tf():
    import tensorflow as tf

    with tf.Graph().as_default():
        yield tf


def _run(tf, *fetches):
    with tf.compat.v1.Session() as session:
        session.run([tf.compat.v1.global_variables_initializer(),
                     tf.compat.v1.tables_initializer()])
        return session.run(list(fetches))


def _keys():
    return fc.sparse_column_with_keys("k", keys=["x", "y", "z", "q"])


def test_records_print_and_name_as_tf115s():
    device = fc.sparse_column_with_integerized_feature("device", 5)
    tags = fc.sparse_column_with_hash_bucket("h", 10)
    # TF 1.15.5's reprs of the same columns.
    assert repr(device) == (
        "_SparseColumnIntegerized(column_name='device', is_integerized=True, bucket_size=5, "
        "lookup_config=None, combiner='sum', dtype=tf.int64)")
    vocab = fc.sparse_column_with_vocabulary_file("v", "v.txt", num_oov_buckets=2,
                                                  vocab_size=3)
    assert repr(vocab) == (
        "_SparseColumnVocabulary(column_name='v', is_integerized=False, bucket_size=None, "
        "lookup_config=_SparseIdLookupConfig(vocabulary_file='v.txt', keys=None, "
        "num_oov_buckets=2, vocab_size=3, default_value=-1), combiner='sum', dtype=tf.string)")
    assert (vocab.name, vocab.length) == ("v", 5)
    weighted = fc.weighted_sparse_column(tags, "hw")
    assert repr(weighted) == (
        "_WeightedSparseColumn(sparse_id_column=_SparseColumnHashed(column_name='h', "
        "is_integerized=False, bucket_size=10, lookup_config=None, combiner='sum', "
        "dtype=tf.string), weight_column_name='hw', dtype=tf.float32)")
    assert (weighted.name, weighted.length) == ("h_weighted_by_hw", 10)
    one_hot = fc.one_hot_column(tags)
    assert repr(one_hot) == (
        "_OneHotColumn(sparse_id_column=_SparseColumnHashed(column_name='h', "
        "is_integerized=False, bucket_size=10, lookup_config=None, combiner='sum', "
        "dtype=tf.string))")
    assert (one_hot.name, fc.one_hot_column(weighted).name) == ("h_one_hot",
                                                                "h_weighted_by_hw_one_hot")
    crossed = fc.crossed_column([_keys(), tags], 100)
    # Columns sorted by name; TF 1.15.5's repr.
    assert repr(crossed) == (
        "_CrossedColumn(columns=(_SparseColumnHashed(column_name='h', is_integerized=False, "
        "bucket_size=10, lookup_config=None, combiner='sum', dtype=tf.string), "
        "_SparseColumnKeys(column_name='k', is_integerized=False, bucket_size=None, "
        "lookup_config=_SparseIdLookupConfig(vocabulary_file=None, keys=('x', 'y', 'z', 'q'), "
        "num_oov_buckets=0, vocab_size=4, default_value=-1), combiner='sum', "
        "dtype=tf.string)), hash_bucket_size=100, hash_key=None, combiner='sum', "
        "ckpt_to_load_from=None, tensor_name_in_ckpt=None)")
    assert (crossed.name, crossed.length) == ("h_X_k", 100)
    assert fc.crossed_column([crossed, device], 50).name == "device_X_h_X_k"


def test_shared_embedding_columns_are_named_as_tf115s():
    hashed = fc.sparse_column_with_hash_bucket("h4", 4)
    shared = fc.shared_embedding_columns([_keys(), hashed], 3)
    assert isinstance(shared, tuple)
    assert [c.name for c in shared] == ["k_shared_embedding", "h4_shared_embedding"]
    assert {c.shared_embedding_name for c in shared} == {"h4_k_shared_embedding"}
    assert shared[0].key == (
        "_EmbeddingColumn(sparse_id_column=_SparseColumnKeys(column_name='k', "
        "is_integerized=False, bucket_size=None, lookup_config=_SparseIdLookupConfig("
        "vocabulary_file=None, keys=('x', 'y', 'z', 'q'), num_oov_buckets=0, vocab_size=4, "
        "default_value=-1), combiner='sum', dtype=tf.string), dimension=3, combiner=mean, "
        "ckpt_to_load_from=None, tensor_name_in_ckpt=None, "
        "shared_embedding_name=h4_k_shared_embedding, shared_vocab_size=4, max_norm=None, "
        "trainable=True)")
    one = fc.shared_embedding_columns([_keys()], 2, shared_embedding_name="mine")
    assert isinstance(one, list) and one[0].shared_embedding_name == "mine"
    assert fc.shared_embedding_columns([_keys(), _keys()], 2)[0].shared_embedding_name == (
        "k_k_shared_embedding")


def _crossed_features(tf, sparse):
    a = (tf.SparseTensor([[0, 0], [0, 1], [2, 0]], ["p", "pp", "r"], [3, 2]) if sparse
         else tf.constant([["p"], ["q"], ["r"]]))
    return {"a": a, "b": tf.constant([["x"], ["z"], ["y"]]),
            "i": tf.constant([[3], [12], [5]], tf.int64),
            "age": tf.constant([[5.], [15.], [25.]])}


# TF 1.15.5's SparseFeatureCross ids for these inputs (transform_features on the oracle).
@pytest.mark.parametrize("sparse, a_x_b, a_x_age_x_i, nested", [
    (False, [813, 790, 64], [16190, 64208, 23410], [21, 36, 11]),
    (True, [813, 380, 64], [65521, 10399, 67433], [21, 25, 11]),
])
def test_crossed_ids_are_tf115s(tf, sparse, a_x_b, a_x_age_x_i, nested):
    a = fc.sparse_column_with_hash_bucket("a", 10)
    b = fc.sparse_column_with_keys("b", ["x", "y", "z"])
    i = fc.sparse_column_with_integerized_feature("i", 7)
    age = fc.bucketized_column(fc.real_valued_column("age"), [10., 20.])
    a_b = fc.crossed_column([b, a], 1000)
    crosses = [a_b, fc.crossed_column([a, i, age], 100000), fc.crossed_column([a_b, i], 50)]
    features = _crossed_features(tf, sparse)
    got = _run(tf, *[c.sparse_ids(features) for c in crosses])
    rows = [[0, 0], [0, 1], [2, 0]] if sparse else [[0, 0], [1, 0], [2, 0]]
    assert [g.indices.tolist() for g in got] == [rows] * 3
    assert [g.values.tolist() for g in got] == [a_x_b, a_x_age_x_i, nested]
    assert got[0].dense_shape.tolist() == [3, 2 if sparse else 1]


def _random_cross_inputs(tf):
    rng = np.random.RandomState(11)
    words = np.array(["w%d" % i for i in range(30)] + ["", "longer string value", "caf\u00e9"])
    rows, values, integers = [], [], []
    for row in range(25):
        for position in range(rng.randint(0, 4)):
            rows.append([row, position])
            values.append(words[rng.randint(0, len(words))])
            integers.append(int(rng.randint(-5, 10**12)))
    return {"s": tf.SparseTensor(rows, values, [25, 3]),
            "si": tf.SparseTensor(rows, np.array(integers, np.int64), [25, 3]),
            "d": tf.constant(words[rng.randint(0, 30, (25, 2))]),
            "di": tf.constant(rng.randint(0, 2**40, (25, 1)).astype(np.int64)),
            "r": tf.constant(rng.uniform(0, 10, (25, 2)).astype(np.float32))}


def test_crossed_ids_of_random_inputs_are_tf115s(tf):
    s = fc.sparse_column_with_hash_bucket("s", 5)
    si = fc.sparse_column_with_integerized_feature("si", 5)
    d = fc.sparse_column_with_hash_bucket("d", 5)
    di = fc.sparse_column_with_hash_bucket("di", 5, dtype=tf.int64)
    r = fc.bucketized_column(fc.real_valued_column("r", dimension=2), [2., 5., 8.])
    crosses = [fc.crossed_column([s, d], 2), fc.crossed_column([d, di], 97),
               fc.crossed_column([s, si, r], 10**6), fc.crossed_column([di, r, d, s], 12345),
               fc.crossed_column([fc.crossed_column([s, di], 3), d], 2**40),
               fc.crossed_column([s, d], 1000, hash_key=123456789)]
    got = _run(tf, *[c.sparse_ids(_random_cross_inputs(tf)) for c in crosses])
    # TF 1.15.5's (transform_features on the same inputs): dense shape, number of ids, sum
    # of the indices, the first ids, the sum of all ids.
    assert [(g.dense_shape.tolist(), len(g.values), int(g.indices.sum()),
             g.values[:8].tolist(), int(g.values.sum())) for g in got] == [
        ([25, 6], 76, 986, [1, 0, 0, 1, 0, 1, 1, 0], 38),
        ([25, 2], 50, 625, [75, 42, 10, 1, 42, 58, 53, 33], 1884),
        ([25, 18], 176, 3064, [177436, 606107, 660194, 525947, 310750, 493960, 789235,
                               729108], 85298190),
        ([25, 12], 152, 2324, [10525, 10453, 11223, 595, 1232, 10063, 6606, 5059], 984987),
        ([25, 6], 76, 986, [548190097839, 708999399897, 958490276651, 838566153202,
                            246895428821, 803403391746, 175963029660, 422895683573],
         44065462175116),
        ([25, 6], 76, 986, [807, 95, 55, 65, 981, 693, 166, 366], 34498),
    ]


def test_crossed_ids_with_a_hash_key_are_tf115s(tf):
    keys = fc.sparse_column_with_keys("k", ["x", "y"])
    hashed = fc.sparse_column_with_hash_bucket("h", 10)
    features = {"h": tf.SparseTensor([[0, 0], [0, 1], [2, 0]], ["p", "pp", "r"], [3, 2]),
                "k": tf.constant([["x"], ["z"], ["y"]])}
    got, = _run(tf, fc.crossed_column([keys, hashed], 64, hash_key=7).sparse_ids(features))
    assert got.values.tolist() == [37, 44, 63]  # TF 1.15.5's


def test_integerized_and_vocabulary_ids(tf, tmp_path):
    vocabulary = tmp_path / "words.txt"
    vocabulary.write_text("apple\nbanana\ncherry\n")
    device = fc.sparse_column_with_integerized_feature("device", 5)
    words = fc.sparse_column_with_vocabulary_file("w", str(vocabulary), num_oov_buckets=2,
                                                  vocab_size=3)
    dropping = fc.sparse_column_with_vocabulary_file("w", str(vocabulary), vocab_size=2)
    features = {"device": tf.constant([[3], [12], [-1]], tf.int64),
                "w": tf.constant([["cherry"], ["apple"], ["kiwi"], [""]])}
    ids, word_ids, dropped = _run(tf, device.sparse_ids(features), words.sparse_ids(features),
                                  dropping.sparse_ids(features))
    # -1 is no value (dropped); the others modulo 5.
    assert ids.values.tolist() == [3, 2] and ids.indices.tolist() == [[0, 0], [1, 0]]
    assert word_ids.values.tolist()[:2] == [2, 0] and word_ids.values[2] in (3, 4)
    assert word_ids.indices.tolist() == [[0, 0], [1, 0], [2, 0]]
    # Past vocab_size, without oov buckets: default_value -1.
    assert dropped.values.tolist() == [-1, 0, -1]


def test_one_hot_and_weighted_values_in_an_input_layer(tf):
    tags = fc.sparse_column_with_keys("tags", ["red", "green", "blue"])
    weighted = fc.weighted_sparse_column(tags, "tag_w")
    init = tf.compat.v1.constant_initializer([[1., 10.], [2., 20.], [3., 30.]])
    columns = [fc.one_hot_column(tags), fc.one_hot_column(weighted)] + [
        fc.embedding_column(weighted, 2, combiner=combiner, initializer=init)
        for combiner in ("sum", "mean", "sqrtn")]
    features = {"tags": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], ["red", "blue", "gold"],
                                        [3, 2]),
                "tag_w": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0.5, 2.0, 4.0], [3, 2])}
    outs = {}
    layer = fc.input_from_feature_columns(features, columns, cols_to_outs=outs)
    got = dict(zip(outs, _run(tf, *outs.values())))
    assert layer.shape.as_list() == [3, 12]
    by_name = {c.name: v for c, v in got.items()}
    np.testing.assert_allclose(by_name["tags_one_hot"], [[1, 0, 1], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_allclose(by_name["tags_weighted_by_tag_w_one_hot"],
                               [[0.5, 0, 2], [0, 0, 0], [0, 0, 0]])
    embedded = [v for c, v in got.items() if c.name == "tags_weighted_by_tag_w_embedding"]
    row = np.array([0.5 * 1 + 2 * 3, 0.5 * 10 + 2 * 30])
    expected = [row, row / 2.5, row / np.sqrt(0.25 + 4)]
    combiners = [c.combiner for c in got if c.name == "tags_weighted_by_tag_w_embedding"]
    for combiner, value in zip(combiners, embedded):
        want = expected[("sum", "mean", "sqrtn").index(combiner)]
        np.testing.assert_allclose(value, [want, [0, 0], [0, 0]], rtol=1e-6)


def test_shared_embedding_is_one_variable(tf):
    first = fc.sparse_column_with_integerized_feature("d1", 4)
    second = fc.sparse_column_with_integerized_feature("d2", 4)
    shared = fc.shared_embedding_columns([first, second], 2, combiner="sum")
    features = {"d1": tf.constant([[1], [3]], tf.int64), "d2": tf.constant([[1], [0]], tf.int64)}
    layer = fc.input_from_feature_columns(features, shared, scope="deep")
    variables = tf.compat.v1.global_variables()
    assert [v.op.name for v in variables] == ["deep/d1_shared_embedding/d1_d2_shared_embedding"]
    value, table = _run(tf, layer, variables[0])
    np.testing.assert_allclose(value, np.concatenate([table[[1, 3]], table[[1, 0]]], 1))


def test_weighted_sum_returns_output_variables_and_bias(tf):
    device = fc.sparse_column_with_integerized_feature("device", 5)
    tags = fc.weighted_sparse_column(fc.sparse_column_with_hash_bucket("tags", 8), "w")
    age = fc.real_valued_column("age")
    features = {"device": tf.constant([[3], [7]], tf.int64), "age": tf.constant([1., 2.]),
                "tags": tf.SparseTensor([[0, 0], [1, 0]], ["a", "b"], [2, 1]),
                "w": tf.SparseTensor([[0, 0], [1, 0]], [2., 3.], [2, 1])}
    out, column_to_variable, bias = fc.weighted_sum_from_feature_columns(
        features, [device, tags, age], num_outputs=2)
    assert out.shape.as_list() == [2, 2] and bias.op.name == (
        "weighted_sum_from_feature_columns/bias_weight")
    assert {c.name: [v.op.name for v in vs] for c, vs in column_to_variable.items()} == {
        "device": ["weighted_sum_from_feature_columns/device/weights"],
        "tags_weighted_by_w": ["weighted_sum_from_feature_columns/tags_weighted_by_w/weights"],
        "age": ["weighted_sum_from_feature_columns/age/weight"]}
    ramp = np.arange(10, dtype=np.float32).reshape(5, 2)
    assigns = [tf.compat.v1.assign(column_to_variable[device][0], ramp),
               tf.compat.v1.assign(bias, [100., 200.])]
    with tf.compat.v1.Session() as session:
        session.run(tf.compat.v1.global_variables_initializer())
        session.run(assigns)
        got = session.run(out)
    # Rows 3 and 7 % 5 = 2 of the ramp, plus the bias; the other weights are zeros.
    np.testing.assert_allclose(got, [[106., 207.], [104., 205.]])


def test_columns_a_model_cannot_take_say_what_to_use(tf):
    tags = fc.sparse_column_with_hash_bucket("tags", 8)
    features = {"tags": tf.constant([["a"]])}
    with pytest.raises(ValueError, match=r"not supported in linear models.*sparse_column_with"):
        fc.weighted_sum_from_feature_columns(features, [fc.one_hot_column(tags)], 1)
    with pytest.raises(ValueError, match=r"CrossedColumn is not supported in DNN.*embedding_"):
        fc.input_from_feature_columns(
            features, [fc.crossed_column([tags, fc.sparse_column_with_hash_bucket("b", 2)], 4)])
    with pytest.raises(ValueError, match=r"'missing' is not among the features"):
        fc.input_from_feature_columns(
            features, [fc.one_hot_column(fc.sparse_column_with_integerized_feature("missing",
                                                                                   3))])


@pytest.mark.parametrize("build, error, message", [
    (lambda: fc.sparse_column_with_integerized_feature("i", 0), ValueError,
     r"bucket_size must be an integer >= 1, got 0"),
    (lambda: fc.sparse_column_with_integerized_feature("i", 3, dtype="string"), ValueError,
     r"dtype must be an integer dtype"),
    (lambda: fc.sparse_column_with_integerized_feature("i", 3, combiner="max"), ValueError,
     r"combiner must be .*got 'max'"),
    (lambda: fc.sparse_column_with_vocabulary_file("v", "v.txt"), ValueError,
     r"vocab_size should be defined.*'v.txt'"),
    (lambda: fc.sparse_column_with_vocabulary_file("v", "v.txt", vocab_size=3,
                                                   num_oov_buckets=-1), ValueError,
     r"num_oov_buckets must be an integer >= 0, got -1"),
    (lambda: fc.sparse_column_with_vocabulary_file("v", "v.txt", vocab_size=3,
                                                   num_oov_buckets=1, default_value=0),
     ValueError, r"num_oov_buckets \(1\) or default_value \(0\), not both"),
    (lambda: fc.sparse_column_with_vocabulary_file("v", "v.txt", vocab_size=3,
                                                   dtype="float32"), ValueError,
     r"dtype must be string or integer"),
    (lambda: fc.weighted_sparse_column(fc.real_valued_column("r"), "w"), TypeError,
     r"sparse_column_with_\* column, got _RealValuedColumn"),
    (lambda: fc.weighted_sparse_column(_keys(), "w", dtype="string"), ValueError,
     r"not convertible to float"),
    (lambda: fc.one_hot_column(fc.real_valued_column("r")), TypeError,
     r"one_hot_column: sparse_id_column must be .*got _RealValuedColumn"),
    (lambda: fc.shared_embedding_columns([], 3), ValueError, r"at least one element"),
    (lambda: fc.shared_embedding_columns(_keys(), 3), TypeError, r"must be a list"),
    (lambda: fc.shared_embedding_columns([_keys(), fc.real_valued_column("r")], 3),
     TypeError, r"got _RealValuedColumn"),
    (lambda: fc.shared_embedding_columns(
        [_keys(), fc.sparse_column_with_integerized_feature("i", 4)], 3), ValueError,
     r"not compatible: k and i"),
    (lambda: fc.shared_embedding_columns([_keys(), _keys()], 0), ValueError,
     r"dimension must be an integer >= 1, got 0"),
    (lambda: fc.crossed_column([_keys()], 10), ValueError, r"at least 2 elements"),
    (lambda: fc.crossed_column([_keys(), fc.sparse_column_with_hash_bucket("h", 3)], 1),
     ValueError, r"hash_bucket_size must be an integer >= 2, got 1"),
    (lambda: fc.crossed_column([_keys(), fc.real_valued_column("r")], 10), TypeError,
     r"got _RealValuedColumn"),
    (lambda: fc.crossed_column([_keys(), fc.sparse_column_with_hash_bucket("h", 3)], 10,
                               hash_key="7"), ValueError, r"hash_key must be .*got '7'"),
    (lambda: fc.crossed_column([_keys(), fc.sparse_column_with_hash_bucket("h", 3)], 10,
                               hash_key=1 << 63), ValueError, r"64-bit signed integer, got 9"),
    (lambda: fc.crossed_column([_keys(), fc.sparse_column_with_hash_bucket("h", 3)], 10,
                               ckpt_to_load_from="ckpt"), NotImplementedError,
     r"init_from_checkpoint"),
    (lambda: fc.weighted_sum_from_feature_columns({}, [_keys()], 0), ValueError,
     r"num_outputs must be an integer >= 1, got 0"),
    (lambda: fc.input_from_feature_columns([], [_keys()]), TypeError,
     r"columns_to_tensors must be a dict"),
    (lambda: fc.input_from_feature_columns({}, []), ValueError, r"must not be empty"),
])
def test_bad_arguments_are_named(build, error, message):
    with pytest.raises(error, match=message):
        build()
