"""The TF 2 form of the TF1-only idioms that tf.compat.v1 still runs.

This module owns advice only, never whether a name exists or was removed (that is
:mod:`tf1mem.migrate.knowledge`, from the package's one table and TensorFlow itself).
Each entry names the section of docs/MIGRATION.md that shows both forms side by side,
which links the test that proves them equal; a name without an entry gets the generic advice.
"""

__all__ = ["IDIOMS", "tf2_form"]

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


def tf2_form(tf1_name: str) -> str:
    """The TF 2 form for a TF1-only name such as ``tf.train.Saver``."""
    best = None
    for prefix in IDIOMS:
        if tf1_name == prefix or tf1_name.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    if best is None:
        return (f"tf.compat.v1.{tf1_name[3:]} with TF 2 behaviour disabled, or its "
                f"TF 2 equivalent")
    form, anchor = IDIOMS[best]
    return f"{form} (docs/MIGRATION.md#{anchor})"
