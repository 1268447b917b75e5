"""The TF 2 form of the TF1-only idioms that tf.compat.v1 still runs.

This module owns advice only, never whether a name exists or was removed (that is
:mod:`tf1mem.migrate.knowledge`, from the package's one table and TensorFlow itself).
Each entry names the section of docs/MIGRATION.md that shows both forms side by side,
which links the test that proves them equal; a name without an entry gets the generic advice.
A provided ``tf.contrib`` name gets one hint of its own (:data:`CONTRIB_HINTS`, else the
object it is, from :mod:`tf1mem.migrate.tf_names`): the TF 2 name and the one difference
that matters, never its module's inventory. ``tests/tf/test_scan_suggestions.py`` resolves
every name these forms print in the installed TensorFlow, tf-keras and tf-slim.
"""

__all__ = ["IDIOMS", "CONTRIB_HINTS", "ESTIMATOR", "CHANGED_IN_TF2", "tf2_form",
           "contrib_hint", "changed_meaning"]

# TF 2.16+ has no tf.estimator (and no tf.compat.v1.estimator): what to write instead.
ESTIMATOR = ("TF 2 has no Estimator (tf.estimator left TensorFlow in 2.16): keep it running "
             "under tf1mem.run (tf1mem's own tf.estimator), or migrate to a tf.keras.Model "
             "(compile/fit) or a custom loop with tf.GradientTape "
             "(docs/MIGRATION.md#estimator)")

# TF1 name prefix -> (TF 2 form, docs/MIGRATION.md section anchor). Longest prefix wins.
IDIOMS = {
    "tf.placeholder": ("arguments of a tf.function (tf.TensorSpec in its input_signature)",
                       "placeholders-and-feed_dict"),
    "tf.Session": ("call the tf.function (eager); no session", "session-and-configproto"),
    "tf.InteractiveSession": ("eager execution: values print directly",
                              "session-and-configproto"),
    "tf.ConfigProto": ("tf.config.experimental.set_memory_growth / "
                       "set_logical_device_configuration(memory_limit=...)",
                       "session-and-configproto"),
    "tf.GPUOptions": ("tf.config.experimental.set_memory_growth / "
                      "set_logical_device_configuration(memory_limit=...)",
                      "session-and-configproto"),
    "tf.global_variables_initializer": ("nothing: a tf.Variable holds its value when created",
                                        "variables-and-initialisers"),
    "tf.initialize_all_variables": ("nothing: a tf.Variable holds its value when created",
                                    "variables-and-initialisers"),
    "tf.get_variable": ("tf.Variable inside a tf.Module", "variables-and-initialisers"),
    "tf.variable_scope": ("a tf.Module (its name_scope)", "variables-and-initialisers"),
    "tf.train.GradientDescentOptimizer": ("tf.keras.optimizers.SGD, or w.assign_sub(lr * g) "
                                          "under tf.GradientTape", "optimisers"),
    "tf.train.AdamOptimizer": ("tf.keras.optimizers.Adam", "optimisers"),
    "tf.train.MomentumOptimizer": ("tf.keras.optimizers.SGD(momentum=...)", "optimisers"),
    "tf.train.Server": ("tf.distribute.Server", "server-clusterspec-and-device-scopes"),
    "tf.train.ClusterSpec": ("tf.train.ClusterSpec (same) with a tf.distribute strategy",
                             "server-clusterspec-and-device-scopes"),
    "tf.train.Saver": ("tf.train.Checkpoint + tf.train.CheckpointManager", "saver"),
    "tf.summary": ("tf.summary.create_file_writer + tf.summary.scalar(step=...)",
                   "summaries"),
    "tf.layers": ("tf.keras.layers", "tflayers"),
    "tf.train.string_input_producer": ("tf.data.Dataset", "queues"),
    "tf.train.slice_input_producer": ("tf.data.Dataset.from_tensor_slices", "queues"),
    "tf.train.batch": ("tf.data.Dataset.batch", "queues"),
    "tf.train.shuffle_batch": ("tf.data.Dataset.shuffle(...).batch(...)", "queues"),
    "tf.FIFOQueue": ("tf.data.Dataset", "queues"),
    "tf.log": ("tf.math.log", "placeholders-and-feed_dict"),
}

# tf.contrib name -> (TF 2 name, the one difference that matters). Names not here get
# the object they are under tf1mem (tf.compat.v1.X, tf_slim.X, tf1mem's own).
CONTRIB_HINTS = {
    # tf.contrib.layers (tf-slim's layers under tf1mem)
    "tf.contrib.layers.fully_connected": (
        "tf.keras.layers.Dense", "activation_fn defaults to ReLU here, Dense's activation "
        "to none; num_outputs is units, weights_initializer kernel_initializer"),
    "tf.contrib.layers.conv2d": (
        "tf.keras.layers.Conv2D", "padding defaults to 'SAME' and activation_fn to ReLU "
        "here, to 'valid' and none in Conv2D; num_outputs is filters"),
    "tf.contrib.layers.conv2d_transpose": (
        "tf.keras.layers.Conv2DTranspose", "padding defaults to 'SAME' and activation_fn "
        "to ReLU here, to 'valid' and none in Keras"),
    "tf.contrib.layers.separable_conv2d": (
        "tf.keras.layers.SeparableConv2D", "padding defaults to 'SAME' and activation_fn "
        "to ReLU here, to 'valid' and none in Keras"),
    "tf.contrib.layers.max_pool2d": (
        "tf.keras.layers.MaxPool2D", "stride defaults to 2 here; Keras's strides default "
        "to pool_size"),
    "tf.contrib.layers.avg_pool2d": (
        "tf.keras.layers.AveragePooling2D", "stride defaults to 2 here; Keras's strides "
        "default to pool_size"),
    "tf.contrib.layers.batch_norm": (
        "tf.keras.layers.BatchNormalization", "decay=0.999 is momentum (Keras's default "
        "0.99); scale defaults to False here (no gamma), to True in Keras; the moving "
        "averages update through tf.compat.v1.GraphKeys.UPDATE_OPS here, by the layer itself in "
        "Keras"),
    "tf.contrib.layers.dropout": (
        "tf.keras.layers.Dropout", "keep_prob (default 0.5) becomes rate = 1 - keep_prob; "
        "is_training becomes the call's training="),
    "tf.contrib.layers.flatten": (
        "tf.keras.layers.Flatten", "the same: keeps the batch dimension"),
    "tf.contrib.layers.layer_norm": (
        "tf.keras.layers.LayerNormalization", "normalises every axis but the batch's "
        "(begin_norm_axis=1) with epsilon 1e-12 here; Keras the last axis (axis=-1) with "
        "epsilon 1e-3"),
    "tf.contrib.layers.xavier_initializer": (
        "tf.keras.initializers.GlorotUniform", "uniform=False here is "
        "tf.keras.initializers.GlorotNormal"),
    "tf.contrib.layers.xavier_initializer_conv2d": (
        "tf.keras.initializers.GlorotUniform", "uniform=False here is "
        "tf.keras.initializers.GlorotNormal"),
    "tf.contrib.layers.variance_scaling_initializer": (
        "tf.keras.initializers.VarianceScaling", "factor defaults to 2.0 here (He), "
        "Keras's scale to 1.0; mode='FAN_IN' is mode='fan_in'"),
    "tf.contrib.layers.l2_regularizer": (
        "tf.keras.regularizers.L2", "l2_regularizer(scale) is scale * sum(w ** 2) / 2; "
        "L2(l2) has no / 2: pass l2 = scale / 2 for the same loss"),
    "tf.contrib.layers.l1_regularizer": (
        "tf.keras.regularizers.L1", "the same penalty, scale * sum(|w|)"),
    "tf.contrib.layers.embed_sequence": (
        "tf.keras.layers.Embedding", "vocab_size and embed_dim are input_dim and "
        "output_dim"),
    "tf.contrib.layers.real_valued_column": (
        "tf.feature_column.numeric_column", "dimension=d is shape=(d,)"),
    "tf.contrib.layers.sparse_column_with_hash_bucket": (
        "tf.feature_column.categorical_column_with_hash_bucket", "the same arguments "
        "(column_name is key)"),
    "tf.contrib.layers.sparse_column_with_keys": (
        "tf.feature_column.categorical_column_with_vocabulary_list", "keys is "
        "vocabulary_list"),
    "tf.contrib.layers.sparse_column_with_integerized_feature": (
        "tf.feature_column.categorical_column_with_identity", "bucket_size is num_buckets"),
    "tf.contrib.layers.sparse_column_with_vocabulary_file": (
        "tf.feature_column.categorical_column_with_vocabulary_file", "the same file, one "
        "entry a line"),
    "tf.contrib.layers.embedding_column": (
        "tf.feature_column.embedding_column", "sparse_id_column is categorical_column"),
    "tf.contrib.layers.bucketized_column": (
        "tf.feature_column.bucketized_column", "source_column is a numeric_column"),
    "tf.contrib.layers.crossed_column": (
        "tf.feature_column.crossed_column", "columns is keys"),
    "tf.contrib.layers.one_hot_column": (
        "tf.feature_column.indicator_column", "sparse_id_column is categorical_column"),
    "tf.contrib.layers.optimize_loss": (
        "tf.keras.optimizers.Optimizer.minimize", "optimize_loss also clips, decays the "
        "learning rate and writes summaries: do each by hand"),
    # tf.contrib.rnn (tf.compat.v1.nn.rnn_cell under tf1mem)
    "tf.contrib.rnn.BasicLSTMCell": (
        "tf.compat.v1.nn.rnn_cell.BasicLSTMCell (TF 2: tf.keras.layers.LSTMCell)",
        "forget_bias=1.0 is added to the forget gate at every step here; Keras's "
        "unit_forget_bias=True starts that bias at 1 instead; the gate order differs, so "
        "checkpoints do not carry over"),
    "tf.contrib.rnn.LSTMCell": (
        "tf.compat.v1.nn.rnn_cell.LSTMCell (TF 2: tf.keras.layers.LSTMCell)",
        "use_peepholes, num_proj and cell_clip have no Keras argument"),
    "tf.contrib.rnn.GRUCell": (
        "tf.compat.v1.nn.rnn_cell.GRUCell (TF 2: tf.keras.layers.GRUCell)",
        "TF1's cell applies the reset gate before the matrix product: "
        "GRUCell(reset_after=False), Keras's default is True"),
    "tf.contrib.rnn.BasicRNNCell": (
        "tf.compat.v1.nn.rnn_cell.BasicRNNCell (TF 2: tf.keras.layers.SimpleRNNCell)",
        "the same tanh step"),
    "tf.contrib.rnn.MultiRNNCell": (
        "tf.compat.v1.nn.rnn_cell.MultiRNNCell (TF 2: tf.keras.layers.StackedRNNCells)",
        "the state is a tuple of each cell's state in both"),
    "tf.contrib.rnn.DropoutWrapper": (
        "tf.compat.v1.nn.rnn_cell.DropoutWrapper (TF 2: the Keras cells' dropout= and "
        "recurrent_dropout=)", "keep probabilities become drop rates: rate = 1 - keep_prob"),
    "tf.contrib.rnn.LSTMStateTuple": (
        "tf.compat.v1.nn.rnn_cell.LSTMStateTuple (TF 2: a Keras LSTM's [h, c] state list)",
        "LSTMStateTuple is (c, h); Keras's state is [h, c]"),
    "tf.contrib.rnn.static_rnn": (
        "tf.compat.v1.nn.static_rnn (TF 2: tf.keras.layers.RNN(cell, unroll=True))",
        "static_rnn takes a list of [batch, ...] steps, Keras one [batch, time, ...] tensor"),
    "tf.contrib.rnn.static_bidirectional_rnn": (
        "tf.compat.v1.nn.static_bidirectional_rnn (TF 2: tf.keras.layers.Bidirectional)",
        "a list of steps here, one [batch, time, ...] tensor in Keras"),
    # tf.contrib.framework
    "tf.contrib.framework.get_or_create_global_step": (
        "tf.compat.v1.train.get_or_create_global_step (TF 2: the optimizer's iterations)",
        "a Keras optimizer counts its own steps"),
    "tf.contrib.framework.get_global_step": (
        "tf.compat.v1.train.get_global_step (TF 2: the optimizer's iterations)",
        "a Keras optimizer counts its own steps"),
    "tf.contrib.framework.arg_scope": (
        "tf_slim.arg_scope (TF 2 has no arg_scope)", "pass the arguments to each layer, "
        "or functools.partial"),
    "tf.contrib.framework.get_variables_to_restore": (
        "tf_slim.get_variables_to_restore (TF 2: tf.train.Checkpoint)", "a tf.train."
        "Checkpoint names the objects to restore instead of variable lists"),
    "tf.contrib.framework.assign_from_checkpoint_fn": (
        "tf_slim.assign_from_checkpoint_fn (TF 2: tf.train.Checkpoint.restore)",
        "TF 2 restores objects, not variables by name (tf.compat.v1.train.Saver reads "
        "TF1 checkpoints)"),
}

# After ``--rewrite``: TF 2 names tf_upgrade_v2 leaves (or writes) whose meaning is not
# their TF1 namesake's. Name prefix -> (said once a file, what changed).
CHANGED_IN_TF2 = {
    **{f"tf.summary.{_name}": (False, (
        "TF 2's summary op writes only under a default writer (with tf.summary."
        "create_file_writer(logdir).as_default():) and needs step= (or tf.summary."
        "experimental.set_step); TF1's returned a string tensor holding a Summary "
        "protobuf for a FileWriter (tf.compat.v1.summary." + _name + " keeps that)"))
       for _name in ("scalar", "histogram", "image", "audio", "text")},
    "tf.image.resize": (False, "TF 2's tf.image.resize samples at half-pixel centres (TF1's "
                               "resize_images did not, align_corners is gone): the "
                               "resized values differ"),
    "tf.keras": (True, "tf.keras is Keras 3 on TF 2.16+ (layers, optimizers and saved "
                       "files differ from TF1's Keras); TF1-era code, tf.compat.v1.layers "
                       "and tf-slim need tf-keras (pip install tf-keras, then "
                       "TF_USE_LEGACY_KERAS=1)"),
    "tf.compat.v1": (True, "tf.compat.v1 names left by tf_upgrade_v2 build a graph, and TF 2 "
                           "runs eagerly: placeholders, sessions and queues need "
                           "tf.compat.v1.disable_eager_execution() first (or tf1mem.run), "
                           "else their TF 2 form (the findings above)"),
}

# Provided modules whose TF1 names take their arguments in another order than their
# tf.compat.v1 namesakes: tf.contrib.M.X -> (tf.compat.v1 module, the difference).
_REORDERED = {
    "tf.contrib.losses": ("tf.compat.v1.losses", "contrib took predictions (or logits) "
                          "first, tf.compat.v1.losses takes labels first"),
    "tf.contrib.metrics": ("tf.compat.v1.metrics", "contrib took predictions first, "
                           "tf.compat.v1.metrics takes labels first"),
}


def tf2_form(tf1_name: str, in_compat_v1: bool = True) -> str:
    """The TF 2 form for a TF1-only name such as ``tf.train.Saver`` (``in_compat_v1``:
    TF 2's ``tf.compat.v1`` has the same name)."""
    if tf1_name == "tf.estimator" or tf1_name.startswith("tf.estimator."):
        return ESTIMATOR
    best = None
    for prefix in IDIOMS:
        if tf1_name == prefix or tf1_name.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    if best is None and not in_compat_v1:
        return (f"no TF 2 name (tf.compat.v1 lacks it too): runs under tf1mem.run as TF "
                f"1.15's {tf1_name}")
    if best is None:
        return (f"tf.compat.v1.{tf1_name[3:]} with TF 2 behaviour disabled, or its "
                f"TF 2 equivalent")
    form, anchor = IDIOMS[best]
    return f"{form} (docs/MIGRATION.md#{anchor})"


def contrib_hint(name: str, home: str = "", exists=lambda name: True) -> str:
    """One provided ``tf.contrib`` name's hint: its TF 2 name and the difference that
    matters (``home``: the public name of the object tf1mem serves, from the snapshot;
    ``exists(name)``: whether a ``tf.compat.v1`` name exists in the installed TF 2)."""
    if name in CONTRIB_HINTS:
        form, difference = CONTRIB_HINTS[name]
        return f"{form}: {difference}"
    module, _, leaf = name.rpartition(".")
    if module in _REORDERED:
        target, difference = _REORDERED[module]
        bare = leaf[len("streaming_"):] if leaf.startswith("streaming_") else leaf
        if exists(f"{target}.{bare}"):
            return f"{target}.{bare}: {difference}"
    if home.startswith("tf.compat.v1."):
        return f"{home} (the same object; tf1mem serves it from there)"
    if home.startswith("tf_slim."):
        return f"{home} (tf-slim, pip install tf-slim: the same function)"
    if home.startswith("tf1mem."):
        return (f"runs under tf1mem.run as TF 1.15's {name} ({home}); TF 2 has no name "
                f"of its own for it")
    if home:
        return f"{home} (the same object; tf1mem serves it from there)"
    return f"runs under tf1mem.run as TF 1.15's {name}"


def changed_meaning(name: str):
    """``(prefix, said once a file, what changed)`` when the TF 2 name ``name`` (e.g.
    ``tf.summary.scalar``) does not mean what its TF1 namesake did, else None."""
    best = None
    for prefix in CHANGED_IN_TF2:
        if name == prefix or name.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    if best is None:
        return None
    once, note = CHANGED_IN_TF2[best]
    return best, once, note
