"""A model whose forward never returns (issue 32, item 11): Cancel cannot stop it, and the
window says so, with what can be done.

The forward waits on a ``threading.Event`` the test holds: the test decides when (if ever)
it returns. The notice's delay is patched short; nothing here measures time.
"""

from __future__ import annotations

import contextlib

from inspector.gui.shell import stuck_notice
from tests.gui.deep_models import factory_spec
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS

#: A model whose forward waits at ``gate`` (open while the model loads) and says when it entered.
HANGING = (
    "import threading\n"
    "import torch\n\n"
    "class Hanging(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = torch.nn.Linear(3, 1)\n"
    "        self.gate, self.entered = threading.Event(), threading.Event()\n"
    "        self.gate.set()\n\n"
    "    def forward(self, x):\n"
    "        self.entered.set()\n"
    "        self.gate.wait()\n"
    "        return self.fc(x)\n\n"
    "def make():\n"
    "    return Hanging(), torch.randn(2, 3)\n"
)


@contextlib.contextmanager
def _stuck_benchmark(make_window, tmp_path, monkeypatch, qtbot):
    """A window holding the model, a benchmark started and stuck in its forward, Cancel pressed.

    A context (not a fixture): the forward is released before pytest-qt closes the window at
    teardown, which would otherwise wait on the stuck worker."""
    monkeypatch.setattr(stuck_notice, "NOTICE_DELAY_S", 0.05)
    window = make_window(factory_spec(tmp_path, HANGING, "hanging"))
    model = window.worker.session.loaded.module
    model.gate.clear()
    model.entered.clear()
    try:
        doors.bar(window).runsSpin.setValue(5)
        doors.bar(window).benchmarkButton.click()
        qtbot.waitUntil(model.entered.is_set, timeout=30_000)
        doors.bar(window).cancelButton.click()
        assert window.statusBusy.text() == "Cancelling the benchmark…"
        yield window, model
    finally:
        model.gate.set()  # whatever the test did: the worker can end, and the window close
        qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)


def test_cancel_says_the_forward_has_not_returned_and_the_window_recovers_when_it_does(
    make_window, tmp_path, monkeypatch, qtbot
):
    with _stuck_benchmark(make_window, tmp_path, monkeypatch, qtbot) as (window, model):
        notice = window.stuckNotice
        qtbot.waitUntil(lambda: not notice.isHidden(), timeout=GENEROUS_MS)
        assert notice.title.text() == "The model's forward pass has not returned"
        assert "cannot be interrupted" in notice.message.text()
        assert notice.wait_button.text() == "Keep waiting" and notice.quit_button.text() == "Save settings and quit"
        assert doors.busy(window) == "benchmark"  # still running: nothing pretends it stopped

        notice.wait_button.click()
        assert notice.isHidden() and doors.busy(window) == "benchmark"
        model.gate.set()  # the forward returns: the benchmark sees the cancel
        qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    assert doors.history_view(window).history.entries()[-1].result.startswith("cancelled")
    assert notice.isHidden() and window.statusBusy.text() == "Ready"
    assert doors.bar(window).benchmarkButton.isEnabled()


def test_save_settings_and_quit_saves_the_layout_then_ends_the_process(
    make_window, tmp_path, monkeypatch, qtbot, clean_settings
):
    left: list[int] = []
    monkeypatch.setattr(stuck_notice, "_leave", left.append)  # (os._exit would end pytest too)
    with _stuck_benchmark(make_window, tmp_path, monkeypatch, qtbot) as (window, _model):
        clean_settings.remove("window")
        qtbot.waitUntil(lambda: not window.stuckNotice.isHidden(), timeout=GENEROUS_MS)
        window.stuckNotice.quit_button.click()
        assert left == [0]
    clean_settings.sync()
    assert clean_settings.value("window/geometry") is not None  # what the next start restores


def test_a_cancel_that_ends_the_task_in_time_shows_no_notice(make_window, qtbot, monkeypatch):
    monkeypatch.setattr(stuck_notice, "NOTICE_DELAY_S", 3600.0)  # never reached: the task ends first
    window = make_window()
    doors.bar(window).runsSpin.setValue(doors.bar(window).runsSpin.maximum())
    doors.bar(window).benchmarkButton.click()
    qtbot.waitUntil(lambda: doors.busy(window) == "benchmark", timeout=GENEROUS_MS)
    doors.bar(window).cancelButton.click()
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    assert window.stuckNotice.isHidden() and not window.stuckNotice._timer.isActive()
