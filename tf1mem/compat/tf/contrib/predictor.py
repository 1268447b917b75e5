"""``tf.contrib.predictor``: callables that serve a SavedModel or an Estimator in-process.

Owns the two constructors TF 1.15 code served with: :func:`from_saved_model` loads an
export (tag ``serve``) into its own graph and session, :func:`from_estimator` exports the
Estimator's latest checkpoint with a ``serving_input_receiver_fn`` and loads that. A
predictor is called with a dict of numpy inputs keyed like the signature's inputs and
returns a dict of numpy outputs keyed like its outputs, as in TF 1.15. Nothing here imports
TensorFlow at import time.
"""

__all__ = ["from_saved_model", "from_estimator"]

_DEFAULT_KEY = "serving_default"


class _SavedModelPredictor:
    """One loaded signature: ``feed_tensors`` and ``fetch_tensors`` are dicts of tensors."""

    def __init__(self, export_dir, signature_def_key=None, tags=None, graph=None,
                 config=None):
        import os

        import tensorflow as tf

        v1 = tf.compat.v1
        export_dir = os.fsdecode(export_dir)
        self.graph = graph or tf.Graph()
        self.session = v1.Session(graph=self.graph, config=config)
        with self.graph.as_default():
            meta = v1.saved_model.loader.load(self.session, tags or ["serve"], export_dir)
        key = signature_def_key or _DEFAULT_KEY
        if key not in meta.signature_def:
            self.session.close()
            raise ValueError(f"signature_def_key {key!r} is not in the SavedModel at "
                             f"{export_dir}; it has {sorted(meta.signature_def)} (pass one "
                             f"of them as signature_def_key)")
        signature = meta.signature_def[key]
        self.signature_def = signature
        self.feed_tensors = {k: self.graph.get_tensor_by_name(v.name)
                             for k, v in signature.inputs.items()}
        self.fetch_tensors = {k: self.graph.get_tensor_by_name(v.name)
                              for k, v in signature.outputs.items()}

    def __call__(self, input_dict):
        """Runs the signature on ``input_dict`` (a dict keyed like ``feed_tensors``)."""
        if not isinstance(input_dict, dict):
            raise ValueError(f"a predictor takes a dict of inputs keyed "
                             f"{sorted(self.feed_tensors)}, got {type(input_dict).__name__}")
        unknown = sorted(set(input_dict) - set(self.feed_tensors))
        if unknown:
            raise ValueError(f"predictor inputs {unknown} are not in the signature's inputs "
                             f"{sorted(self.feed_tensors)}")
        feed = {self.feed_tensors[k]: v for k, v in input_dict.items()}
        return self.session.run(self.fetch_tensors, feed_dict=feed)

    def __repr__(self):
        return (f"<tf.contrib.predictor inputs={sorted(self.feed_tensors)} "
                f"outputs={sorted(self.fetch_tensors)}>")


def from_saved_model(export_dir, signature_def_key=None, tags=None, graph=None,
                     config=None):
    """A predictor of the SavedModel at ``export_dir`` (signature 'serving_default').

    Raises:
      ValueError: ``signature_def_key`` not in the SavedModel (the message lists them).
    """
    return _SavedModelPredictor(export_dir, signature_def_key, tags, graph, config)


def from_estimator(estimator, serving_input_receiver_fn, output_key=None, graph=None,
                   config=None):
    """A predictor of ``estimator``'s latest checkpoint, fed by the receiver fn's tensors.

    ``output_key`` names the export output (signature) to serve, 'serving_default' when
    None. The export goes to a temporary folder that is removed once loaded.

    Raises:
      ValueError: the estimator has no checkpoint; ``output_key`` not among its signatures.
    """
    import shutil
    import tempfile

    base = tempfile.mkdtemp(prefix="tf1mem_predictor_")
    try:
        export_dir = estimator.export_saved_model(base, serving_input_receiver_fn)
        return _SavedModelPredictor(export_dir, output_key, None, graph, config)
    finally:
        shutil.rmtree(base, ignore_errors=True)
