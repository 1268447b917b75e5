"""Fast in-process tests of tf1mem.config: build, validate, env, merge, warn, describe.

The tests here: TensorFlow in the test process; the rest: tests/commands/test_config.py,
tests/unit/test_config.py.
"""

import argparse
import math
import sys
import types
import warnings

import pytest

from tf1mem import config as cfg
from tf1mem.errors import ConfigError, Error

tf = pytest.importorskip("tensorflow")

FORCE = cfg.TF_FORCE_GPU_ALLOW_GROWTH


@pytest.fixture(autouse=True)
def fresh_state():
    """One fresh graph and an empty GPU-options registry per test."""
    cfg.reset_registry()
    with tf.Graph().as_default():
        yield
    cfg.reset_registry()


def _proto(**fields):
    config = tf.compat.v1.ConfigProto()
    for name, value in fields.items():
        target = config.gpu_options if name in cfg.GPU_OPTION_NAMES else config
        setattr(target, name, value)
    return config


# ----------------------------------------------------------------- building


@pytest.mark.parametrize(
    "name, value, read_back",
    [
        ("allow_growth", True, lambda c: c.gpu_options.allow_growth),
        ("per_process_gpu_memory_fraction", 0.25,
         lambda c: c.gpu_options.per_process_gpu_memory_fraction),
        ("per_process_gpu_memory_fraction", 1,
         lambda c: c.gpu_options.per_process_gpu_memory_fraction),
        ("visible_device_list", "0,1", lambda c: c.gpu_options.visible_device_list),
        ("log_device_placement", True, lambda c: c.log_device_placement),
        ("allow_soft_placement", True, lambda c: c.allow_soft_placement),
        ("inter_op_parallelism_threads", 3, lambda c: c.inter_op_parallelism_threads),
        ("intra_op_parallelism_threads", 5, lambda c: c.intra_op_parallelism_threads),
    ],
)
def test_each_option_is_set_and_read_back(name, value, read_back):
    config = cfg.session_config(**{name: value}, use_env=False)
    assert isinstance(config, tf.compat.v1.ConfigProto)
    assert read_back(config) == pytest.approx(value)
    # Nothing else is set.
    assert cfg.explicit_options(config) == {name: value}


def test_no_options_gives_an_empty_proto():
    config = cfg.session_config(use_env=False)
    assert config.ByteSize() == 0
    assert not config.HasField("gpu_options")


@pytest.mark.parametrize(
    "value, expected",
    [("0", "0"), (" 2 , 0 ", "2,0"), ([1, 3], "1,3"), ((0,), "0"), (range(2), "0,1")],
)
def test_device_list_forms_are_normalized(value, expected):
    config = cfg.session_config(visible_device_list=value, use_env=False)
    assert config.gpu_options.visible_device_list == expected


def test_session_options_are_frozen_and_normalized():
    options = cfg.SessionOptions(
        per_process_gpu_memory_fraction=1, visible_device_list=[0, 2]
    )
    assert options.per_process_gpu_memory_fraction == 1.0
    assert isinstance(options.per_process_gpu_memory_fraction, float)
    assert options.visible_device_list == "0,2"
    assert options.as_dict() == {
        "per_process_gpu_memory_fraction": 1.0,
        "visible_device_list": "0,2",
    }
    with pytest.raises(AttributeError):
        options.allow_growth = True  # type: ignore[misc]


def test_unknown_option_in_mapping_is_named():
    with pytest.raises(ConfigError, match="allow_grwth"):
        cfg.SessionOptions.from_mapping({"allow_grwth": True})


def test_sentinel_is_falsy_singleton():
    assert repr(cfg.UNSET) == "UNSET"
    assert not cfg.UNSET
    assert type(cfg.UNSET)() is cfg.UNSET


# ----------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "name, value",
    [
        ("per_process_gpu_memory_fraction", math.nan),
        ("per_process_gpu_memory_fraction", math.inf),
        ("per_process_gpu_memory_fraction", -math.inf),
        ("per_process_gpu_memory_fraction", 0),
        ("per_process_gpu_memory_fraction", 0.0),
        ("per_process_gpu_memory_fraction", -0.5),
        ("per_process_gpu_memory_fraction", 1.5),
        ("per_process_gpu_memory_fraction", "0.5"),
        ("per_process_gpu_memory_fraction", True),
        ("per_process_gpu_memory_fraction", [0.5]),
        ("allow_growth", "yes"),
        ("allow_growth", 1),
        ("allow_growth", 0),
        ("log_device_placement", "true"),
        ("allow_soft_placement", 1.0),
        ("visible_device_list", ""),
        ("visible_device_list", "0,,1"),
        ("visible_device_list", "a"),
        ("visible_device_list", "-1"),
        ("visible_device_list", "0,0"),
        ("visible_device_list", "1.5"),
        ("visible_device_list", []),
        ("visible_device_list", [-1]),
        ("visible_device_list", [True]),
        ("visible_device_list", ["0"]),
        ("visible_device_list", [1, 1]),
        ("visible_device_list", 0),
        ("inter_op_parallelism_threads", -1),
        ("intra_op_parallelism_threads", -4),
        ("inter_op_parallelism_threads", 2.0),
        ("intra_op_parallelism_threads", "2"),
        ("inter_op_parallelism_threads", True),
    ],
)
def test_invalid_values_raise_config_error_naming_option_and_value(name, value):
    with pytest.raises(ConfigError) as info:
        cfg.session_config(**{name: value}, use_env=False)
    message = str(info.value)
    assert name in message
    assert repr(value) in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, Error)


def test_fraction_message_says_what_is_accepted():
    with pytest.raises(ConfigError, match=r"in \(0, 1\]"):
        cfg.session_config(per_process_gpu_memory_fraction=2.0, use_env=False)


def test_numpy_numbers_are_accepted():
    np = pytest.importorskip("numpy")
    config = cfg.session_config(
        per_process_gpu_memory_fraction=np.float32(0.5),
        inter_op_parallelism_threads=np.int64(2),
        visible_device_list=np.array([0, 1]).tolist(),
        use_env=False,
    )
    assert config.gpu_options.per_process_gpu_memory_fraction == 0.5
    assert config.inter_op_parallelism_threads == 2


# ----------------------------------------------------------------- environment


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({"TF1MEM_ALLOW_GROWTH": "1"}, {"allow_growth": True}),
        ({"TF1MEM_ALLOW_GROWTH": "Yes"}, {"allow_growth": True}),
        ({"TF1MEM_ALLOW_GROWTH": "ON"}, {"allow_growth": True}),
        ({"TF1MEM_ALLOW_GROWTH": " true "}, {"allow_growth": True}),
        ({"TF1MEM_ALLOW_GROWTH": "off"}, {"allow_growth": False}),
        ({"TF1MEM_ALLOW_GROWTH": "0"}, {"allow_growth": False}),
        ({"TF1MEM_GPU_MEMORY_FRACTION": "0.3"},
         {"per_process_gpu_memory_fraction": 0.3}),
        ({"TF1MEM_LOG_DEVICE_PLACEMENT": "no"}, {"log_device_placement": False}),
        ({"TF1MEM_ALLOW_SOFT_PLACEMENT": "true"}, {"allow_soft_placement": True}),
        ({"TF1MEM_VISIBLE_DEVICES": "1, 0"}, {"visible_device_list": "1,0"}),
        ({"TF1MEM_INTER_OP_THREADS": "2"}, {"inter_op_parallelism_threads": 2}),
        ({"TF1MEM_INTRA_OP_THREADS": "0"}, {"intra_op_parallelism_threads": 0}),
        ({"TF1MEM_ALLOW_GROWTH": ""}, {}),
        ({"TF1MEM_GPU_MEMORY_FRACTION": "  "}, {}),
        ({FORCE: ""}, {}),
        ({FORCE: "true"}, {"allow_growth": True}),
        ({FORCE: "false"}, {"allow_growth": False}),
        ({FORCE: "true", "TF1MEM_ALLOW_GROWTH": "yes"}, {"allow_growth": True}),
        ({"UNRELATED": "x"}, {}),
    ],
)
def test_options_from_env(environ, expected):
    assert cfg.options_from_env(environ) == expected


@pytest.mark.parametrize(
    "variable, text",
    [
        ("TF1MEM_ALLOW_GROWTH", "maybe"),
        ("TF1MEM_ALLOW_GROWTH", "2"),
        ("TF1MEM_LOG_DEVICE_PLACEMENT", "y"),
        ("TF1MEM_ALLOW_SOFT_PLACEMENT", "enabled"),
        ("TF1MEM_GPU_MEMORY_FRACTION", "half"),
        ("TF1MEM_GPU_MEMORY_FRACTION", "nan"),
        ("TF1MEM_GPU_MEMORY_FRACTION", "inf"),
        ("TF1MEM_GPU_MEMORY_FRACTION", "0"),
        ("TF1MEM_GPU_MEMORY_FRACTION", "1.01"),
        ("TF1MEM_VISIBLE_DEVICES", "gpu0"),
        ("TF1MEM_VISIBLE_DEVICES", "0,0"),
        ("TF1MEM_INTER_OP_THREADS", "-1"),
        ("TF1MEM_INTRA_OP_THREADS", "two"),
        # TensorFlow's C++ accepts exactly "true" or "false".
        (FORCE, "1"),
        (FORCE, "True"),
        (FORCE, "yes"),
    ],
)
def test_bad_env_values_name_the_variable_and_value(variable, text):
    with pytest.raises(ConfigError) as info:
        cfg.options_from_env({variable: text})
    assert f"environment variable {variable}" in str(info.value)
    assert repr(text) in str(info.value)
    # session_config reads the same variables.
    with pytest.raises(ConfigError, match=variable):
        cfg.session_config(environ={variable: text})


def test_conflicting_allow_growth_variables_are_an_error():
    with pytest.raises(ConfigError, match=f"TF1MEM_ALLOW_GROWTH.*{FORCE}"):
        cfg.options_from_env({"TF1MEM_ALLOW_GROWTH": "0", FORCE: "true"})


def test_env_is_applied_to_session_config():
    config = cfg.session_config(
        environ={"TF1MEM_ALLOW_GROWTH": "1", "TF1MEM_GPU_MEMORY_FRACTION": "0.4"}
    )
    assert config.gpu_options.allow_growth
    assert config.gpu_options.per_process_gpu_memory_fraction == pytest.approx(0.4)


def test_tf_force_allow_growth_sets_allow_growth():
    config = cfg.session_config(environ={FORCE: "true"})
    assert config.gpu_options.allow_growth


def test_process_environment_is_read_by_default(monkeypatch):
    monkeypatch.setenv("TF1MEM_ALLOW_SOFT_PLACEMENT", "yes")
    monkeypatch.delenv(FORCE, raising=False)
    assert cfg.session_config().allow_soft_placement
    assert not cfg.session_config(use_env=False).allow_soft_placement


def test_use_env_false_ignores_even_bad_env():
    config = cfg.session_config(use_env=False, environ={"TF1MEM_ALLOW_GROWTH": "?"})
    assert config.ByteSize() == 0


# ----------------------------------------------------------------- precedence


def test_explicit_keyword_beats_env():
    environ = {
        "TF1MEM_GPU_MEMORY_FRACTION": "0.9",
        "TF1MEM_ALLOW_GROWTH": "1",
        "TF1MEM_VISIBLE_DEVICES": "1",
    }
    config = cfg.session_config(
        per_process_gpu_memory_fraction=0.2, allow_growth=False, environ=environ
    )
    assert config.gpu_options.per_process_gpu_memory_fraction == pytest.approx(0.2)
    assert not config.gpu_options.allow_growth
    assert config.gpu_options.visible_device_list == "1"  # from env, not overridden


def test_explicit_none_keeps_default_despite_env():
    config = cfg.session_config(
        per_process_gpu_memory_fraction=None,
        environ={"TF1MEM_GPU_MEMORY_FRACTION": "0.9"},
    )
    assert config.gpu_options.per_process_gpu_memory_fraction == 0.0


def test_bad_explicit_value_reported_before_bad_env():
    with pytest.raises(ConfigError, match="per_process_gpu_memory_fraction"):
        cfg.session_config(
            per_process_gpu_memory_fraction=7,
            environ={"TF1MEM_ALLOW_GROWTH": "?"},
        )


def test_resolve_options_explicit_beats_env():
    options = cfg.resolve_options(
        cfg.SessionOptions(allow_growth=False),
        environ={"TF1MEM_ALLOW_GROWTH": "1", "TF1MEM_INTRA_OP_THREADS": "3"},
    )
    assert options == cfg.SessionOptions(
        allow_growth=False, intra_op_parallelism_threads=3
    )
    assert cfg.resolve_options({"allow_growth": True}, use_env=False) == (
        cfg.SessionOptions(allow_growth=True)
    )


# ----------------------------------------------------------------- merging


def test_merge_onto_none_builds_new_config():
    merged = cfg.merge_config(None, cfg.SessionOptions(allow_growth=True))
    assert merged.gpu_options.allow_growth


def test_merge_base_explicit_value_wins():
    base = _proto(per_process_gpu_memory_fraction=0.7, log_device_placement=True)
    merged = cfg.merge_config(
        base,
        {"per_process_gpu_memory_fraction": 0.2, "allow_growth": True},
    )
    assert merged.gpu_options.per_process_gpu_memory_fraction == pytest.approx(0.7)
    assert merged.gpu_options.allow_growth  # base did not set it
    assert merged.log_device_placement


def test_merge_force_wins():
    base = _proto(per_process_gpu_memory_fraction=0.7, allow_growth=True)
    merged = cfg.merge_config(
        base,
        cfg.SessionOptions(per_process_gpu_memory_fraction=0.2, allow_growth=False),
        force=True,
    )
    assert merged.gpu_options.per_process_gpu_memory_fraction == pytest.approx(0.2)
    assert not merged.gpu_options.allow_growth


def test_merge_never_mutates_base_and_keeps_other_fields():
    base = _proto(allow_growth=True)
    base.operation_timeout_in_ms = 1234
    before = base.SerializeToString()
    merged = cfg.merge_config(
        base, allow_growth=False, visible_device_list="0", force=True
    )
    assert base.SerializeToString() == before
    assert merged is not base
    assert merged.operation_timeout_in_ms == 1234
    assert merged.gpu_options.visible_device_list == "0"
    assert not merged.gpu_options.allow_growth


def test_merge_keywords_beat_options_argument():
    merged = cfg.merge_config(
        None, {"inter_op_parallelism_threads": 1}, inter_op_parallelism_threads=4
    )
    assert merged.inter_op_parallelism_threads == 4


def test_merge_false_in_base_reads_as_unset():
    # proto3 cannot tell allow_growth=False from never assigned.
    base = _proto(allow_growth=False)
    merged = cfg.merge_config(base, allow_growth=True)
    assert merged.gpu_options.allow_growth


@pytest.mark.parametrize("base", ["config", {"allow_growth": True}, 3])
def test_merge_rejects_non_proto_base(base):
    with pytest.raises(ConfigError, match="base must be a tf.compat.v1.ConfigProto"):
        cfg.merge_config(base, allow_growth=True)


def test_merge_validates_options():
    with pytest.raises(ConfigError, match="nan"):
        cfg.merge_config(None, per_process_gpu_memory_fraction=math.nan)
    with pytest.raises(ConfigError, match="force"):
        cfg.merge_config(None, force="yes")


def test_explicit_options_reads_non_default_fields():
    config = _proto(allow_growth=True, intra_op_parallelism_threads=2)
    assert cfg.explicit_options(config) == {
        "allow_growth": True,
        "intra_op_parallelism_threads": 2,
    }


# ----------------------------------------------------------------- registry


def test_first_session_never_warns_and_same_options_do_not_warn():
    first = _proto(allow_growth=True, per_process_gpu_memory_fraction=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.note_session_config(first, environ={}) == ()
        assert cfg.note_session_config(first, environ={}) == ()
        # A later config that asks for nothing asks for nothing to be ignored.
        assert cfg.note_session_config(None, environ={}) == ()


def test_different_gpu_options_warn_once_naming_them():
    cfg.note_session_config(_proto(allow_growth=True), environ={})
    later = _proto(per_process_gpu_memory_fraction=0.3, visible_device_list="1")
    with pytest.warns(cfg.GpuOptionsIgnoredWarning) as record:
        ignored = cfg.note_session_config(later, environ={})
    assert ignored == ("per_process_gpu_memory_fraction", "visible_device_list")
    assert len(record) == 1
    message = str(record[0].message)
    assert "per_process_gpu_memory_fraction=0.3" in message  # what was asked
    assert "allow_growth=True" in message  # what is in force
    assert "first session" in message
    assert "TF1MEM_GPU_MEMORY_FRACTION" in message
    # The same request again: reported, but no second warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.note_session_config(later, environ={}) == ignored


def test_allow_growth_later_than_first_session_warns():
    cfg.note_session_config(None, environ={})
    with pytest.warns(cfg.GpuOptionsIgnoredWarning, match="allow_growth=True"):
        assert cfg.note_session_config(_proto(allow_growth=True), environ={}) == (
            "allow_growth",
        )


def test_non_gpu_options_never_warn():
    cfg.note_session_config(_proto(allow_growth=True), environ={})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.note_session_config(
            _proto(allow_growth=True, log_device_placement=True), environ={}
        ) == ()


def test_tf_force_allow_growth_makes_allow_growth_moot():
    cfg.note_session_config(None, environ={FORCE: "true"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.note_session_config(
            _proto(allow_growth=True), environ={FORCE: "true"}
        ) == ()


def test_reset_registry_forgets_first_session():
    cfg.note_session_config(_proto(allow_growth=True), environ={})
    cfg.reset_registry()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.note_session_config(
            _proto(per_process_gpu_memory_fraction=0.1), environ={}
        ) == ()


def _fake_eager_context_module(initialized, allow_growth=False):
    gpu = tf.compat.v1.GPUOptions(allow_growth=allow_growth)
    ctx = types.SimpleNamespace(
        _initialized=initialized, config=tf.compat.v1.ConfigProto(gpu_options=gpu)
    )
    return types.SimpleNamespace(context_safe=lambda: ctx)


def test_eager_devices_created_first_makes_first_session_warn(monkeypatch):
    monkeypatch.setitem(
        sys.modules, "tensorflow.python.eager.context",
        _fake_eager_context_module(True),
    )
    assert cfg.eager_devices_initialized() is True
    with pytest.warns(cfg.GpuOptionsIgnoredWarning, match="eager"):
        assert cfg.note_session_config(_proto(allow_growth=True), environ={}) == (
            "allow_growth",
        )


def test_eager_growth_in_force_matches_session(monkeypatch):
    monkeypatch.setitem(
        sys.modules, "tensorflow.python.eager.context",
        _fake_eager_context_module(True, allow_growth=True),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cfg.note_session_config(_proto(allow_growth=True), environ={}) == ()


@pytest.mark.parametrize(
    "module, expected",
    [
        (None, False),  # TF's eager context never imported
        (types.SimpleNamespace(context_safe=lambda: None), False),  # no context yet
        (types.SimpleNamespace(
            context_safe=lambda: types.SimpleNamespace(_initialized=False)), False),
        (types.SimpleNamespace(context_safe=lambda: object()), None),  # API changed
        (types.SimpleNamespace(), None),
    ],
)
def test_eager_devices_initialized_probe(monkeypatch, module, expected):
    if module is None:
        monkeypatch.delitem(sys.modules, "tensorflow.python.eager.context")
    else:
        monkeypatch.setitem(sys.modules, "tensorflow.python.eager.context", module)
    assert cfg.eager_devices_initialized() is expected


# ----------------------------------------------------------------- describing


def test_describe_without_gpu_says_gpu_options_have_no_effect():
    config = cfg.session_config(
        allow_growth=True, per_process_gpu_memory_fraction=0.5,
        log_device_placement=True, use_env=False,
    )
    lines = cfg.describe_config(config, environ={}, gpu_present=False)
    assert len(lines) == len(cfg.OPTION_NAMES)
    by_name = dict(line.split(": ", 1) for line in lines)
    assert by_name["allow_growth"] == "True (no GPU visible: has no effect)"
    assert by_name["per_process_gpu_memory_fraction"].startswith("0.5 (no GPU")
    assert by_name["log_device_placement"] == "True"
    assert "default" in by_name["visible_device_list"]


def test_describe_with_gpu_has_no_no_effect_note():
    config = cfg.session_config(allow_growth=True, use_env=False)
    lines = cfg.describe_config(config, environ={}, gpu_present=True)
    assert lines[0] == "allow_growth: True"
    assert not any("no effect" in line for line in lines)


def test_describe_reports_tf_force_allow_growth_override():
    config = cfg.session_config(allow_growth=False, use_env=False)
    lines = cfg.describe_config(config, environ={FORCE: "true"}, gpu_present=True)
    assert lines[0].startswith("allow_growth: True (forced to True by")
    assert FORCE in lines[0]
    with pytest.raises(ConfigError, match=FORCE):
        cfg.describe_config(config, environ={FORCE: "on"}, gpu_present=True)


def test_describe_uses_real_gpu_query_on_this_machine():
    present = cfg.gpu_available()
    assert present == bool(tf.config.list_physical_devices("GPU"))
    lines = cfg.describe_config(
        cfg.session_config(allow_growth=True, use_env=False), environ={}
    )
    assert ("no GPU visible" in lines[0]) is (not present)


def test_describe_none_is_all_defaults():
    lines = cfg.describe_config(None, environ={}, gpu_present=False)
    assert all("default" in line for line in lines)


# ----------------------------------------------------------------- command line


def _parser():
    parser = argparse.ArgumentParser(prog="tf1mem-test")
    cfg.add_argparse_flags(parser)
    return parser


def test_flags_parse_into_session_options():
    namespace = _parser().parse_args([
        "--allow-growth", "--gpu-memory-fraction", "0.5", "--log-device-placement",
        "--no-allow-soft-placement", "--visible-devices", "0,1",
        "--inter-op-threads", "2", "--intra-op-threads", "4",
    ])
    assert cfg.options_from_args(namespace) == cfg.SessionOptions(
        allow_growth=True,
        per_process_gpu_memory_fraction=0.5,
        log_device_placement=True,
        allow_soft_placement=False,
        visible_device_list="0,1",
        inter_op_parallelism_threads=2,
        intra_op_parallelism_threads=4,
    )


def test_no_flags_give_empty_options():
    assert cfg.options_from_args(_parser().parse_args([])) == cfg.SessionOptions()
    assert cfg.options_from_args(argparse.Namespace()) == cfg.SessionOptions()


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["--gpu-memory-fraction", "1.5"], "--gpu-memory-fraction"),
        (["--gpu-memory-fraction", "nan"], "--gpu-memory-fraction"),
        (["--gpu-memory-fraction", "x"], "--gpu-memory-fraction"),
        (["--visible-devices", "0,a"], "--visible-devices"),
        (["--inter-op-threads", "-2"], "--inter-op-threads"),
        (["--intra-op-threads", "1.5"], "--intra-op-threads"),
    ],
)
def test_bad_flag_values_exit_2_naming_flag(argv, flag, capsys):
    with pytest.raises(SystemExit) as info:
        _parser().parse_args(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert flag in err and repr(argv[1]) in err


def test_options_from_args_names_flag_for_hand_built_namespace():
    with pytest.raises(ConfigError, match="--gpu-memory-fraction"):
        cfg.options_from_args(argparse.Namespace(per_process_gpu_memory_fraction=2.0))


def test_add_argparse_flags_checks_parser():
    with pytest.raises(ConfigError, match="parser"):
        cfg.add_argparse_flags(object())


# ----------------------------------------------------------------- hygiene


def test_all_names_exist():
    for name in cfg.__all__:
        assert hasattr(cfg, name), name
