"""One training step measured in a fresh session of this process.

What ``python -m tf1mem.memory measure`` runs (and so each point of a sweep or a fit,
each in its own process): the caller builds the graph and says how to feed a batch;
here the session is made (its allocator capped where asked, and the cap checked),
the variables initialized, and the step measured with
:func:`tf1mem.observe.step_memory.measure_step`. A step that runs out of memory
becomes :func:`tf1mem.observe.oom.out_of_memory_error`, with the largest batch
predicted to fit. Nothing here reads the command line; TensorFlow is imported only
inside functions.
"""

from typing import Callable, Optional, Sequence

from tf1mem.observe import caps, oom
from tf1mem.observe.step_memory import StepMemory, measure_step

__all__ = ["measure_training_step"]


def measure_training_step(graph, init_op, train_op, feed: Callable[[int], dict],
                          batch_size: int, *, steps: int = 3, timed_steps: int = 0,
                          memory_limit: Optional[int] = None,
                          oom_report: Optional[str] = None,
                          tf_log: Optional[Callable[[], Sequence[str]]] = None) -> StepMemory:
    """Measures ``train_op`` at ``batch_size`` in a new session on ``graph``.

    Args:
      graph: the ``tf.Graph`` holding the step; no session has run it yet.
      init_op: initializes the graph's variables.
      train_op: the training step (applied ``1 + steps + timed_steps`` times).
      feed: ``feed(batch) -> feed_dict`` for a batch of ``batch`` examples.
      batch_size: the batch measured.
      steps: traced runs; the largest figures are kept.
      timed_steps: untraced runs timed for the step time.
      memory_limit: bytes; where given, the session's GPUs get one virtual device of
        that size, and the step runs only once TensorFlow has refused more than it
        (:func:`tf1mem.observe.caps.check_cap`). The CPU's cap must already be in
        the environment (:func:`tf1mem.observe.caps.cap_environment`, before
        TensorFlow loads).
      oom_report: the file for TensorFlow's whole out-of-memory message (None: a new
        file in tf1mem's report folder, :func:`tf1mem._places.report_dir`).
      tf_log: returns TensorFlow's log lines held back from the console (the
        allocator's dump, :meth:`tf1mem._tflog.QuietTensorFlow.allocator_lines`),
        written to the report after the message; None: none held.

    Returns:
      The step's :class:`~tf1mem.observe.step_memory.StepMemory`.

    Raises:
      tf1mem.Error: the step ran out of memory (the message explains it), or the cap
        did not take effect.
    """
    import tensorflow as tf

    config = caps.capped_config(memory_limit) if memory_limit else None
    with tf.compat.v1.Session(graph=graph, config=config) as sess:
        if memory_limit:
            caps.check_cap(sess, graph, memory_limit)
        sess.run(init_op)
        try:
            return measure_step(sess, train_op, feed(batch_size), steps=steps,
                                timed_steps=timed_steps, batch_size=batch_size)
        except tf.errors.ResourceExhaustedError as exc:
            predicted = oom.predict_after_oom(sess, train_op, feed, batch_size, exc)
            report = oom.explain_oom(exc, graph, batch_size, predicted)
            raise oom.out_of_memory_error(report, oom_report,
                                          tf_log() if tf_log else ()) from None
