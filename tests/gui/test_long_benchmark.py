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
    from inspector.gui import workers

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
