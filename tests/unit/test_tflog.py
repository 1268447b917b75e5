"""tf1mem._tflog: TensorFlow's C++ start-up lines and allocator dump held back.

Lines are written to file descriptor 2 as TensorFlow's C++ code writes them (the
ones below were printed by TensorFlow 2.21 on this CPU-only machine). The commands
that install it: tests/commands/test_command_output.py.
"""

import os
import sys

import pytest

from tf1mem import _places, _tflog

STARTUP = [
    "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
    "I0000 00:00:1796623473.317591   32031 port.cc:153] oneDNN custom operations are on. "
    "You may see slightly different numerical results due to floating-point round-off "
    "errors from different computation orders. To turn them off, set the environment "
    "variable `TF_ENABLE_ONEDNN_OPTS=0`.",
    "I0000 00:00:1796623473.317863   32031 cudart_stub.cc:31] Could not find cuda drivers "
    "on your machine, GPU will not be used.",
    "I0000 00:00:1796623473.399604   32031 cpu_feature_guard.cc:227] This TensorFlow binary "
    "is optimized to use available CPU instructions in performance-critical operations.",
    "To enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild "
    "TensorFlow with the appropriate compiler flags.",
    "E0000 00:00:1796623480.199153   32031 cuda_platform.cc:52] failed call to cuInit: "
    "INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)",
    "I0000 00:00:1796623588.702595    2139 mlir_graph_optimization_pass.cc:437] MLIR V1 "
    "optimization pass is not enabled",
    "W0000 00:00:1796625818.539684    7528 local_rendezvous.cc:412] Local rendezvous is "
    "aborting with status: ABORTED: Cleanup 4685400844411585 "
    "[type.googleapis.com/tensorflow.DerivedStatus='']",
]
ALLOCATOR = [
    "W0000 00:00:1796623600.000001    2139 bfc_allocator.cc:501] Allocator (mklcpu) ran out "
    "of memory trying to allocate 1.00GiB (rounded to 1073741824)requested by op MatMul",
    "I0000 00:00:1796623600.000002    2139 bfc_allocator.cc:1046] Bin (256): Total Chunks: 1",
    "LargestFreeBlock:                   0B",
    "",
    "W0000 00:00:1796624233.382008   20843 op_kernel.cc:1858] OP_REQUIRES failed at "
    "gather_op.cc:171 : RESOURCE_EXHAUSTED: OOM when allocating tensor with "
    "shape[20000,784] and type uint8",
    "\t [[{{function_node while_body_37}}{{node GatherV2_1}}]]",
]
KEPT = [
    "E0000 00:00:1796623600.000003    2139 grpc_server_lib.cc:400] Could not start gRPC "
    "server: address in use",
    "W0000 00:00:1796623600.000004    2139 op_kernel.cc:1842] OP_REQUIRES failed",
    "Traceback (most recent call last):",
]


@pytest.fixture
def report_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "reports"))
    return tmp_path / "reports"


def _write_fd2(lines):
    os.write(2, "".join(line + "\n" for line in lines).encode())


def test_startup_lines_and_the_allocator_dump_are_held_back(report_dir, capfd):
    before = sys.stderr
    with _tflog.QuietTensorFlow() as quiet:
        assert sys.stderr is not before
        _write_fd2(STARTUP + ALLOCATOR + KEPT)
        print("tf1mem: a message of the command's own", file=sys.stderr)
        held = quiet.allocator_lines()
    err = capfd.readouterr().err
    assert sys.stderr is before
    for line in STARTUP + ALLOCATOR:
        assert not line or line not in err
    for line in KEPT + ["tf1mem: a message of the command's own"]:
        assert line in err
    assert held == ALLOCATOR
    # fd 2 is the real stderr again and the held file is gone.
    _write_fd2(["after"])
    assert capfd.readouterr().err == "after\n"
    assert list(report_dir.iterdir()) == []


def test_a_second_install_does_nothing_and_a_partial_line_is_not_lost(report_dir, capfd):
    with _tflog.QuietTensorFlow():
        inner = _tflog.QuietTensorFlow().install()
        inner.close()  # not installed: closing it changes nothing
        os.write(2, b"no newline at the end")
    assert capfd.readouterr().err == "no newline at the end"


def test_verbose_installs_nothing(report_dir, capfd):
    with _tflog.quiet_tensorflow(verbose=True) as quiet:
        assert quiet is None
        _write_fd2(STARTUP[:1])
    assert capfd.readouterr().err == STARTUP[0] + "\n"
    assert not report_dir.exists()


@pytest.mark.parametrize("line", STARTUP)
def test_startup_lines_are_recognised(line):
    assert _tflog.is_startup_line(line)


@pytest.mark.parametrize("line", KEPT)
def test_other_lines_are_not(line):
    assert not _tflog.is_startup_line(line) and not _tflog.is_allocator_line(line)


def test_without_a_report_folder_nothing_is_held_and_nothing_fails(tmp_path, monkeypatch,
                                                                   capfd):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv(_places.REPORT_DIR_ENV_VAR, str(tmp_path / "file" / "reports"))
    with _tflog.QuietTensorFlow() as quiet:
        _write_fd2(STARTUP[:1])
        assert quiet.allocator_lines() == []
    assert capfd.readouterr().err == STARTUP[0] + "\n"
