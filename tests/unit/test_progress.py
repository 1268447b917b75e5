"""tf1mem._progress: one rule for every command's progress bar.

A bar is drawn only on a terminal: a log file or a pipe gets no ``\\r`` frames, from
``train`` (tests/tf/test_fast_train.py runs it), the memory sweep (below) or the cluster
launcher (tests/commands/test_command_output.py draws it on a pseudo-terminal).
"""

import io

from tf1mem import _progress
from tf1mem.observe import sweep


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_bar_is_drawn_on_a_terminal_only():
    for stream, enabled, drawn in ((_Terminal(), True, True), (_Terminal(), False, False),
                                   (io.StringIO(), True, False)):
        with _progress.bar(3, "sweep", "run", enabled, stream) as bar:
            bar.update(3)
        assert ("\r" in stream.getvalue()) is drawn, (stream, enabled)
    assert not _progress.shows(True, object())  # no isatty at all


def test_the_sweeps_bar_writes_no_frames_into_a_log(monkeypatch, tmp_path, capsys):
    cpu = "/job:localhost/replica:0/task:0/device:CPU:0"
    monkeypatch.setattr(sweep, "measure_point", lambda spec, batch, limit=None, launch=None:
                        sweep.Point(batch, {cpu: 1000 * batch}, 0.01))
    spec = sweep.ModelSpec(model="softmax", hidden=8, dtype="float32", steps=1)
    points = sweep.run_sweep(spec, (2, 4, 8), str(tmp_path / "s.csv"),
                             str(tmp_path / "s.png"), progress=True)
    assert len(points) == 3
    # stderr here is pytest's capture, not a terminal: no bar at all.
    assert "\r" not in capsys.readouterr().err
