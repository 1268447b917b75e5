"""tf.contrib.training.HParams as 2017-2019 model code used it: defaults, parse of a
--hparams string, values/to_json, set_hparam/add_hparam/override_from_dict and their
type checks."""
from __future__ import print_function

import tensorflow as tf


def create_hparams(hparams_string=None):
    hparams = tf.contrib.training.HParams(
        learning_rate=0.001, num_layers=2, hidden_size=128, cell_type="lstm",
        use_batch_norm=True, layer_sizes=[256, 128], dropout=0.5)
    if hparams_string:
        hparams.parse(hparams_string)
    return hparams


def attempt(label, fn):
    try:
        print(label, repr(fn()))
    except Exception as e:  # pylint: disable=broad-except
        print(label, type(e).__name__, e)


hp = create_hparams("learning_rate=0.01,num_layers=4,cell_type=gru,use_batch_norm=false,"
                    "layer_sizes=[512,256,64]")
print("values:", sorted(hp.values().items()))
print("json:", hp.to_json(sort_keys=True))
print("str:", str(hp))
print("repr:", repr(hp))
print("attrs:", hp.learning_rate, hp.num_layers, hp.cell_type, hp.use_batch_norm, hp.layer_sizes)
hp.set_hparam("dropout", 1)
hp.add_hparam("batch_size", 32)
hp.override_from_dict({"hidden_size": 64, "dropout": 0.25})
print("after set:", repr(hp.dropout), hp.batch_size, hp.hidden_size)
print("contains:", "batch_size" in hp, "nope" in hp, hp.get("nope", 7), hp.get("dropout", 1))
hp.parse_json('{"num_layers": 6}')
print("parse_json:", hp.num_layers)
hp.del_hparam("batch_size")
print("deleted:", "batch_size" in hp)
attempt("int from float:", lambda: create_hparams("num_layers=2.5"))
attempt("bad float:", lambda: create_hparams("learning_rate=fast"))
attempt("unknown:", lambda: create_hparams("momentum=0.9"))
attempt("twice:", lambda: create_hparams("num_layers=1,num_layers=2"))
attempt("list for scalar:", lambda: create_hparams("cell_type=[a,b]"))
attempt("scalar for list:", lambda: create_hparams("layer_sizes=3"))
attempt("malformed:", lambda: create_hparams("num_layers"))
attempt("bool from int:", lambda: create_hparams("use_batch_norm=0").use_batch_norm)
attempt("bool yes:", lambda: create_hparams("use_batch_norm=yes"))
attempt("set float to int:", lambda: hp.set_hparam("num_layers", 2.0))
attempt("set bool to float:", lambda: hp.set_hparam("dropout", True))
attempt("set unknown:", lambda: hp.set_hparam("momentum", 0.9))
attempt("add reserved:", lambda: hp.add_hparam("values", 1))
attempt("add existing:", lambda: hp.add_hparam("dropout", 1.0))
attempt("add empty list:", lambda: hp.add_hparam("empty", []))
attempt("get bad default:", lambda: hp.get("num_layers", "x"))
attempt("get list default:", lambda: hp.get("layer_sizes", 2))
attempt("index:", lambda: create_hparams("num_layers[0]=3"))
attempt("str value:", lambda: create_hparams("cell_type=x=y").cell_type)
attempt("empty list:", lambda: create_hparams("layer_sizes=[]").layer_sizes)
attempt("float from int:", lambda: create_hparams("dropout=1").dropout)
attempt("equal:", lambda: create_hparams() == create_hparams())
