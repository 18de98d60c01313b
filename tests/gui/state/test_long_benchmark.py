"""Issue 35, section 4: a long benchmark in the window. Its time left never says more than a
measurement's cap allows, and closing the window while it measures asks first."""

from __future__ import annotations

import threading

import pytest

from inspector.core.errors import InspectorError
from inspector.core.measure.time_left import TimeLeft
from inspector.core.messages import Text
from inspector.core.session import BenchmarkRequest
from inspector.core.vocabulary import MAX_MEASURE_SECONDS
from tests.gui import doors
from inspector.gui.common.pages import LATENCY
from inspector.gui.features.latency.launch import BenchmarkLaunch


class _SlowSession:
    """A session whose benchmark reports the student's pace: 133 of 20,000 samples in 60 s
    (0.45 s a sample: 2 h 29 min to go by the rate), on a fake clock; then it stops."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.measured: list[BenchmarkRequest] = []

    def require_model(self) -> None:
        pass

    def measure(self, request, *, on_sample=None, progress=None, should_cancel=None, **_):
        self.measured.append(request)
        progress(0, 20_000)
        self.clock[0] += 60.0
        progress(133, 20_000)
        raise InspectorError(Text("failure.cancelled_benchmark", samples=133))


@pytest.mark.parametrize("repeat", [1, 3])
def test_the_windows_time_left_is_capped_at_what_the_measurement_cap_allows(qapp, monkeypatch, repeat):
    from inspector.gui.state import workers

    clock = [0.0]
    monkeypatch.setattr(workers, "TimeLeft", lambda: TimeLeft(clock=lambda: clock[0]))
    worker = workers.ModelWorker(threading.Event(), session=_SlowSession(clock))
    sent: list[workers.Progress] = []
    worker.progress.connect(sent.append)
    worker.benchmark(BenchmarkRequest(runs=20_000, repeat=repeat))
    last = sent[-1]
    assert (last.done, last.total) == (133, 20_000)
    # each run's samples stop at the cap: at most the cap (times the runs) less the 60 s gone
    assert last.seconds_left == pytest.approx(min(MAX_MEASURE_SECONDS * repeat - 60.0, 60.0 / 133 * 19_867))
    assert last.seconds_left <= MAX_MEASURE_SECONDS * repeat


SLOW = (
    "import time\n"
    "import torch\n"
    "from torch import nn\n"
    "class Slow(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(3, 1)\n"
    "    def forward(self, x):\n"
    "        time.sleep(0.02)\n"
    "        return self.fc(x)\n"
    "def make():\n"
    "    return Slow(), torch.randn(4, 3)\n"
)


@pytest.fixture
def measuring(qtbot, make_window, tmp_path, monkeypatch):
    """A shown window measuring a model of 20 ms a call (1,000 runs: 20 s), with some samples
    in; the question's threshold lowered to them (the tests do not wait 10 s)."""
    from inspector.gui.shell import close_guard

    monkeypatch.setattr(close_guard, "ASK_AFTER_S", 0.05)
    path = tmp_path / "slow.py"
    path.write_text(SLOW)
    window = make_window(f"{path}:make")
    window.show()
    doors.bar(window).runsSpin.setValue(1000)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    qtbot.waitUntil(lambda: doors.page(window, LATENCY).measuring_seconds() >= 0.1, timeout=30_000)
    return window


def _quit(window) -> None:
    """A person's quit (File › Quit): the close that asks (a program's ``close()`` does not)."""
    from PySide6.QtGui import QAction

    window.findChild(QAction, "quitAction").trigger()


def _answer(monkeypatch, button: str, asked: list[str]):
    from PySide6.QtWidgets import QMessageBox, QPushButton

    def exec_(box):
        asked.append(box.text())
        box.findChild(QPushButton, button).click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)


def test_keep_measuring_calls_the_close_off(qtbot, measuring, monkeypatch):
    window, asked = measuring, []
    _answer(monkeypatch, "keepMeasuringButton", asked)
    _quit(window)
    assert asked and "Closing the window now throws them away." in asked[0]
    assert window.isVisible() and doors.busy(window) == "benchmark" and not window.tasks.closed
    _answer(monkeypatch, "closeAnywayButton", asked)  # (the test ends: no 20 s run to wait for)
    _quit(window)
    assert not window.isVisible()


def test_stop_and_keep_ends_the_run_with_its_samples_and_the_window_stays(qtbot, measuring, monkeypatch):
    window, asked = measuring, []
    _answer(monkeypatch, "stopAndKeepButton", asked)
    _quit(window)
    assert asked and window.isVisible()
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    [series] = doors.page(window, LATENCY).series.values()
    assert series.status == "" and series.stats is not None  # a finished run, not a cancelled one
    assert 0 < len(series.samples) < 1000
    [result] = window.worker.session.latencies  # (the worker is idle: its session is read here)
    assert len(result.samples_ms) == len(series.samples)
    assert any(getattr(n, "key", "") == "bench.stopped_early" for n in result.notes)
    from tests.gui.helpers import table_rows

    assert f"×{len(result.samples_ms)} · cpu" in table_rows(doors.history_view(window).history)[-1]["Call"]
    window.close()  # the program's own close (a person's would ask about the unsaved run: test_close_guard)
    assert len(asked) == 1 and not window.isVisible()


def test_close_anyway_closes(qtbot, measuring, monkeypatch):
    window, asked = measuring, []
    _answer(monkeypatch, "closeAnywayButton", asked)
    _quit(window)
    assert asked and not window.isVisible() and window.threads_stopped


def test_the_question_is_asked_in_chinese(qtbot, measuring, monkeypatch, chinese):
    from PySide6.QtWidgets import QMessageBox

    seen: list[str] = []

    def exec_(box):
        seen.extend([box.windowTitle(), box.text(), box.informativeText(), *(b.text() for b in box.buttons())])
        next(b for b in box.buttons() if b.objectName() == "closeAnywayButton").click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    _quit(measuring)
    assert "基准测试正在测量" in seen and "继续测量" in seen and "仍然关闭" in seen and "停止并保留已测得的结果" in seen
    assert "现在关闭窗口会丢弃这些样本" in seen[1] and "秒" in seen[1]
    assert not measuring.isVisible()
