"""The runner's command line, in-process (no TensorFlow needed)."""

import pytest

from tf1mem import run


@pytest.mark.parametrize("argv, script, module, args", [
    (["s.py"], "s.py", None, ()),
    (["s.py", "--allow-growth", "-m", "x"], "s.py", None, ("--allow-growth", "-m", "x")),
    (["--gpu-memory-fraction", "0.5", "s.py", "a"], "s.py", None, ("a",)),
    (["--gpu-memory-fraction=0.5", "--force-config", "s.py"], "s.py", None, ()),
    (["--placement-report", "p.json", "--", "-odd.py", "x"], "-odd.py", None, ("x",)),
    (["-m", "pkg.mod", "--flag"], None, "pkg.mod", ("--flag",)),
    (["-mpkg.mod", "a"], None, "pkg.mod", ("a",)),
    (["--seed", "3", "-m", "pkg.mod"], None, "pkg.mod", ()),
])
def test_split_at_script_or_module(tmp_path, monkeypatch, argv, script, module, args):
    monkeypatch.chdir(tmp_path)
    for name in ("s.py", "-odd.py"):
        (tmp_path / name).write_text("")
    opts = run.parse_args(argv)
    assert (opts.script, opts.module, opts.args) == (script, module, args)


def test_runner_options_are_parsed_once_into_frozen_options(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.py").write_text("")
    opts = run.parse_args(["--allow-growth", "--gpu-memory-fraction", "0.3", "--seed", "7",
                           "--placement-report", "r.csv", "--allow-remote", "s.py"])
    assert opts.session.allow_growth is True
    assert opts.session.per_process_gpu_memory_fraction == 0.3
    assert (opts.seed, opts.placement_report, opts.allow_remote) == (7, "r.csv", True)
    with pytest.raises(AttributeError):
        opts.seed = 8


@pytest.mark.parametrize("argv, needle", [
    (["--gpu-mem", "0.5", "s.py"], "--gpu-mem"),  # no abbreviations
    (["--seed", "x", "s.py"], "--seed"),
])
def test_bad_runner_options(tmp_path, monkeypatch, capsys, argv, needle):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.py").write_text("")
    with pytest.raises(SystemExit) as exc:
        run.parse_args(argv)
    assert exc.value.code == 2
    assert needle in capsys.readouterr().err
