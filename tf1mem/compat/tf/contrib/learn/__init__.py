"""The parts of ``tf.contrib.learn`` that TF1 code kept using after its Estimators.

Owns: ``preprocessing`` (``VocabularyProcessor``, ``CategoricalVocabulary``,
``tokenizer``, ``TOKENIZER_RE``), ``datasets`` (``mnist`` is tf1mem's MNIST loader,
``load_dataset("mnist")``), ``ModeKeys`` (TF1's learn keys: ``"train"``, ``"eval"``,
``"infer"``), ``RunConfig`` (TF 1.15's contrib signature on tf1mem's
``tf.estimator.RunConfig``), ``Experiment``, ``learn_runner`` and the export strategies
(``make_export_strategy``, ``ExportStrategy``) around a core ``tf.estimator.Estimator``,
and the canned models of :mod:`.estimators` (``DNNClassifier``, ``DNNRegressor``,
``LinearClassifier``, ``LinearRegressor``, ``DNNLinearCombinedClassifier`` /
``Regressor``, the contrib ``Estimator(model_fn)`` with ``ModelFnOps``, ``MetricSpec``,
``PredictionKey``, ``SKCompat``, ``NotFittedError``,
``infer_real_valued_columns_from_input``), and ``monitors`` (``BaseMonitor``, ``EveryN``,
``ValidationMonitor`` run as session hooks: :mod:`.monitors`). Everything else (the other
monitors) is named removed by tf1mem's table, with a replacement. Values equal TF 1.15.5's
(corpus scripts ``contrib_learn.py``, ``contrib_learn_experiment.py``,
``contrib_learn_canned.py``, ``contrib_learn_feature_columns.py``,
``contrib_learn_more_columns.py``, ``contrib_learn_custom_model.py``). Nothing here imports TensorFlow at import time.
"""

from tf1mem import _lazy

__getattr__, __dir__, __all__ = _lazy.attach(__name__, {
    'io': '.io:',
    'ModeKeys': '.model_fn',
    'RunConfig': '.run_config',
    'Experiment': '.experiment',
    'learn_runner': '.learn_runner:',
    'ExportStrategy': '.export_strategy',
    'make_export_strategy': '.export_strategy',
    'datasets': '.datasets:',
    'preprocessing': '.preprocessing:',
    'utils': '.utils:',
    'monitors': '.monitors:',
    'DNNClassifier': '.estimators',
    'DNNRegressor': '.estimators',
    'DNNLinearCombinedClassifier': '.estimators',
    'DNNLinearCombinedRegressor': '.estimators',
    'Estimator': '.estimators',
    'LinearClassifier': '.estimators',
    'LinearRegressor': '.estimators',
    'MetricSpec': '.estimators',
    'ModelFnOps': '.estimators',
    'NotFittedError': '.estimators',
    'PredictionKey': '.estimators',
    'SKCompat': '.estimators',
    'infer_real_valued_columns_from_input': '.estimators',
})
