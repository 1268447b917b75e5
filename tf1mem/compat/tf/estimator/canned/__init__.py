"""TF 1.15's canned estimators over v1 feature columns: owns the linear and DNN model_fns
(``linear.py``, ``dnn.py``), the heads that turn logits into losses, predictions and TF1's
metric keys (``head.py``), the ``optimizer=`` argument (``optimizers.py``) and the TF 1.15
checkpoint names of optimizer slots (``naming.py``)."""
