"""Issue 32, item 0, the window: opening a clean ``torch.export`` program and ``.safetensors``
weights (with an architecture) from a model folder full of decoys, while the working folder
is full of them too, runs none, and no import happens while either folder is on sys.path."""

from __future__ import annotations

import sys

from tests.cli.test_working_folder_code import make_model_folder
from tests.decoys import decoys_that_ran, plant_decoys, watching
from tests.gui.conftest import wait_idle
from tests.gui import doors


def test_the_windows_loader_runs_no_decoy(qtbot, make_window, tmp_path, monkeypatch):
    work, marks = tmp_path / "work", tmp_path / "marks"
    models = make_model_folder(tmp_path / "models")
    work.mkdir()
    plant_decoys(work, marks)
    plant_decoys(models, marks)
    monkeypatch.chdir(work)
    # The test process's own start may have put "" (the working folder) on sys.path: not the window's doing.
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if entry not in ("", ".")])
    with watching([work, models]) as watch:
        window = make_window("example")
        assert window.open_model(str(models / "exported.pt2"))
        qtbot.waitUntil(lambda: doors.model(window).info.source == "export", timeout=60_000)
        wait_idle(qtbot, window)
        assert window.open_model(str(models / "model.safetensors"), architecture="example")
        qtbot.waitUntil(lambda: doors.model(window).info.source == "safetensors", timeout=60_000)
        wait_idle(qtbot, window)
    assert decoys_that_ran(marks) == []
    assert watch.seen == []
