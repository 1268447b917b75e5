"""What each library case must do under ``python -m tf1mem.run``, in the libraries' environment.

Derived from running each script with TensorFlow 1.15.5 and the same libraries at the
versions of that time (the oracle; raw stdout in ``oracle_tf115.json``). The keys are those of
``tests/legacy_corpus/expected.py``, plus:

``package``      the ``--tf1-packages`` name of the case's library (the "named" run passes it
                 with ``--no-known-tf1-packages``; the "recognised" run passes neither).
``distribution`` ``(name, version)`` the "recognised" run must report under ``--verbose``.
"""

# stable-baselines' ortho_init draws each weight matrix from np.linalg.svd of a seeded normal
# matrix. NumPy 1.18.5's LAPACK and NumPy 2.4's return some singular vectors of the same
# matrix with opposite signs: here the (4, 64) pi_fc0/w (its rows' signs), and so everything
# trained from it. Every other initial weight is TF 1.15.5's to the printed digit.
_SB_INIT = [
    "init model/pi/b:0 (2,) 0.000000",
    "init model/pi/w:0 (64, 2) -0.010161",
    "init model/pi_fc0/b:0 (64,) 0.000000",
    "init model/pi_fc1/b:0 (64,) 0.000000",
    "init model/pi_fc1/w:0 (64, 64) 3.029978",
    "init model/q/b:0 (2,) 0.000000",
    "init model/q/w:0 (64, 2) -0.002017",
    "init model/vf/b:0 (1,) 0.000000",
    "init model/vf/w:0 (64, 1) 0.259573",
    "init model/vf_fc0/b:0 (64,) 0.000000",
    "init model/vf_fc0/w:0 (4, 64) -3.892901",
    "init model/vf_fc1/b:0 (64,) 0.000000",
    "init model/vf_fc1/w:0 (64, 64) 4.862752",
]

CASES = {
    "lib_stable_baselines_ppo2.py": dict(
        package="stable_baselines", distribution=("stable-baselines", "2.10.2"),
        exit_code=0,
        lines=_SB_INIT + [
            "trained: model/pi/b:0 model/pi/w:0 model/pi_fc0/b:0 model/pi_fc0/w:0 "
            "model/pi_fc1/b:0 model/pi_fc1/w:0 model/vf/b:0 model/vf/w:0 model/vf_fc0/b:0 "
            "model/vf_fc0/w:0 model/vf_fc1/b:0 model/vf_fc1/w:0",
            "finite: True", "actions: 20 True"],
        stdout_regex=[r"^init model/pi_fc0/w:0 \(4, 64\) -?\d+\.\d{6}$"],
        oracle="init model/pi_fc0/w:0 (4, 64) 5.046187 (NumPy 1.18.5's SVD signs; 1.933850 "
               "under NumPy 2.4, with or without tf1mem)",
    ),
    "lib_tflearn_dnn.py": dict(
        package="tflearn", distribution=("tflearn", "0.5.0"),
        exit_code=0,
        lines=["pred: 0.51641 0.48359 0.52191 0.47809 0.52282 0.47718",
               "layers: FullyConnected/W:0 FullyConnected/b:0 FullyConnected_1/W:0 "
               "FullyConnected_1/b:0 FullyConnected_2/W:0 FullyConnected_2/b:0"],
    ),
    "lib_sonnet1_mlp.py": dict(
        package="sonnet", distribution=("dm-sonnet", "1.36"),
        exit_code=0,
        lines=["variables: mlp/linear_0/w:0 mlp/linear_0/b:0 mlp/linear_1/w:0 "
               "mlp/linear_1/b:0 head/w:0 head/b:0",
               "connected: True 4 2",
               "step 0 loss 0.825753", "step 1 loss 0.058999", "step 2 loss 0.022068",
               "z: -0.02585 0.01551 0.21701 -0.02864"],
    ),
    "lib_tensornets_mobilenet.py": dict(
        package="tensornets", distribution=("tensornets", "0.4.6"),
        exit_code=0,
        # The weights are tensornets' own initialisers, without op seeds: only what does not
        # depend on the random draw is checked (the softmax sums to 1 either way).
        lines=["output: [None, 10] mobilenet25/probs:0", "weights: 137", "params: 221114",
               "middles: 11", "probs: (1, 10) sum 1.0000"],
        # Under tf1mem tf.__version__ is 2.21's, so tensornets takes its TF >= 2.1 imports.
    ),
    "lib_tensorpack_trainer.py": dict(
        package="tensorpack", distribution=("tensorpack", "0.11"),
        exit_code=0,
        lines=["conv0/W  [3, 3, 1, 4]           36", "fc/W     [64, 3]               192",
               "Number of parameters (elements): 235", "step 1 cost 1.180716",
               "variables: conv0/W:0 conv0/b:0 fc/W:0 fc/b:0 global_step:0"],
        # The fetched cost reads the variables in the same run as the update, and the two
        # race (ref variables): TF 1.15.5 itself gave other costs after the first update
        # when the callback also evaluated the variables between steps (1.104991 1.115442
        # 1.083716, against 1.104324 1.116318 1.084252 as written), and tf1mem's runs
        # spread as far (step 4: 1.07997 in one run of 2026-12-07). Checked to 1e-2.
        numbers=[("step 2 cost", [1.104324], 1e-2), ("step 3 cost", [1.116318], 1e-2),
                 ("step 4 cost", [1.084252], 1e-2)],
    ),
}
