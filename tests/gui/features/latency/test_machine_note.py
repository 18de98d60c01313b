"""The Latency tab's Summary notes say what the machine did to a run, next to its figure."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from inspector.core.measure.machine_noise import MachineNoise, described  # noqa: E402
from inspector.gui.features.latency.plot import LatencyPlot  # noqa: E402


@pytest.fixture
def plot(qtbot):
    plot = LatencyPlot()
    qtbot.addWidget(plot)
    return plot


def _entry(machine=None, noise=None):
    samples = [0.020 + 0.0001 * (i % 7) for i in range(100)]
    entry = {"device": "cpu", "dtype": "float16", "mode": "forward", "input_shape": [64, 3], "samples_ms": samples,
             "median_ms": sorted(samples)[50], "p5_ms": min(samples), "p95_ms": max(samples), "noise": noise}  # fmt: skip
    if machine is not None:
        entry["machine"] = machine.to_dict()
    return entry


def _show(plot, entry):
    plot.begin_series(entry["device"], entry["dtype"], entry["mode"])
    plot.finish_series(entry)
    plot.redraw()
    return plot.verdictLabel.text()


def _machine(other: float, switches: int) -> MachineNoise:
    return described(MachineNoise(measured=True, other_cpu_share=other, steal_share=0.0,
                                  involuntary_switches=switches, sampling_threads=2, samples=100, cpu_ticks=200, cores=2))  # fmt: skip


def test_a_steady_figure_on_a_busy_machine_says_what_the_machine_did(plot):
    said = _show(plot, _entry(_machine(0.03, 9)))
    assert (
        "cpu · float16: 3.0% of the run's CPU went to other processes and the sampling threads were "
        "preempted 9 times in 100 samples: p95 not reliable"
    ) in said


def test_a_quiet_machine_and_an_older_report_add_no_note(plot):
    assert _show(plot, _entry(_machine(0.0, 0))) == ""
    assert _show(plot, _entry()) == ""  # a report written before the machine was recorded


def test_in_chinese_the_note_is_translated(plot, chinese):
    said = _show(plot, _entry(_machine(0.03, 9)))
    assert "3.0%" in said and "p95" in said and "other processes" not in said
