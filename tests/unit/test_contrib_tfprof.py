"""tf.contrib.tfprof under tf1mem: provided on TF's own profiler (the corpus script
``contrib_tfprof.py`` compares the report with TF 1.15.5's); here the refusals, which need
no TensorFlow."""

import pytest

from tf1mem.compat import errors as compat_errors
from tf1mem.compat import table
from tf1mem.compat.tf.contrib import tfprof
from tf1mem.compat.tf.contrib.tfprof import model_analyzer


def test_tfprof_is_provided_not_removed():
    assert "tfprof" in table.CONTRIB_MODULES and "tfprof" not in table.REMOVED_CONTRIB


def test_option_sets_are_tf1s_module_level_dicts():
    opts = model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
    assert opts is model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS
    assert opts["select"] == ["params"]
    assert opts["account_type_regexes"] == ["_trainable_variables"]
    assert model_analyzer.FLOAT_OPS_OPTIONS["order_by"] == "float_ops"


@pytest.mark.parametrize("kwargs, error, needle", [
    (dict(tfprof_cmd="scopes"), ValueError, "tfprof_cmd='scopes'"),
    (dict(tfprof_options="params"), TypeError, "got str"),
])
def test_bad_arguments_are_named(kwargs, error, needle):
    with pytest.raises(error, match=needle):
        model_analyzer.print_model_analysis(None, **kwargs)


def test_profile_context_names_a_replacement():
    for module in (tfprof, model_analyzer):
        with pytest.raises(compat_errors.RemovedAttributeError, match="Profiler: add_step"):
            module.ProfileContext
