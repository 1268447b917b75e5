"""Checkpoint names of the canned estimators' optimizer slots, as TF 1.15 wrote them.

TF 1.15 saved the slots of a canned model under an extra path part that TF 2.21's v1
optimizers no longer create: ``<variable>/part_0/<slot>`` for the linear models'
(``.../weights/part_0/Ftrl``) and ``<variable>/t_0/<slot>`` for the DNN models'
(``.../kernel/t_0/Adagrad``). This module owns the Saver that reads and writes those
names, so a TF 1.15 model_dir resumes training here and ours reads back in TF 1.15.
"""

__all__ = ["tf1_slot_scaffold"]


def tf1_slot_scaffold(optimizer, infix, config):
    """A Scaffold whose Saver maps our slot names to TF 1.15's (``infix``: part_0, t_0)."""
    import tensorflow as tf
    from tensorflow.python.training.saving import saveable_object_util

    v1 = tf.compat.v1
    names = saveable_object_util.op_list_to_dict(
        v1.global_variables() + v1.get_collection(v1.GraphKeys.SAVEABLE_OBJECTS))
    key_of = {}
    for key, value in names.items():
        for part in (value if isinstance(value, (list, tuple)) else [value]):
            key_of[id(part)] = key
    renamed = dict(names)
    for var in v1.trainable_variables():
        primary = key_of.get(id(var))
        if primary is None:
            continue
        for slot_name in optimizer.get_slot_names():
            slot = optimizer.get_slot(var, slot_name)
            key = key_of.get(id(slot)) if slot is not None else None
            if key is None or not key.startswith(primary + "/"):
                continue
            renamed[f"{primary}/{infix}{key[len(primary):]}"] = renamed.pop(key)
    saver = v1.train.Saver(renamed, sharded=True, max_to_keep=config.keep_checkpoint_max,
                           keep_checkpoint_every_n_hours=config.keep_checkpoint_every_n_hours,
                           save_relative_paths=True)
    return v1.train.Scaffold(saver=saver)
