"""tf1mem's table: where every TF1 name tf1mem knows lives under TensorFlow 2.

Data only: nothing here imports TensorFlow or an implementation, so the runtime, the
migration scanner and the docs generator read it cheaply, and implementations may
import it (for :data:`REMOVED_SYMBOLS`) without forming a circle. For each name, one of:

- a home: :data:`CONTRIB_MODULES` maps ``tf.contrib.<name>`` to its *sources*, first
  match wins. A source is a module's dotted name (``"tf_slim"``, or tf1mem's own
  re-implementation at its TF1 path, ``"tf1mem.compat.tf.contrib.rnn"``) or an attribute
  path of one (``"tensorflow:compat.v1.nn.rnn_cell"``; see :func:`tf1mem._lazy.resolve`).
  A single string means the module *is* ``tf.contrib.<name>``; a tuple builds a module
  that looks each name up in the sources in turn (a tf1mem module serves its
  ``__all__``). :data:`MODULE_ALIASES` maps deeper TF1 module paths to the module they
  are (:data:`MODULE_PREFIX_ALIASES` whole subtrees, :data:`CONTRIB_SUBMODULES` and
  :data:`CONTRIB_PACKAGES` paths below a provided ``tf.contrib`` module),
  :data:`TOP_LEVEL_MODULES` the top-level ``tf.X`` TF 2 dropped or changed,
  :data:`INTERNAL_MODULES` / :data:`INTERNAL_PREFIXES` the TF1 internal modules
  (``tensorflow.python.*``) user code imports, :data:`INTERNAL_ALIASES` TF-internal names
  TF 2.21 moved, added back while the shim is installed;
- removed, with its replacement: :data:`REMOVED_CONTRIB` (modules),
  :data:`REMOVED_SYMBOLS` (``module.name`` below ``tf.contrib``, the module a provided one
  or one below it: ``learn.io.read_batch_examples``), :data:`REMOVED_TOP_LEVEL`,
  :data:`ESTIMATOR_REMOVED` and :data:`ESTIMATOR_EXPERIMENTAL_REMOVED`; of
  ``tf.compat.v2.estimator``, :data:`ESTIMATOR_V2_ABSENT` (names TF 1.15 had not there
  either) and :data:`ESTIMATOR_V2_ONLY` (its v2 forms tf1mem does not provide).

:data:`USAGE` ranks the contrib modules by how often public TF1 code used them;
docs/CONTRIB.md is generated from this table (:mod:`tf1mem.migrate.inventory`).
"""

__all__ = [
    "CONTRIB_MODULES", "FORWARDING", "REMOVED_CONTRIB", "REMOVED_TOP_LEVEL", "REMOVED_SYMBOLS",
    "CONTRIB_SUBMODULES", "CONTRIB_PACKAGES", "PARTLY_PROVIDED", "USAGE", "USAGE_SAMPLE_SIZE",
    "MODULE_ALIASES", "MODULE_PREFIX_ALIASES", "INTERNAL_MODULES", "INTERNAL_PREFIXES",
    "VIRTUAL_ROOTS", "TOP_LEVEL_MODULES", "COMPAT_ESTIMATOR",
    "NOT_IN_COMPAT_V1", "INTERNAL_ALIASES", "ESTIMATOR_REMOVED",
    "ESTIMATOR_EXPERIMENTAL_REMOVED", "ESTIMATOR_V2_ABSENT", "ESTIMATOR_V2_ONLY",
]

# --- tf.contrib ------------------------------------------------------------------------

# tf.contrib.X -> (sources, note): where its names come from, first source first.
CONTRIB_MODULES = {
    # name: (sources, note for the module docstring)
    'slim': ('tf_slim',
        'tf-slim, the maintained home of tf.contrib.slim'),
    'layers': (('tf1mem.compat.tf.contrib.layers', 'tf_slim'),
        ("tf-slim's layers, initializers, regularizers; tf1mem's embed_sequence and "
         'the feature columns the contrib.learn estimators take (real_valued_column, '
         'sparse_column_with_keys, sparse_column_with_hash_bucket, '
         'sparse_column_with_integerized_feature, sparse_column_with_vocabulary_file, '
         "weighted_sparse_column, bucketized_column, crossed_column (TF 1.15's bucket "
         'ids), one_hot_column, embedding_column, shared_embedding_columns, '
         'infer_real_valued_columns) with input_from_feature_columns and '
         'weighted_sum_from_feature_columns')),
    'framework': (('tf1mem.compat.tf.contrib.framework', 'tf_slim'),
        ("tf-slim's variables/arg_scope and TF core; tf1mem's zero_initializer (TF 2 "
         'has no ZeroInitializer kernel: TF ops, the same results)')),
    'rnn': (('tf1mem.compat.tf.contrib.rnn', 'tensorflow:compat.v1.nn.rnn_cell'),
        ("tf.compat.v1.nn.rnn_cell and static_rnn; tf1mem's "
         'stack_bidirectional_dynamic_rnn, stack_bidirectional_rnn, '
         'LayerNormBasicLSTMCell, LSTMBlockCell, GRUBlockCell, GRUBlockCellV2, '
         'LSTMBlockFusedCell, TimeReversedFusedRNN, CoupledInputForgetGateLSTMCell, '
         'HighwayWrapper, IndRNNCell, OutputProjectionWrapper, InputProjectionWrapper,'
         ' EmbeddingWrapper, AttentionCellWrapper, ConvLSTMCell and '
         'Conv1D/2D/3DLSTMCell, NASCell, GridLSTMCell and BidirectionalGridLSTMCell '
         "(the Grid LSTMs' two refusals of start/end freqindex_list lengths that TF "
         '1.15 raised as a tuple are formatted messages), IndyLSTMCell, IndyGRUCell, '
         'UGRNNCell, IntersectionRNNCell, SRUCell, PhasedLSTMCell, GLSTMCell, '
         'TimeFreqLSTMCell')),
    'data': (('tf1mem.compat.tf.contrib.data', 'tensorflow:compat.v1.data.experimental', 'tensorflow:compat.v1.data'),
        ("tf.data.experimental and tf.compat.v1.data; tf1mem's "
         'batch_and_drop_remainder and sliding_window_batch')),
    'losses': (('tf1mem.compat.tf.contrib.losses',),
        ("tf.compat.v1.losses' maths in TF 1.15's contrib argument order "
         "(predictions/logits first); tf1mem's metric_learning.triplet_semihard_loss "
         'and contrastive_loss')),
    'metrics': (('tf1mem.compat.tf.contrib.metrics',),
        ('tf.compat.v1.metrics in the contrib argument order (streaming_*), '
         "tf.compat.v1.sets, tf1mem's accuracy and f1_score")),
    'keras': (('tensorflow:compat.v1.keras',),
        'tf.compat.v1.keras'),
    'summary': (('tf1mem.compat.tf.contrib.summary',),
        ("TF 1.15's summary_ops_v2 API (create_file_writer, always_record_summaries, "
         "scalar(name, tensor, family, step), all_summary_ops, initialize) on TF 2's "
         'copy of it in tensorflow.python.ops.summary_ops_v2, chosen by tf1mem')),
    'eager': (('tf1mem.compat.tf.contrib.eager',),
        "tf1mem's re-implementation of tf.contrib.eager on TF 2's eager runtime"),
    'crf': (('tf1mem.compat.tf.contrib.crf',),
        "tf1mem's re-implementation of tf.contrib.crf"),
    'factorization': (('tf1mem.compat.tf.contrib.factorization',),
        ("tf1mem's re-implementation of tf.contrib.factorization: KMeans, "
         'KMeansClustering, GMM, gmm, GmmAlgorithm (not WALS)')),
    'seq2seq': (('tf1mem.compat.tf.contrib.seq2seq',),
        ("tf1mem's re-implementation of tf.contrib.seq2seq (decoders, helpers "
         'including scheduled sampling, loss, BahdanauAttention, LuongAttention, '
         'AttentionWrapper, BeamSearchDecoder, gather_tree)')),
    'legacy_seq2seq': (('tf1mem.compat.tf.contrib.legacy_seq2seq',),
        "tf1mem's re-implementation of tf.contrib.legacy_seq2seq"),
    'predictor': (('tf1mem.compat.tf.contrib.predictor',),
        ("tf1mem's re-implementation of tf.contrib.predictor (from_saved_model, "
         'from_estimator)')),
    'training': (('tf1mem.compat.tf.contrib.training', 'tf_slim.training.training'),
        ("tf1mem's HParams, bucket and bucket_by_sequence_length (on TF's v1 queues); "
         'create_train_op and friends from tf-slim')),
    'lookup': (('tf1mem.compat.tf.contrib.lookup', 'tensorflow.python.ops.lookup_ops'),
        ("TF's v1 lookup tables (HashTable, index_table_from_file, ...); tf1mem's "
         'contrib signatures (mapping=) and string_to_index / index_to_string')),
    'signal': (('tensorflow:compat.v1.signal',),
        'tf.compat.v1.signal'),
    'tfprof': ('tf1mem.compat.tf.contrib.tfprof',
        ("tf1mem's re-implementation of model_analyzer.print_model_analysis and its "
         'option sets (TRAINABLE_VARS_PARAMS_STAT_OPTIONS, FLOAT_OPS_OPTIONS, ...) and'
         " tfprof_logger.write_op_log, on TF's own tf.compat.v1.profiler (the same "
         'report; ProfileContext is not provided)')),
    'tensorboard': ('tf1mem.compat.tf.contrib.tensorboard',
        ("tf1mem's re-implementation of plugins.projector: ProjectorConfig, "
         "EmbeddingInfo, SpriteMetadata (TF 1.15's schema) and visualize_embeddings "
         'writing projector_config.pbtxt (view it with pip install tensorboard)')),
    'distributions': (('tf1mem.compat.tf.contrib.distributions', 'tensorflow:compat.v1.distributions'),
        ("TF's v1 distributions (tf.compat.v1.distributions: Normal, Bernoulli, "
         "Categorical, Beta, Dirichlet, ..., kl_divergence); tf1mem's "
         'MultivariateNormalDiag / TriL / FullCovariance, OneHotCategorical, '
         'RelaxedOneHotCategorical, RelaxedBernoulli, Mixture, MixtureSameFamily, the '
         '...WithSoftplus... variants, percentile, TransformedDistribution and the '
         'common bijectors (the rarer distributions and bijectors are not provided: '
         'TensorFlow Probability)')),
    'cudnn_rnn': (('tf1mem.compat.tf.contrib.cudnn_rnn',),
        'CudnnCompatibleLSTMCell as the equal tf.compat.v1.nn.rnn_cell.LSTMCell'),
    'util': (('tf1mem.compat.tf.contrib.util',),
        'tf.make_tensor_proto, tf.make_ndarray, constant_value'),
    'opt': (('tf1mem.compat.tf.contrib.opt',),
        ("tf1mem's re-implementation of LazyAdamOptimizer, NadamOptimizer, "
         'AdaMaxOptimizer, AdamWOptimizer, MomentumWOptimizer, '
         'extend_with_decoupled_weight_decay, MovingAverageOptimizer (swapping_saver) '
         "and ScipyOptimizerInterface on TF's v1 optimizers, with TF1's slot and "
         'variable names')),
    'learn': (('tf1mem.compat.tf.contrib.learn',),
        ("tf1mem's re-implementation of preprocessing.VocabularyProcessor, datasets "
         "(mnist: tf1mem's MNIST loader; load_dataset('mnist'); base's "
         'load_csv_with_header / without_header), io (numpy_input_fn, '
         "pandas_input_fn), ModeKeys, RunConfig (contrib's arguments on tf1mem's "
         'tf.estimator.RunConfig), Experiment, learn_runner and make_export_strategy '
         'around a tf.estimator.Estimator, the canned DNNClassifier, DNNRegressor, '
         'LinearClassifier, LinearRegressor with fit/evaluate/predict on numpy x, y '
         "(TF 1.15's graphs, variable names and seeded results), SKCompat, "
         'DNNLinearCombinedClassifier / Regressor, '
         'infer_real_valued_columns_from_input, the contrib Estimator(model_fn) with '
         'ModelFnOps, MetricSpec, monitors (BaseMonitor, EveryN, ValidationMonitor '
         'with early stopping, run as a session hook)')),
    'estimator': (('tf1mem.compat.tf.contrib.estimator',),
        ("tf1mem's re-implementation of clip_gradients_by_norm, add_metrics, "
         'forward_features, and (where TF 1.10-1.12 had them) the early-stopping hooks'
         ' and InMemoryEvaluatorHook of tf.estimator.experimental (heads, '
         'RNNClassifier, replicate_model_fn, SavedModelEstimator are not provided)')),
    'memory_stats': ('tf1mem.compat.tf.contrib.memory_stats',
        ("tf1mem's re-implementation of BytesInUse, MaxBytesInUse and BytesLimit on "
         'tf.config.experimental.get_memory_info (on the GPU as in TF1, and on the CPU'
         ' too, where TF1 failed)')),
    'image': (('tf1mem.compat.tf.contrib.image',),
        ("tf1mem's re-implementation of rotate, translate, transform and the "
         'projective-transform helpers on tf.raw_ops.ImageProjectiveTransformV3, and '
         'of dense_image_warp (connected_components, sparse_image_warp, '
         'interpolate_spline, bipartite_match are not provided)')),
    'resampler': ('tf1mem.compat.tf.contrib.resampler',
        ("tf1mem's re-implementation of resampler (bilinear sampling, zero outside the"
         " image) on TF ops, with TensorFlow's own gradients")),
    'tensor_forest': ('tf1mem.compat.tf.contrib.tensor_forest',
        ("tf1mem's re-implementation of python.tensor_forest (ForestHParams, "
         'RandomForestGraphs: the online random forest grown in TF ops on variables, '
         'classification with dense features) and client.random_forest '
         "(TensorForestEstimator on tf1mem's tf.contrib.learn); regression and the ops "
         'modules are not provided')),
}

# Provided modules whose tf1mem module mostly names TF 2's own objects at their TF 1.15
# names (forwards, not a re-implementation): the inventory counts them as mapped.
FORWARDING = frozenset({"summary", "metrics", "cudnn_rnn", "util"})

# Removed modules: tf.contrib.X -> replacement advice.
REMOVED_CONTRIB = {
    'bayesflow':
        'TensorFlow Probability',
    'tpu':
        'tf.distribute.TPUStrategy',
    'quantize':
        'the TensorFlow Model Optimization Toolkit (tfmot)',
    'graph_editor':
        'no replacement; rebuild the graph with tf.compat.v1 ops',
    'integrate':
        'TensorFlow Probability: tfp.math.ode',
    'mixed_precision':
        'tf.keras.mixed_precision',
    'nccl':
        'tf.distribute.MirroredStrategy',
    'gan':
        'TF-GAN (pip install tensorflow-gan)',
    'timeseries':
        'no direct replacement; Keras models',
    'boosted_trees':
        'TensorFlow Decision Forests',
    'hooks':
        "tf.compat.v1.train's SessionRunHooks",
    'text':
        'TensorFlow Text (tensorflow_text)',
    'staging':
        'tf.data prefetching',
    'ctc':
        'tf.compat.v1.nn.ctc_loss / ctc_beam_search_decoder / ctc_greedy_decoder',
}

# Removed top-level TF1 names (tf.X) -> replacement advice. (tf.estimator is provided:
# TOP_LEVEL_MODULES.)
REMOVED_TOP_LEVEL = {}

# Per-symbol advice for names that a mapped contrib module no longer has.
REMOVED_SYMBOLS = {
    "training.HParams": "a dict, absl flags or keras_tuner",
    "seq2seq.BahdanauMonotonicAttention": "tf.contrib.seq2seq.BahdanauAttention (tf1mem "
                                          "provides it; the monotonic variants it does not)",
    "seq2seq.LuongMonotonicAttention": "tf.contrib.seq2seq.LuongAttention (tf1mem provides "
                                       "it; the monotonic variants it does not)",
    "legacy_seq2seq.embedding_rnn_seq2seq": "tf.contrib.seq2seq.BasicDecoder (tf1mem provides it) over "
                                            "tf.nn.embedding_lookup inputs",
    "legacy_seq2seq.embedding_attention_seq2seq": "tf.contrib.seq2seq.AttentionWrapper "
                                                  "with BasicDecoder (tf1mem provides "
                                                  "them)",
    "estimator.replicate_model_fn": "tf.distribute.MirroredStrategy with tf.keras (on one "
                                    "device, the model_fn itself)",
    "estimator.TowerOptimizer": "tf.distribute.MirroredStrategy with tf.keras",
    "estimator.RNNClassifier": "a custom model_fn with tf.compat.v1.nn.dynamic_rnn, or "
                               "tf.keras",
    "estimator.RNNEstimator": "a custom model_fn with tf.compat.v1.nn.dynamic_rnn, or tf.keras",
    "estimator.SavedModelEstimator": "tf.contrib.predictor.from_saved_model (tf1mem provides "
                                     "it) or tf.saved_model.load",
    "estimator.DNNClassifierWithLayerAnnotations": "tf.estimator.DNNClassifier (tf1mem "
                                                   "provides it)",
    "estimator.DNNRegressorWithLayerAnnotations": "tf.estimator.DNNRegressor (tf1mem "
                                                  "provides it)",
    "estimator.export_saved_model_for_mode": "Estimator.export_saved_model (the PREDICT "
                                             "graph)",
    "estimator.export_all_saved_models": "Estimator.export_saved_model (the PREDICT graph)",
    "estimator.multi_head": "a custom model_fn summing the heads' losses",
    "estimator.regression_head": "tf.estimator.LinearRegressor / DNNRegressor, or a custom "
                                 "model_fn",
    "estimator.binary_classification_head": "tf.estimator.LinearClassifier / DNNClassifier",
    "estimator.multi_class_head": "tf.estimator.LinearClassifier / DNNClassifier "
                                  "(n_classes > 2)",
    "estimator.multi_label_head": "a custom model_fn with "
                                  "tf.nn.sigmoid_cross_entropy_with_logits",
    "estimator.poisson_regression_head": "a custom model_fn with tf.nn.log_poisson_loss",
    "estimator.logistic_regression_head": "a custom model_fn",
    "estimator.boosted_trees_classifier_train_in_memory": "TensorFlow Decision Forests",
    "estimator.boosted_trees_regressor_train_in_memory": "TensorFlow Decision Forests",
    **{f"tensor_forest.{_path}": "tf.contrib.tensor_forest.python.tensor_forest's "
                                 "RandomForestGraphs (tf1mem provides it), or TensorFlow "
                                 "Decision Forests"
       for _path in ("data_ops", "model_ops", "stats_ops", "tensor_forest_ops",
                     "python.data_ops", "python.model_ops", "python.stats_ops",
                     "python.tensor_forest_ops")},
    **{f"tensor_forest.{_path}": "tf.compat.v1.metrics (accuracy, auc, ...) on the "
                                 "estimator's predictions"
       for _path in ("eval_metrics", "client.eval_metrics")},
    **{f"tensor_forest.client.random_forest.{_name}": "TensorForestEstimator (tf1mem "
                                                      "provides it), one per head"
       for _name in ("MultiForestMultiHeadEstimator", "CoreTensorForestEstimator")},
    "factorization.WALSModel": "a tf.compat.v1 or Keras matrix-factorisation model",
    "factorization.WALSMatrixFactorization": "a tf.compat.v1 or Keras matrix-factorisation "
                                             "model",
}
REMOVED_SYMBOLS.update({
    "data.assert_element_shape": "dataset.map with tf.ensure_shape",
    "data.read_batch_features": "tf.data.experimental.make_batched_features_dataset",
    "data.LMDBDataset": "no replacement in TF 2",
    "metrics.streaming_concat": "collect the batches' values in Python (sess.run each batch)",
    "metrics.streaming_covariance": "tensorflow_probability.stats.covariance",
    "metrics.streaming_pearson_correlation": "tensorflow_probability.stats.correlation",
    "cudnn_rnn.CudnnLSTM": "tf.keras.layers.LSTM (uses cuDNN on a GPU)",
    "cudnn_rnn.CudnnGRU": "tf.keras.layers.GRU(reset_after=True) (uses cuDNN on a GPU)",
    "cudnn_rnn.CudnnCompatibleGRUCell": "tf.keras.layers.GRUCell(reset_after=True): cuDNN's "
                                        "GRU applies the reset gate after the matrix product, "
                                        "tf.compat.v1.nn.rnn_cell.GRUCell before it",
    "training.stratified_sample": "tf.data.experimental.rejection_resample",
    "image.connected_components": "scipy.ndimage.label on the evaluated array, or "
                                  "tensorflow_addons.image.connected_components",
    "image.sparse_image_warp": "tensorflow_addons.image.sparse_image_warp",
    "image.interpolate_spline": "tensorflow_addons.image.interpolate_spline",
    "image.bipartite_match": "scipy.optimize.linear_sum_assignment",
    "image.single_image_random_dot_stereograms": "no replacement in TF 2",
    "opt.LARSOptimizer": "tf.keras.optimizers.Lion / SGD, or a tf.compat.v1.train."
                         "Optimizer subclass scaling each layer's step by ||w|| / ||g||",
    "opt.ShampooOptimizer": "no replacement in TF 2 (optax's shampoo outside TF)",
    "opt.GGTOptimizer": "tf.compat.v1.train.AdamOptimizer",
    "opt.PowerSignOptimizer": "tf.compat.v1.train.MomentumOptimizer",
    "opt.AddSignOptimizer": "tf.compat.v1.train.MomentumOptimizer",
    "opt.ElasticAverageOptimizer": "tf.distribute strategies",
    "opt.ModelAverageOptimizer": "tf.distribute strategies",
    "opt.AGNOptimizer": "tf.distribute strategies",
    "opt.DropStaleGradientOptimizer": "tf.distribute strategies (synchronous training)",
    "opt.MultitaskOptimizerWrapper": "tf.clip_by_global_norm per task, then one optimizer",
    "opt.VariableClippingOptimizer": "tf.clip_by_norm on the variables after each step",
    "opt.RegAdagradOptimizer": "tf.compat.v1.train.AdagradOptimizer",
    "opt.LazyAdamGSOptimizer": "tf.contrib.opt.LazyAdamOptimizer (tf1mem provides it)",
    "opt.AdamGSOptimizer": "tf.compat.v1.train.AdamOptimizer",
    "opt.clip_gradients_by_global_norm": "tf.clip_by_global_norm on compute_gradients' "
                                         "gradients",
    "learn.monitors.CaptureVariable": "a tf.compat.v1.train.SessionRunHook whose "
                                      "before_run fetches the variable",
    "learn.monitors.PrintTensor": "tf.compat.v1.train.LoggingTensorHook",
    "learn.monitors.LoggingTrainable": "tf.compat.v1.train.LoggingTensorHook over "
                                       "tf.compat.v1.trainable_variables()",
    "learn.monitors.SummarySaver": "tf.compat.v1.train.SummarySaverHook",
    "learn.monitors.CheckpointSaver": "tf.compat.v1.train.CheckpointSaverHook (or "
                                      "RunConfig's save_checkpoints_steps)",
    "learn.monitors.StepCounter": "tf.compat.v1.train.StepCounterHook",
    "learn.monitors.StopAtStep": "fit(steps=...) / fit(max_steps=...), or "
                                 "tf.compat.v1.train.StopAtStepHook",
    "learn.monitors.NanLoss": "tf.compat.v1.train.NanTensorHook (fit adds one)",
    "learn.monitors.GraphDump": "tf.compat.v1.train.SessionRunHook with "
                                "RunOptions(output_partition_graphs=True)",
    "learn.monitors.ExportMonitor": "an export strategy (tf.contrib.learn."
                                    "make_export_strategy, tf1mem provides it)",
    "learn.monitors.SummaryWriterCache": "tf.compat.v1.summary.FileWriterCache",
    "learn.monitors.get_default_monitors": "nothing: fit adds TF1's default hooks itself",
    "learn.infer_real_valued_columns_from_input_fn": "tf.contrib.learn."
                                                     "infer_real_valued_columns_from_input "
                                                     "on the numpy arrays (tf1mem provides "
                                                     "it), or tf.feature_column.numeric_column",
    "learn.KMeansClustering": "tf.contrib.factorization.KMeansClustering (tf1mem provides "
                              "it; the same estimator, train instead of fit) or "
                              "sklearn.cluster.KMeans",
    "learn.preprocessing.CategoricalProcessor": "tf.keras.layers.StringLookup",
    "learn.preprocessing.ByteProcessor": "tf.strings.unicode_decode / tf.io.decode_raw",
    "summary.create_db_writer": "tf.contrib.summary.create_file_writer (tf1mem provides it; the SQLite "
                                "writer left with TF 2)",
    "cudnn_rnn.CudnnLSTM": "tf.keras.layers.LSTM (cuDNN's kernel on a GPU), or "
                           "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell (tf1mem provides it)",
    "cudnn_rnn.CudnnGRU": "tf.keras.layers.GRU (cuDNN's kernel on a GPU)",
})
# The modules below a provided tf.contrib module: the TF 1.15 names tf1mem does not write.
REMOVED_SYMBOLS.update({
    "learn.datasets.base.load_iris": "sklearn.datasets.load_iris() (.data, .target)",
    "learn.datasets.base.load_boston": "sklearn.datasets.fetch_california_housing() "
                                       "(Boston's data left scikit-learn too)",
    "learn.datasets.base.maybe_download": "urllib.request.urlretrieve(url, path) when "
                                          "os.path.exists(path) is False",
    "learn.datasets.base.shrink_csv": "pandas.read_csv(...).head(n).to_csv(...)",
    "learn.io.generator_input_fn": "tf.data.Dataset.from_generator in an input_fn",
    "learn.io.read_batch_examples": "tf.data.TFRecordDataset(...).batch(n)",
    "learn.io.read_batch_features": "tf.data.experimental.make_batched_features_dataset",
    "learn.io.read_batch_record_features": "tf.data.experimental."
                                           "make_batched_features_dataset",
    "learn.io.read_keyed_batch_examples": "tf.data.TFRecordDataset(...).batch(n)",
    "learn.io.read_keyed_batch_features": "tf.data.experimental."
                                          "make_batched_features_dataset",
    "learn.io.queue_parsed_features": "tf.data's prefetch",
    "learn.io.extract_pandas_data": "DataFrame.values",
    "learn.io.extract_pandas_labels": "DataFrame.values",
    "learn.io.extract_pandas_matrix": "DataFrame.values",
    "learn.io.extract_dask_data": "dask's compute(), then numpy_input_fn",
    "learn.io.extract_dask_labels": "dask's compute(), then numpy_input_fn",
    **{f"losses.metric_learning.{_name}": f"tensorflow_addons.losses ({_name}; tf1mem "
                                          f"provides triplet_semihard_loss and "
                                          f"contrastive_loss)"
       for _name in ("lifted_struct_loss", "npairs_loss", "npairs_loss_multilabel")},
    "losses.metric_learning.cluster_loss": "a clustering loss written on tf.compat.v1 ops "
                                           "(tf1mem provides triplet_semihard_loss and "
                                           "contrastive_loss)",
    "tfprof.ProfileContext": "tf.compat.v1.profiler.Profiler: add_step(step, run_metadata) "
                             "after a session.run with RunOptions(trace_level=FULL_TRACE), "
                             "then profile_name_scope / profile_operations; or "
                             "tf.profiler.experimental.Profile in TF 2 code",
})
# TF 1.15's tf.contrib.distributions names tf1mem does not provide: TensorFlow Probability
# has each (its samples and seeds differ from TF1's).
REMOVED_SYMBOLS.update({f"distributions.{_name}": f"TensorFlow Probability: tfp.{_home}"
                        for _name, _home in [
    *((n, f"distributions.{n}") for n in (
        "Autoregressive", "BatchReshape", "Binomial", "Cauchy", "Chi2", "Deterministic",
        "Geometric", "HalfNormal", "Independent", "InverseGamma", "Kumaraswamy", "Logistic",
        "MultivariateNormalDiagPlusLowRank", "NegativeBinomial", "Poisson",
        "PoissonLogNormalQuadratureCompound", "QuantizedDistribution", "SinhArcsinh",
        "VectorDeterministic", "VectorDiffeomixture",
        "VectorExponentialDiag", "VectorLaplaceDiag", "VectorSinhArcsinhDiag",
        "quadrature_scheme_lognormal_gauss_hermite", "quadrature_scheme_lognormal_quantiles",
        "quadrature_scheme_softmaxnormal_gauss_hermite",
        "quadrature_scheme_softmaxnormal_quantiles")),
    ("Chi2WithAbsDf", "distributions.Chi2(tf.abs(df))"),
    ("InverseGammaWithSoftplusConcentrationRate",
     "distributions.InverseGamma(tf.nn.softplus(concentration), tf.nn.softplus(rate))"),
    ("StudentTWithAbsDfSoftplusScale",
     "distributions.StudentT(tf.floor(tf.abs(df)), loc, tf.nn.softplus(scale))"),
    ("ConditionalDistribution", "distributions.Distribution"),
    ("ConditionalTransformedDistribution", "distributions.TransformedDistribution"),
    ("WishartCholesky", "distributions.WishartTriL"),
    ("WishartFull", "distributions.WishartTriL (scale_tril=tf.linalg.cholesky(scale))"),
    ("SeedStream", "util.SeedStream"),
    ("bijector", "bijectors (tf.contrib.distributions.bijectors under tf1mem)"),
    ("auto_correlation", "stats.auto_correlation"),
    ("assign_moving_mean_variance", "stats.assign_moving_mean_variance"),
    ("assign_log_moving_mean_exp", "stats.assign_log_moving_mean_exp"),
    ("moving_mean_variance", "stats.moving_mean_variance"),
    ("normal_conjugates_known_scale_posterior",
     "distributions.normal_conjugates_known_scale_posterior"),
    ("normal_conjugates_known_scale_predictive",
     "distributions.normal_conjugates_known_scale_predictive"),
    ("estimator_head_distribution_regression", "layers with a tf.keras model")]})
# TF 1.15's bijectors tf1mem does not write: TensorFlow Probability has each.
REMOVED_SYMBOLS.update({
    f"distributions.bijectors.{_name}": "TensorFlow Probability: tfp.bijectors (tf1mem "
                                        "provides Bijector, Identity, Exp, AffineScalar, "
                                        "Affine, Softplus, Sigmoid, Square, Permute, Chain, "
                                        "Invert, Inline)"
    for _name in ("AbsoluteValue", "AffineLinearOperator", "BatchNormalization",
                  "CholeskyOuterProduct", "ConditionalBijector", "FillTriangular", "Gumbel",
                  "Kumaraswamy", "MaskedAutoregressiveFlow", "MatrixInverseTriL", "Ordered",
                  "PowerTransform", "RealNVP", "Reshape", "ScaleTriL", "SinhArcsinh",
                  "SoftmaxCentered", "Softsign", "TransformDiagonal",
                  "masked_autoregressive_default_template", "masked_dense",
                  "real_nvp_default_template")})

# Module paths below a provided tf.contrib module that TF1 code imported, -> the
# tf.contrib module they are (the same module object): 2017 code wrote
# ``from tensorflow.contrib.eager.python import tfe``. The paths between (here
# ``eager.python``) are packages under the shim.
#
# Ranked by how often TF1 code imported them (docs/INTERNALS.md: the sample, its date and
# queries). Paths TF 1.15 itself had, except the two marked TF 1.0-1.2 (core_rnn_cell_impl,
# core_rnn), kept because 2017 code still imports them.
CONTRIB_SUBMODULES = {
    # tensorflow.contrib.legacy_seq2seq.python.ops.seq2seq (9 in the sample)
    "legacy_seq2seq.python.ops.seq2seq": "legacy_seq2seq",
    # tf.contrib.cudnn_rnn's module path (9): tf1mem has CudnnCompatibleLSTMCell only
    "cudnn_rnn.python.ops.cudnn_rnn_ops": "cudnn_rnn",
    "seq2seq.python.ops.attention_wrapper": "seq2seq",
    "seq2seq.python.ops.beam_search_decoder": "seq2seq",
    "seq2seq.python.ops.basic_decoder": "seq2seq",
    "seq2seq.python.ops.helper": "seq2seq",
    "seq2seq.python.ops.decoder": "seq2seq",
    "seq2seq.python.ops.loss": "seq2seq",
    "seq2seq.python.ops.beam_search_ops": "seq2seq",
    "rnn.python.ops.core_rnn_cell": "rnn",
    "rnn.python.ops.rnn_cell": "rnn",
    "rnn.python.ops.rnn": "rnn",
    "rnn.python.ops.gru_ops": "rnn",
    "rnn.python.ops.lstm_ops": "rnn",
    "rnn.python.ops.fused_rnn_cell": "rnn",
    "rnn.python.ops.core_rnn_cell_impl": "rnn",  # TF 1.0-1.2
    "rnn.python.ops.core_rnn": "rnn",  # TF 1.0-1.2
    "metrics.python.ops.metric_ops": "metrics",
    "framework.python.ops.variables": "framework",
    "framework.python.framework.checkpoint_utils": "framework",
    "opt.python.training.external_optimizer": "opt",
    "opt.python.training.lazy_adam_optimizer": "opt",
    "opt.python.training.nadam_optimizer": "opt",
    "opt.python.training.adamax": "opt",
    "opt.python.training.weight_decay_optimizers": "opt",
    "opt.python.training.moving_average_optimizer": "opt",
    "learn.python.learn.estimators.run_config": "learn",
    "learn.python.learn.estimators.estimator": "learn",
    "learn.python.learn.metric_spec": "learn",
    "losses.python.losses.loss_ops": "losses",
    "crf.python.ops.crf": "crf",
    "eager.python.tfe": "eager",
    "learn.python.learn.estimators.model_fn": "learn",
    "factorization.python.ops.gmm_ops": "factorization",
    "factorization.python.ops.clustering_ops": "factorization",
    "data.python.ops.batching": "data",
    "data.python.ops.sliding": "data",
    "lookup.lookup_ops": "lookup",
    "image.python.ops.image_ops": "image",
    "estimator.python.estimator.extenders": "estimator",
}
# Packages below a provided tf.contrib module whose TF1 ``__init__`` re-exported a
# module's names (``from tensorflow.contrib.framework.python.ops import add_arg_scope``,
# tflearn 0.3.2): path -> that module, a tf.contrib module's name or a module's dotted
# name. Under the shim each is a package of its own that serves the module's names first,
# then its submodules (TF1's star imports bound ``arg_scope`` to the function, not the
# submodule), so importing a submodule below it never sets an attribute on that module.
CONTRIB_PACKAGES = {
    "framework.python.ops": "framework",
    "framework.python.framework": "framework",
    "layers.python.layers": "layers",
    "learn.python.learn.preprocessing": "tf1mem.compat.tf.contrib.learn.preprocessing",
    "losses.python.metric_learning": "tf1mem.compat.tf.contrib.losses.metric_learning",
}
# What a removed module still has under tf1mem (tensorflow.contrib.<name>.<...> aliases).
PARTLY_PROVIDED = {}


# --- The ranked table (docs/CONTRIB.md is generated from it: markdown_table()) -------
#
# How often public TF1 code used each tf.contrib module: occurrences in a sample of
# 158 uses of tf.contrib drawn on 2026-12-03 with the `search` tool's find_string
# (the public GitHub code index; read only), 16 queries for the text just before a
# use ("= tf.contrib.", "(tf.contrib.", "[tf.contrib.", ", tf.contrib.", ": tf.contrib.",
# "=tf.contrib.", "return tf.contrib.", "if tf.contrib.", "    tf.contrib.",
# "  tf.contrib.", "\ttf.contrib.", "tf.contrib.", "tensorflow.contrib.",
# "from tensorflow.contrib import ", "from tensorflow.contrib.",
# "import tensorflow.contrib."), 10 files each (the index's cap), counting the module
# named right after "contrib." in each hit (duplicates and mentions of tf.contrib
# itself left out). Modules with 0 were not in the sample: rarer than about 1 in 160.
USAGE = {
    "layers": 48, "rnn": 23, "framework": 15, "slim": 12, "data": 10, "summary": 9,
    "learn": 6, "opt": 3, "lookup": 3, "tensorboard": 3, "keras": 3, "eager": 3,
    "tpu": 2, "training": 2, "image": 2, "metrics": 2, "distributions": 2, "tfprof": 2,
    "crf": 1, "quantize": 1, "resampler": 1, "memory_stats": 1, "signal": 1,
    "cudnn_rnn": 1, "ctc": 1, "util": 1,
}
USAGE_SAMPLE_SIZE = 158


# --- Module paths, tf.compat, TF internals ---------------------------------------------

# Full module name -> the real module it stands for.
MODULE_ALIASES = {
    "tensorflow.examples.tutorials.mnist.input_data": "tf1mem.data.input_data",
    "tensorflow.examples.tutorials.mnist.mnist": "tf1mem.compat.tf.examples.tutorials.mnist.mnist",
    "tensorflow.contrib.learn.python.learn.datasets.mnist": "tf1mem.data.input_data",
    "tensorflow.contrib.learn.datasets.mnist": "tf1mem.data.input_data",
    "tensorflow.contrib.learn.datasets": "tf1mem.compat.tf.contrib.learn.datasets",
    "tensorflow.contrib.learn.datasets.base": "tf1mem.compat.tf.contrib.learn.datasets_base",
    "tensorflow.contrib.learn.io": "tf1mem.compat.tf.contrib.learn.io",
    "tensorflow.contrib.learn.python.learn.learn_io": "tf1mem.compat.tf.contrib.learn.io",
    "tensorflow.contrib.learn.python.learn.datasets.base":
        "tf1mem.compat.tf.contrib.learn.datasets_base",
    "tensorflow.contrib.learn.preprocessing": "tf1mem.compat.tf.contrib.learn.preprocessing",
    "tensorflow.contrib.learn.monitors": "tf1mem.compat.tf.contrib.learn.monitors",
    "tensorflow.contrib.learn.python.learn.monitors":
        "tf1mem.compat.tf.contrib.learn.monitors",
    "tensorflow.contrib.learn.learn_runner": "tf1mem.compat.tf.contrib.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.learn_runner":
        "tf1mem.compat.tf.contrib.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.experiment":
        "tf1mem.compat.tf.contrib.learn.experiment",
    "tensorflow.contrib.learn.python.learn.utils.saved_model_export_utils":
        "tf1mem.compat.tf.contrib.learn.export_strategy",
    "tensorflow.contrib.learn.utils.saved_model_export_utils":
        "tf1mem.compat.tf.contrib.learn.export_strategy",
    "tensorflow.contrib.learn.utils": "tf1mem.compat.tf.contrib.learn.utils",
    "tensorflow.contrib.distributions.bijectors": "tf1mem.compat.tf.contrib.distributions.bijectors",
    "tensorflow.contrib.losses.metric_learning": "tf1mem.compat.tf.contrib.losses.metric_learning",
    "tensorflow.contrib.losses.python.metric_learning.metric_loss_ops":
        "tf1mem.compat.tf.contrib.losses.metric_learning",
    "tensorflow.estimator": "tf1mem.compat.tf.estimator",
    "tensorflow.estimator.inputs": "tf1mem.compat.tf.estimator.inputs",
    "tensorflow.estimator.export": "tf1mem.compat.tf.estimator.export",
    # Deeper tf.contrib paths whose TF1 module is one of tf-slim's or tf1mem's modules.
    "tensorflow.contrib.layers.python.layers.initializers": "tf_slim.layers.initializers",
    "tensorflow.contrib.layers.python.layers.regularizers": "tf_slim.layers.regularizers",
    "tensorflow.contrib.layers.python.layers.layers": "tf_slim.layers.layers",
    "tensorflow.contrib.layers.python.layers.utils": "tf_slim.layers.utils",
    "tensorflow.contrib.layers.python.layers.optimizers": "tf_slim.layers.optimizers",
    "tensorflow.contrib.layers.python.layers.summaries": "tf_slim.layers.summaries",
    "tensorflow.contrib.layers.python.layers.normalization": "tf_slim.layers.normalization",
    "tensorflow.contrib.layers.python.layers.feature_column":
        "tf1mem.compat.tf.contrib.layers.feature_column",
    "tensorflow.contrib.layers.python.layers.feature_column_ops":
        "tf1mem.compat.tf.contrib.layers.feature_column_ops",
    "tensorflow.contrib.layers.python.layers.encoders": "tf1mem.compat.tf.contrib.layers.encoders",
    "tensorflow.contrib.framework.python.ops.arg_scope": "tf_slim.ops.arg_scope",
    # the speech-commands tutorial's audio ops: TF 2.21 keeps the same four ops here
    "tensorflow.contrib.framework.python.ops.audio_ops": "tensorflow.python.ops.gen_audio_ops",
    "tensorflow.contrib.training.python.training.hparam":
        "tf1mem.compat.tf.contrib.training.hparams",
    "tensorflow.contrib.training.python.training.evaluation": "tf_slim.training.evaluation",
    "tensorflow.contrib.training.python.training.training": "tf_slim.training.training",
    "tensorflow.contrib.distributions.python.ops.bijectors":
        "tf1mem.compat.tf.contrib.distributions.bijectors",
    "tensorflow.contrib.learn.python.learn.preprocessing.text":
        "tf1mem.compat.tf.contrib.learn.preprocessing",
}
# Module path prefixes: a module below the key is the module of the same rest below the
# value (``tensorflow.contrib.slim.python.slim.nets.vgg`` is ``tf_slim.nets.vgg``).
MODULE_PREFIX_ALIASES = {
    "tensorflow.contrib.slim.python.slim": "tf_slim",
    # TF 1.2-1.3's Keras (tensornets' fallback): the Keras user code's tf.keras is built from
    "tensorflow.contrib.keras.python.keras": "tf_keras.src",
}
VIRTUAL_ROOTS = ("tensorflow.contrib", "tensorflow.examples", "tensorflow.estimator")
# Top-level tf.X provided by a tf1mem module: TF 2 removed them (estimator), TF 1.15's
# differs (tf.nest raised TF 1.15's errors), or TF 1.15 dropped idioms of TF <= 1.4 that
# public TF1 code still has (flags' _parse_flags() and __flags; app for app.flags).
# tf.test answers is_built_with_cuda() as TF 1.15's package for the machine did.
TOP_LEVEL_MODULES = {"estimator": "tf1mem.compat.tf.estimator", "nest": "tf1mem.compat.tf.nest",
                     "flags": "tf1mem.compat.tf.flags", "app": "tf1mem.compat.tf.app",
                     "test": "tf1mem.compat.tf.test"}

# What user code's tf.compat.v1 / tf.compat.v2 add to TF 2.21's (TF 1.15 had them,
# TF 2.16+ has no estimator): attribute -> module it is.
COMPAT_ESTIMATOR = {
    "v1": "tf1mem.compat.tf.estimator",
    "v2": "tf1mem.compat.tf.estimator.api_v2",
}
# Attributes of TF1's top level that TF 1.15's tf.compat.v1 never had -> how to reach them.
NOT_IN_COMPAT_V1 = {
    "contrib": "tf.contrib was never part of tf.compat.v1, in TF 1.15 either: write "
               "`import tensorflow as tf` and use tf.contrib",
    "examples": "tensorflow.examples was never part of tf.compat.v1, in TF 1.15 either: "
                "write `from tensorflow.examples.tutorials.mnist import input_data`",
}

# TF1's internal modules (``tensorflow.python.*``) as user code sees them under the shim:
# full module name -> its source (a module's dotted name or an attribute path, as in
# CONTRIB_MODULES: a tuple builds a module looking each name up in turn). Only the imports
# of user code (and TF1 packages) are answered with these (tf1mem's ``__import__``:
# :mod:`tf1mem.compat.runtime.internals`); the real modules, which libraries see, are not
# changed. Each is a TF1 path TF 2.21 lacks (``tensorflow.python.keras.applications``) or
# whose TF 2.21 module differs from what user code's ``tf`` gives (TF 2.21's
# ``tensorflow.python.layers.core.Dense`` and ``rnn_cell_impl.LSTMCell`` are a frozen
# internal Keras's, not ``tf.layers.Dense`` and ``tf.nn.rnn_cell.LSTMCell``).
# docs/INTERNALS.md ranks them by use.
INTERNAL_MODULES = {
    "tensorflow.python.util.nest": "tf1mem.compat.tf.python.util.nest",
    "tensorflow.python.ops.rnn_cell": (
        "tensorflow:compat.v1.nn.rnn_cell", "tf_keras.src.layers.rnn.legacy_cells",
        "tf_keras.src.layers.rnn.legacy_cell_wrappers"),
    "tensorflow.python.ops.rnn_cell_impl": (
        "tensorflow:compat.v1.nn.rnn_cell", "tf_keras.src.layers.rnn.legacy_cells",
        "tf_keras.src.layers.rnn.legacy_cell_wrappers"),
    # tflearn: from tensorflow.python.ops.rnn import rnn_cell_impl, dynamic_rnn
    "tensorflow.python.ops.rnn.rnn_cell_impl": (
        "tensorflow:compat.v1.nn.rnn_cell", "tf_keras.src.layers.rnn.legacy_cells",
        "tf_keras.src.layers.rnn.legacy_cell_wrappers"),
    "tensorflow.python.layers.base": (
        "tf_keras.src.legacy_tf_layers.base", "tf_keras.src.engine.input_spec"),
    "tensorflow.python.layers.core": "tf_keras.src.legacy_tf_layers.core",
    "tensorflow.python.layers.convolutional": "tf_keras.src.legacy_tf_layers.convolutional",
    "tensorflow.python.layers.pooling": "tf_keras.src.legacy_tf_layers.pooling",
    "tensorflow.python.layers.normalization": "tf_keras.src.legacy_tf_layers.normalization",
    "tensorflow.python.keras": "tf_keras.src",
    "tensorflow.python.estimator": "tf1mem.compat.tf.estimator",
}
# Prefixes of INTERNAL_MODULES: a module below the key is the module of the same rest
# below the value (``tensorflow.python.keras.applications.imagenet_utils`` is
# ``tf_keras.src.applications.imagenet_utils``), for user code only.
INTERNAL_PREFIXES = {
    "tensorflow.python.keras": "tf_keras.src",
    "tensorflow.python.estimator": "tf1mem.compat.tf.estimator",
}

# TF-internal names that TF1-era libraries (tf-slim 1.1.0 above all: batch_norm and
# dropout with a tensor is_training) and freeze scripts use, and that TF 2.21 moved.
# (module, missing name, module that has it now, its name there)
INTERNAL_ALIASES = (
    ("tensorflow.python.framework.ops", "Tensor", "tensorflow.python.framework.tensor", "Tensor"),
    ("tensorflow.python.framework.ops", "IndexedSlices",
     "tensorflow.python.framework.indexed_slices", "IndexedSlices"),  # optimize_loss
    ("tensorflow.python.ops.control_flow_ops", "cond", "tensorflow.python.ops.cond", "cond"),
    ("tensorflow.python.ops.control_flow_ops", "case",
     "tensorflow.python.ops.control_flow_case", "case"),
    ("tensorflow.python.ops.control_flow_ops", "while_loop",
     "tensorflow.python.ops.while_loop", "while_loop"),
    ("tensorflow.python.ops.control_flow_ops", "Assert",
     "tensorflow.python.ops.control_flow_assert", "Assert"),
    ("tensorflow.python.framework.graph_util", "convert_variables_to_constants",
     "tensorflow.python.framework.convert_to_constants", "convert_variables_to_constants"),
    ("tensorflow.python.ops.array_ops", "stack", "tensorflow.python.ops.array_ops_stack",
     "stack"),
    ("tensorflow.python.ops.array_ops", "unstack", "tensorflow.python.ops.array_ops_stack",
     "unstack"),
    # reader = pywrap_tensorflow.NewCheckpointReader(path): listing a checkpoint
    ("tensorflow.python.pywrap_tensorflow", "NewCheckpointReader",
     "tensorflow.python.training.py_checkpoint_reader", "NewCheckpointReader"),
    ("tensorflow.python.framework.ops", "register_tensor_conversion_function",
     "tensorflow.python.framework.tensor_conversion_registry",
     "register_tensor_conversion_function"),
    # TF 2.21's tensorflow.python.layers.normalization lazily imports
    # tf_keras.legacy_tf_layers.normalization, which tf_keras ships as
    # tf_keras.src.legacy_tf_layers.normalization: tf-slim's batch_norm and
    # tf.contrib.layers.batch_norm(fused=False) stopped there. Source attribute None: the
    # loader that names the missing module is pointed at this one (loaded on first use).
    ("tensorflow.python.layers.normalization", "normalization",
     "tf_keras.src.legacy_tf_layers.normalization", None),
)


# --- tf.estimator -----------------------------------------------------------------------

# tf.estimator.X (TF 1.15) that tf1mem's tf.estimator does not provide -> what to use instead.
ESTIMATOR_REMOVED = {
    "tpu": "tf.distribute.TPUStrategy with tf.keras",
    "BoostedTreesClassifier": "TensorFlow Decision Forests (pip install "
                              "tensorflow_decision_forests)",
    "BoostedTreesRegressor": "TensorFlow Decision Forests (pip install "
                             "tensorflow_decision_forests)",
    "BoostedTreesEstimator": "TensorFlow Decision Forests",
    "DNNLinearCombinedEstimator": "a custom model_fn",
    "BaselineEstimator": "a custom model_fn",
    "LinearEstimator": "tf.estimator.LinearRegressor / LinearClassifier, or a custom model_fn",
    "DNNEstimator": "tf.estimator.DNNRegressor / DNNClassifier, or a custom model_fn",
    "add_metrics": "tf.contrib.estimator.add_metrics (TF 1.15's home of it; tf1mem "
                   "provides it)",
    "classifier_parse_example_spec": "tf.compat.v1.feature_column.make_parse_example_spec "
                                     "plus the label's tf.io.FixedLenFeature",
    "regressor_parse_example_spec": "tf.compat.v1.feature_column.make_parse_example_spec "
                                    "plus the label's tf.io.FixedLenFeature",
    "Head": "the canned estimators' own heads, or a custom model_fn",
    "MultiLabelHead": "a custom model_fn with tf.nn.sigmoid_cross_entropy_with_logits",
    "MultiHead": "a custom model_fn",
    "RegressionHead": "tf.estimator.LinearRegressor / DNNRegressor, or a custom model_fn",
    "BinaryClassHead": "tf.estimator.LinearClassifier / DNNClassifier",
    "MultiClassHead": "tf.estimator.LinearClassifier / DNNClassifier (n_classes > 2)",
    "PoissonRegressionHead": "a custom model_fn with tf.nn.log_poisson_loss",
    "LogisticRegressionHead": "a custom model_fn",
    "RNNClassifier": "a custom model_fn with tf.compat.v1.nn.dynamic_rnn",
    "KMeans": "tf.estimator.experimental.KMeans (tf1mem provides it) or scikit-learn's "
              "sklearn.cluster.KMeans",
}

# TF 1.15's other tf.estimator.experimental names -> what to use instead.
ESTIMATOR_EXPERIMENTAL_REMOVED = {
    "LinearSDCA": "tf.estimator.LinearClassifier / LinearRegressor with an FTRL or SGD "
                  "optimizer (the SDCA optimizer's kernels left with TF 2)",
    "build_raw_supervised_input_receiver_fn": "tf.estimator.export."
                                              "build_raw_serving_input_receiver_fn",
    "call_logit_fn": "call your logit_fn in your own model_fn",
    "dnn_logit_fn_builder": "tf.compat.v1.layers.dense layers in your own model_fn",
    "linear_logit_fn_builder": "tf.compat.v1.feature_column.linear_model in your own "
                               "model_fn",
}

# Names TF 1.15.5's tf.compat.v2.estimator did not have at all -> what to use.
ESTIMATOR_V2_ABSENT = {
    "inputs": "tf.estimator.inputs (numpy_input_fn, pandas_input_fn; tf1mem provides it), or tf.data",
    "tpu": "tf.distribute.TPUStrategy with tf.keras",
}

# Names whose tf.compat.v2.estimator object differed from tf.estimator's in TF 1.15.5,
# and that tf1mem does not provide in their v2 form (TF1's is tf.compat.v1.estimator's).
ESTIMATOR_V2_ONLY = frozenset({
    "BaselineClassifier", "BaselineEstimator", "BaselineRegressor", "DNNClassifier",
    "DNNEstimator", "DNNLinearCombinedClassifier", "DNNLinearCombinedEstimator",
    "DNNLinearCombinedRegressor", "DNNRegressor", "LinearClassifier", "LinearEstimator",
    "LinearRegressor", "classifier_parse_example_spec", "regressor_parse_example_spec",
    "experimental",
})
