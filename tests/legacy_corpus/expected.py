"""What each corpus script must do under ``python -m tf1mem.run SCRIPT ARGS``.

Derived from running every script with TensorFlow 1.15.5 (the oracle; its raw stdout and exit
codes are recorded in ``oracle_tf115.json``) and checked against TensorFlow 2.21 in v1 mode.
Where TF 2.21 must legitimately differ from TF 1.15.5 (removed modules), the expectation is the
TF 2 behaviour and ``oracle`` says what TF 1.15.5 did; README.md lists the differences.

Each case is a dict with:

``args``          command-line arguments; ``{tmpdir}`` is replaced by a fresh empty directory.
``exit_code``     the expected exit status.
``lines``         exact stdout lines that must appear, in this order (other lines may interleave).
``numbers``       ``(prefix, [floats], abs_tol)``: the first stdout line starting with ``prefix``
                  must carry exactly these numbers (after the prefix), each within ``abs_tol``.
``stdout_regex``  regexes (``re.search``, multiline) that must match stdout.
``absent``        substrings that must not appear in stdout.
``error``         regexes (``re.search``) that must all match the error report: stderr from the
                  last ``Traceback`` on (all of stderr when there is no traceback).
``stderr``        regexes that must match anywhere in stderr.
``stderr_absent`` substrings that must not appear in stderr.
``xfail``         a reason: the case is a known gap the runner may not close (non-strict xfail).
``oracle``        a note, only where TF 1.15.5 behaves differently from the expectation.
"""

# Regexes for "a clear error": names the symbol, says it was removed in TF 2, names what to use.
_REMOVED = r"(?i)\bremoved\b"
_TF2 = r"(?i)\b(TF|TensorFlow)\s*2"
_REPLACEMENT = r"(?i)\b(use|instead|replace\w*|migrat\w*|see)\b"

CASES = {
    "app_flags.py": dict(
        args=["--learning_rate=0.25", "--max_steps=3", "--name=corpus", "--verbose"],
        exit_code=0,
        lines=["learning_rate: 0.25", "max_steps: 3", "name: corpus", "verbose: True",
               "x: 0.500000"],
    ),
    "variable_scope_reuse.py": dict(
        args=[], exit_code=0,
        lines=["variables: auto/counter:0 model/b:0 model/w:0 other/b:0 other/w:0",
               "num_variables: 5", "reuse error: True", "y1: 3.0000 3.0000",
               "shared: True True", "scope name: "],
    ),
    "saver_restore.py": dict(
        args=["{tmpdir}"], exit_code=0,
        lines=["saved: model.ckpt-3", "latest: model.ckpt-3", "index exists: True",
               "kept: model.ckpt-2.index model.ckpt-3.index", "restored v: 11.0 12.0 13.0",
               "restored step: 3", "meta graph out: 22.0 24.0 26.0",
               "checkpoint vars: global_step v"],
    ),
    "summary_filewriter.py": dict(
        args=["{tmpdir}"], exit_code=0,
        numbers=[("step 0 loss:", [0.66667], 1e-4), ("step 1 loss:", [0.57185], 1e-4),
                 ("step 2 loss:", [0.57143], 1e-4)],
        lines=["event files: 1", "tags: loss x_hist", "loss steps: 0 1 2", "graph written: True"],
    ),
    "layers_dense_conv.py": dict(
        args=[], exit_code=0,
        lines=["conv shape: [None, 8, 8, 4]", "pool shape: [None, 4, 4, 4]",
               "flat shape: [None, 64]", "logits shape: [None, 3]",
               "trainable: conv1/kernel:0 conv1/bias:0 logits/kernel:0 logits/bias:0 "
               "hidden/kernel:0 hidden/bias:0",
               "params: 560", "hidden in (-1,1): True"],
        numbers=[("logits[0]:", [0.76938] * 3, 1e-4), ("logits[1]:", [2.20938] * 3, 1e-4)],
    ),
    "slim_model.py": dict(
        args=[], exit_code=0,
        lines=["model variables: conv1/weights conv1/biases conv2/conv2_1/weights "
               "conv2/conv2_1/biases conv2/conv2_2/weights conv2/conv2_2/biases fc3/weights "
               "fc3/biases fc4/weights fc4/biases",
               "regularization losses: 5", "logits shape: [4, 2]", "loss decreased: True"],
        # Seeded truncated_normal: TF 1.15.5 and TF 2.21 gave the same numbers here.
        numbers=[("losses:", [0.6994, 0.6992, 0.6992, 0.6992, 0.6991], 2e-3)],
    ),
    "slim_attr_contrib_layers.py": dict(
        args=[], exit_code=0,
        lines=["to restore: bn/beta bn/moving_mean bn/moving_variance w", "reg losses: 1",
               "xavier within limit: True", "xavier nonconstant: True",
               "moving_mean updated: True"],
        numbers=[("out (bn-normalized, sums to 0):", [0.0], 1e-3)],
    ),
    "contrib_rnn_lstm.py": dict(
        args=[], exit_code=0,
        lines=["static outputs: 4 x [2, 5]", "num layers: 2", "state is LSTMStateTuple: True",
               "dynamic outputs shape: [2, 4, 5]",
               "variables: static/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel "
               "static/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias "
               "static/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel "
               "static/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias "
               "dynamic/rnn/basic_lstm_cell/kernel dynamic/rnn/basic_lstm_cell/bias",
               "dynamic h == last output: True"],
        numbers=[("static last output:", [-0.028807] * 5, 1e-5),
                 ("static last c:", [0.079632] * 5, 1e-5),
                 ("dynamic last output:", [0.181181] * 5, 1e-5)],
    ),
    "rnn_cell_dynamic.py": dict(
        args=[], exit_code=0,
        lines=["outputs shape: [2, 5, 4]", "state sizes: (LSTMStateTuple(c=3, h=3), 4)",
               "padded steps zero: True", "final gru state == last valid output: True"],
        numbers=[("output[0,-1]:", [0.107032] * 4, 1e-5), ("output[1,1]:", [0.026233] * 4, 1e-5)],
    ),
    "data_one_shot.py": dict(
        args=[], exit_code=0,
        lines=["output shapes: (TensorShape([Dimension(None)]), TensorShape([Dimension(None)]))",
               "output types: (tf.float32, tf.float32)",
               "batch 0: 1 2 3 | 0 2 4", "batch 1: 4 5 6 | 6 8 10", "batch 2: 7 8 | 12 14",
               "batch 3: 1 2 3 | 0 2 4", "batch 4: 4 5 6 | 6 8 10", "batch 5: 7 8 | 12 14",
               "batches: 6"],
    ),
    "data_initializable.py": dict(
        args=[], exit_code=0,
        lines=["init with 4 rows -> batch sums: 4 4", "init with 6 rows -> batch sums: 8 8 8",
               "train: 0 1 2 3 4", "val: 100 101 102"],
    ),
    "queue_slice_batch.py": dict(
        args=[], exit_code=0,
        lines=["batch shapes: [4, 2] [4]", "queue runners: 2",
               "step 0 labels: 0 1 2 3 first-col: 0 2 4 6",
               "step 1 labels: 4 5 0 1 first-col: 8 10 0 2",
               "step 2 labels: 2 3 4 5 first-col: 4 6 8 10", "threads stopped: True"],
    ),
    "queue_string_input_csv.py": dict(
        args=[], exit_code=0,
        lines=["ids: 0 1 2 10 vals: 0.5 1.5 2.5 0.5 strs: a b a a",
               "ids: 11 12 vals: 1.5 2.5 strs: b a", "done: epoch limit reached",
               "batch sizes: 4 2"],
    ),
    "cond_while.py": dict(
        args=[], exit_code=0,
        lines=["cond(3): 6", "cond(-1): -101", "case: -1 0 1", "while: 5 32", "grown: 0 1 2 3",
               "w^3: 3.3750 d/dw: 6.7500"],
    ),
    "py_func.py": dict(
        args=[], exit_code=0,
        lines=["y: -0.7500 0.0000 0.5000", "total: 2.0000", "even: 0 2 4 6 odd: 1 3 5",
               "counter: 1 2", "calls: [5, 5]"],
    ),
    "interactive_session.py": dict(
        args=[], exit_code=0,
        lines=["c: [[3.0, 3.0], [7.0, 7.0]]", "sum: 20", "b after assign: [[3.0, 3.0], [3.0, 3.0]]",
               "feed eval: 42", "default session is sess: True"],
    ),
    "monitored_session_hooks.py": dict(
        args=["{tmpdir}"], exit_code=0,
        lines=["hook begin: global_step op global_step", "hook after_create_session: step 0",
               "hook after_run: step 1", "hook after_run: step 2", "hook after_run: step 3",
               "hook after_run: step 4", "hook end: step 4", "runs: 4",
               "checkpoint: model.ckpt-4", "restored step: 4 w: 0.187500"],
        absent=["hook after_run: step 5"],
    ),
    "grad_clipping.py": dict(
        args=[], exit_code=0,
        lines=["global norm: 13.0000", "clipped: 0.3000 0.4000 1.2000", "capped w grad: [1.0, 1.0]",
               "clip_by_norm: 1.5000 2.0000", "after step w: 2.7000 3.6000 b: 10.8000 step: 1"],
    ),
    "mnist_fully_connected_feed.py": dict(
        args=["MNIST_data"], exit_code=0,
        lines=["trainable: hidden1/weights hidden1/biases hidden2/weights hidden2/biases "
               "softmax_linear/weights softmax_linear/biases",
               "loss decreased: True", "global_step: 10", "Training Data Eval:",
               "Num examples: 10000  Num correct: 10000  Precision @ 1: 1.0000"],
        numbers=[("Step 9: loss =", [0.0], 0.05)],
        oracle=("the TF 1.15.5 pip wheel ships tutorials/mnist/input_data.py but not the mnist.py "
                "model module (it lived only in the source tree), so the oracle ran it with a "
                "local re-creation of the tutorial's mnist.py on the import path"),
    ),
    "mnist_input_data_fake.py": dict(
        args=["MNIST_data"], exit_code=0,
        lines=["num train examples: 10000", "batch: 3 x 784 labels [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]",
               "accuracy: 1"],
        numbers=[("loss:", [2.302585], 1e-5)],
    ),
    "eager_basic.py": dict(
        args=[], exit_code=0,
        lines=["executing eagerly: True", "matmul: [[7.0, 10.0], [15.0, 22.0]]", "reduce_sum: 10",
               "dy/dv: 12", "dataset: [0, 1, 4, 9]", "w after 3 steps: 2.5600",
               "python value: True"],
    ),
    "contrib_removed_kmeans.py": dict(
        args=[], exit_code=1,
        lines=["before contrib: built 4 points"],
        absent=["kmeans built"],
        error=[r"tf\.contrib\.factorization", _REMOVED, _TF2, _REPLACEMENT],
        oracle="TF 1.15.5 builds the KMeans estimator and prints 'kmeans built: KMeans' (exit 0)",
    ),
    "contrib_import_fallback.py": dict(
        args=[], exit_code=0,
        lines=["tensor_forest: unavailable", "still running: 3"],
        numbers=[],
        # the ImportError's message, printed by the script, must itself be clear
        stdout_regex=[r"message: .*tensor_forest", r"message: .*(?i:removed)"],
        oracle="TF 1.15.5 has tf.contrib.tensor_forest: prints 'tensor_forest: available'",
    ),
    "contrib_import_removed.py": dict(
        args=[], exit_code=1,
        absent=["built params"],
        error=[r"tensor_forest", _REMOVED, _TF2, _REPLACEMENT],  # catchable as ImportError: see
        # contrib_import_fallback.py
        oracle="TF 1.15.5 imports tensor_forest and prints 'built params: 2 trees' (exit 0)",
    ),
    "estimator_linear_regressor.py": dict(
        args=[], exit_code=0,
        lines=["trained: 2 steps", "weights: -0.302896 bias: -0.294031",
               "variables: global_step linear/linear_model/bias_weights "
               "linear/linear_model/bias_weights/part_0/Ftrl "
               "linear/linear_model/bias_weights/part_0/Ftrl_1 linear/linear_model/x/weights "
               "linear/linear_model/x/weights/part_0/Ftrl "
               "linear/linear_model/x/weights/part_0/Ftrl_1",
               "metric keys: average_loss global_step label/mean loss prediction/mean",
               "resumed to: 5 steps"],
        numbers=[("eval: loss", [3.23520, 0.80880, -1.50000, -1.05127], 1e-4),
                 ("predictions:", [-1.80851, -2.11141], 1e-4)],
    ),
    "estimator_custom_model_fn.py": dict(
        args=["{tmpdir}"], exit_code=0,
        lines=["model_dir given: True", "step: 12", "w b: -0.74841 0.00504",
               "eval: global_step=12.00000 loss=0.14209 mae=0.37168",
               "eval 1 step: loss=0.28404",
               "predict: 4 ['double_x', 'y'] -0.74337 -1.49177 -2.24018 -2.98858",
               "batched: [['y'], ['y']] [(3,), (1,)]", "resumed step: 14",
               "variables: ['b', 'global_step', 'w']", "eval dirs: ['eval', 'eval_one']"],
        # TF 1.15's INFO lines (stderr), in TF1's wording
        stderr=[r"INFO:tensorflow:loss = 0\.5, step = 1\n",
                r"INFO:tensorflow:loss = 0\.1952767, step = 6 \(\d+\.\d+ sec\)",
                r"INFO:tensorflow:global_step/sec: \d",
                r"INFO:tensorflow:Loss for final step: 0\.097058766\.",
                r"INFO:tensorflow:Saving dict for global step 12: global_step = 12, "
                r"loss = 0\.1420855, mae = 0\.37168384"],
    ),
    "estimator_wide_deep_baseline.py": dict(
        args=[], exit_code=0,
        # every line, as TF 1.15.5 printed it (the seeded wide-and-deep metrics are not printed)
        lines=[
            'wide and deep variables: dnn/hiddenlayer_0/bias dnn/hiddenlayer_0/bias/Adam dnn/hiddenlayer_0/bias/Adam_1 dnn/hiddenlayer_0/kernel dnn/hiddenlayer_0/kernel/Adam dnn/hiddenlayer_0/kernel/Adam_1 dnn/logits/bias dnn/logits/bias/Adam dnn/logits/bias/Adam_1 dnn/logits/kernel dnn/logits/kernel/Adam dnn/logits/kernel/Adam_1 global_step head/beta1_power head/beta2_power linear/linear_model/bias_weights linear/linear_model/bias_weights/Ftrl linear/linear_model/bias_weights/Ftrl_1 linear/linear_model/color/weights linear/linear_model/color/weights/Ftrl linear/linear_model/color/weights/Ftrl_1 linear/linear_model/size/weights linear/linear_model/size/weights/Ftrl linear/linear_model/size/weights/Ftrl_1',
            'wide and deep metric keys: accuracy accuracy_baseline auc auc_precision_recall average_loss global_step label/mean loss precision prediction/mean recall',
            'wide only: accuracy=0.83333 accuracy_baseline=0.50000 auc=0.88889 auc_precision_recall=0.93333 average_loss=0.68905 global_step=4.00000 label/mean=0.50000 loss=2.06716 precision=0.75000 prediction/mean=0.50107 recall=1.00000',
            'wide regressor: average_loss=59.85526 global_step=3.00000 label/mean=7.00000 loss=179.56577 prediction/mean=0.04916',
            'BaselineClassifier variables: baseline/bias baseline/bias/Ftrl baseline/bias/Ftrl_1 global_step',
            'BaselineClassifier: accuracy=0.50000 accuracy_baseline=0.50000 auc=0.50000 auc_precision_recall=0.75000 average_loss=0.69660 global_step=3.00000 label/mean=0.50000 loss=2.08979 precision=0.50000 prediction/mean=0.54146 recall=1.00000',
            'BaselineClassifier predicts: all_class_ids all_classes class_ids classes logistic logits probabilities',
            'BaselineRegressor variables: baseline/bias baseline/bias/Ftrl baseline/bias/Ftrl_1 global_step',
            'BaselineRegressor: average_loss=0.25211 global_step=3.00000 label/mean=0.50000 loss=0.75632 prediction/mean=0.45408',
            'BaselineRegressor predicts: predictions',
        ],
    ),
    "estimator_dnn_classifier.py": dict(
        args=[], exit_code=0,
        lines=["variables: dnn/hiddenlayer_0/bias dnn/hiddenlayer_0/bias/t_0/Adagrad "
               "dnn/hiddenlayer_0/kernel dnn/hiddenlayer_0/kernel/t_0/Adagrad "
               "dnn/hiddenlayer_1/bias dnn/hiddenlayer_1/bias/t_0/Adagrad "
               "dnn/hiddenlayer_1/kernel dnn/hiddenlayer_1/kernel/t_0/Adagrad dnn/logits/bias "
               "dnn/logits/bias/t_0/Adagrad dnn/logits/kernel dnn/logits/kernel/t_0/Adagrad "
               "global_step",
               "metric keys: accuracy average_loss global_step loss", "accuracy: 1.00",
               "loss below 0.3: True", "global_step: 400",
               "prediction keys: all_class_ids all_classes class_ids classes logits "
               "probabilities",
               "classes: [b'0', b'2'] [0, 2]", "probabilities sum to 1: True"],
    ),
    "sys_exit_code.py": dict(
        args=[], exit_code=3,
        lines=["value: 6"], absent=["not reached"],
    ),
    "softmax_xent_v2.py": dict(
        args=[], exit_code=0,
        lines=["xent_v1 == v2: True", "sparse == v2: True", "by_hand == v2: True",
               "keep_dims shape: [2, 1]", "accuracy: 1"],
        numbers=[("xent_v2:", [0.417030, 0.211552], 1e-5), ("sigmoid sum:", [4.035692], 1e-5),
                 ("tf.losses mean:", [0.314291], 1e-5)],
    ),
    "exp_decay_adam.py": dict(
        args=[], exit_code=0,
        numbers=[("step 1 lr", [0.1, 1.1, -1.9], 1e-4),
                 ("step 2 lr", [0.1, 1.19983, -1.80010], 1e-4),
                 ("step 3 lr", [0.05, 1.24960, -1.75024], 1e-4),
                 ("step 4 lr", [0.05, 1.29924, -1.70046], 1e-4),
                 ("step 5 lr", [0.025, 1.32399, -1.67562], 1e-4),
                 ("momentum u:", [0.062], 1e-4)],
        lines=["adam slots: w/Adam w/Adam_1"],
    ),
    "batch_norm_update_ops.py": dict(
        args=[], exit_code=0,
        lines=["update ops: 2", "inference output shape: [2, 3]"],
        numbers=[("moving_mean:", [1.4991, 2.9999, 4.5000], 1e-3)],
    ),
    "logging_verbosity.py": dict(
        args=[], exit_code=0,
        lines=["verbosity is INFO: True", "done"],
        stderr=[r"corpus info message 42", r"corpus warning message"],
        stderr_absent=["corpus debug message", "corpus info after ERROR"],
    ),
    "gfile_io.py": dict(
        args=[], exit_code=0,
        lines=["exists: True", "lines: ['hello', 'world']", "bytes: 12",
               "glob: ['x.txt', 'y.txt']", "listdir: ['x.txt', 'y.txt']", "isdir: True",
               "deleted: True"],
    ),
    "freeze_graph.py": dict(
        args=[], exit_code=0,
        lines=["frozen has variables: False", "extract_sub_graph keeps all: True",
               "files: ['frozen.pb', 'frozen.pbtxt']", "output: [3.5, 2.5]"],
    ),
    "freeze_graph_private_import.py": dict(
        args=[], exit_code=0,
        lines=["frozen has variables: False", "files: ['frozen.pb', 'frozen.pbtxt']",
               "output: [3.5, 2.5]"],
    ),
    "session_config.py": dict(
        args=[], exit_code=0,
        lines=["a device: /device:CPU:0", "allow_growth: True fraction: 0.3", "c: [3.0, 5.0, 7.0]",
               "devices listed: True", "gpu available (bool): True"],
    ),
    "deep_mnist_style.py": dict(
        args=[], exit_code=0,
        lines=["truncated normal within 2 stddev: True", "loss decreased: True",
               "train accuracy >= 0.75: True", "dropout zeroed some: True"],
    ),
}
