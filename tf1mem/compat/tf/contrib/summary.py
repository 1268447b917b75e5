"""``tf.contrib.summary``: TF 1.15's summary_ops_v2 API, on TF 2's own copy of it.

TF 1.15's ``tf.contrib.summary`` was not ``tf.summary`` (the v1 protobuf summaries)
but the resource-writer API that became TF 2's ``tf.summary``: a writer from
``create_file_writer(logdir, max_queue, flush_millis, filename_suffix)`` made default
with ``writer.as_default()``, recording switched by ``always_record_summaries()`` /
``never_record_summaries()`` / ``record_summaries_every_n_global_steps(n)``, summary
functions ``scalar/histogram/image/audio/generic(name, tensor, family=None,
step=None)`` whose step defaults to the global step, and, in graph mode,
``all_summary_ops()`` to run and ``initialize(graph, session)`` to open the writer.

TF 2.21 still carries that legacy API in ``tensorflow.python.ops.summary_ops_v2``:
this module owns the choice of exactly the names TF 1.15 exported (``__all__``),
with the two whose TF 2 name or meaning changed mapped to their TF 1.15 behaviour
(``all_summary_ops`` is ``all_v2_summary_ops``; ``graph`` is the v1 ``graph(param,
step, name)``, not TF 2's eager-only ``graph(graph_data)``; ``should_record_summaries``
is the contrib default, False outside a recording context). ``create_db_writer`` (the
SQLite writer) left with TF 2 and is named removed by tf1mem's table.
Tags, steps and values read back from the event file equal TF 1.15.5's (corpus
scripts ``contrib_summary_graph.py`` and ``contrib_summary_eager.py``). Nothing here
imports TensorFlow at import time.
"""

from tf1mem import _lazy

# TF 1.15's tf.contrib.summary names that summary_ops_v2 has under the same name and
# with the same behaviour.
_SAME = ("SummaryWriter", "always_record_summaries", "audio", "create_file_writer",
         "create_summary_file_writer", "eval_dir", "flush", "generic", "histogram",
         "image", "import_event", "initialize", "never_record_summaries",
         "record_summaries_every_n_global_steps", "scalar", "summary_writer_initializer_op")


_OPS = "tensorflow.python.ops.summary_ops_v2"
__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    **{name: _OPS for name in _SAME},
    "all_summary_ops": f"{_OPS}:all_v2_summary_ops",
    "graph": f"{_OPS}:graph_v1",
    "should_record_summaries": f"{_OPS}:_legacy_contrib_should_record_summaries",
})
