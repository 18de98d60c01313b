"""How far a latency figure can be trusted: spread, the median's interval, the noise flag;
device events timing each sample on CUDA/XPU; the time-left estimate; report formats."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from inspector.core.devices import device_events
from inspector.core.measure import timing
from inspector.core.files.models import example_model
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report, load_report, save_report
from inspector.core.measure.spread import median_interval, ratio_of_medians, spread_of
from inspector.core.measure.time_left import TimeLeft, time_left_text
from inspector.core.measure.timing import measure_latency
from inspector.core.vocabulary import MAX_MEASURE_SECONDS
from tests.core.report.generated import with_samples
from tests.report_edge import typed


# --------------------------------------------------------------------------- spread


def test_the_median_interval_covers_the_true_median_about_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    covered = [lo <= 1.0 <= hi for lo, hi in (median_interval(rng.lognormal(0, 1, 40)) for _ in range(1000))]
    assert 0.94 <= np.mean(covered) <= 0.99  # distribution-free: at least 95 %, a little more


def test_a_huge_tail_is_flagged_noisy_with_its_size_and_steady_samples_are_not():
    steady = spread_of(np.random.default_rng(1).normal(1.0, 0.02, 500))
    assert not steady.noisy and steady.median_ci_ms[0] < 1.0 < steady.median_ci_ms[1]
    noisy = spread_of([0.036] * 90 + [3.0] * 10)
    assert noisy.noise == "noisy: p95 is 83× the median; results may not be repeatable"
    assert spread_of([1.0, 1.2]).median_ci_ms is None  # too few samples for a 95 % interval


def test_the_ratio_interval_is_seeded_and_fast_for_the_largest_runs():
    rng = np.random.default_rng(2)
    a, b = rng.lognormal(0, 0.3, 100_000), 1.1 * rng.lognormal(0, 0.3, 100_000)
    first, second = ratio_of_medians(a, b), ratio_of_medians(a, b)
    assert first == second and first.clear and first.low < 1.1 < first.high


def test_a_latency_result_carries_its_spread_and_how_it_was_measured():
    result = measure_latency(example_model(), runs=30, warmup=2)
    assert result.iqr_ms >= 0 and result.median_ci_ms[0] <= result.median_ms <= result.median_ci_ms[1]
    # the warm-up asked for; it goes on while its calls are not steady (a busy machine: more)
    assert (result.runs, result.min_time, result.warmup_asked, result.timer) == (30, None, 2, "host clock")
    assert result.warmup >= 2
    entry = result.to_dict()
    assert {"iqr_ms", "median_ci_ms", "noisy", "noise", "timer"} <= set(entry)


# --------------------------------------------------------------------------- device events


class _FakeEvent:
    """Stands for torch.cuda.Event: each interval on the "device" is 0.25 ms."""

    recorded: list[str] = []

    def __init__(self, enable_timing=False):
        assert enable_timing
        self.stream = None

    def record(self, stream=None):
        self.stream = stream
        _FakeEvent.recorded.append("record")

    def synchronize(self):
        _FakeEvent.recorded.append("synchronize")

    def elapsed_time(self, end):
        assert end.stream is self.stream == "stream of cuda:0"
        return 0.25


@pytest.fixture
def fake_cuda_events(monkeypatch):
    _FakeEvent.recorded = []
    monkeypatch.setattr(torch.cuda, "Event", _FakeEvent)
    monkeypatch.setattr(torch.cuda, "current_stream", lambda device=None: f"stream of {device}")
    return _FakeEvent


def test_on_cuda_each_sample_is_timed_by_device_events_and_warm_up_by_the_host_clock(monkeypatch, fake_cuda_events):
    # The example on the CPU stands in for a model on cuda:0: its device is all that is faked.
    monkeypatch.setattr(timing, "_accelerators", lambda module: {torch.device("cuda:0")})
    monkeypatch.setattr(timing, "synchronize", lambda device: None)
    result = measure_latency(example_model(), runs=5, warmup=2)
    assert result.timer == "cuda events"
    assert result.samples_ms == (0.25,) * 5  # the events' figure, not the host clock's
    assert all(ms != 0.25 for ms in result.warmup_samples_ms)  # warm-up: host clock, first call apart
    # The probe, then per sample: start recorded, end recorded, waited for.
    assert fake_cuda_events.recorded == ["record", "record", "synchronize"] * 6


def test_no_events_where_the_backend_has_none(monkeypatch):
    assert device_events.device_events(torch.device("cpu")) is None
    assert device_events.device_events(torch.device("mps")) is None

    class Broken(_FakeEvent):
        def elapsed_time(self, end):
            raise RuntimeError("elapsed_time is not supported by this backend")

    monkeypatch.setattr(torch.cuda, "Event", Broken)
    monkeypatch.setattr(torch.cuda, "current_stream", lambda device=None: "stream of cuda:0")
    assert device_events.device_events(torch.device("cuda:0")) is None  # the host clock then


# --------------------------------------------------------------------------- time left


def test_time_left_follows_the_rate_since_the_first_call_and_restarts_with_a_new_phase():
    now = [100.0]
    left = TimeLeft(clock=lambda: now[0])
    assert left.update(0, 1000) is None
    now[0] += 0.5
    assert left.update(100, 1000) is None  # under a second measured: nothing to say yet
    now[0] += 1.5
    assert left.update(400, 1000) == pytest.approx(3.0)  # 400 in 2 s, 600 to go
    now[0] += 1.0
    assert left.update(10, 50) is None  # a new phase (per-module runs) starts afresh
    assert time_left_text(75) == "about 1 min 15 s left" and time_left_text(7300) == "about 2 h 1 min left"
    assert time_left_text(None) == ""


def test_time_left_never_says_more_than_the_measurements_cap_allows():
    """Issue 35: 20,000 samples of 0.45 s promised 2 h 31 min, while samples stop at 3,600 s."""
    now = [0.0]
    left = TimeLeft(clock=lambda: now[0], cap_s=MAX_MEASURE_SECONDS)
    assert left.update(0, 20_000) is None
    now[0] = 60.0
    assert left.update(133, 20_000) == pytest.approx(3540.0)  # the rate alone: ~2 h 29 min
    assert time_left_text(left.update(133, 20_000)) == "about 59 min left"
    now[0] = 3590.0
    assert left.update(7_980, 20_000) == pytest.approx(10.0)  # the cap's 10 s, not the rate's 1 h 30 min
    uncapped = TimeLeft(clock=lambda: now[0])  # a move (no cap): the rate's own figure
    now[0] = 0.0
    uncapped.update(0, 20_000)
    now[0] = 60.0
    assert uncapped.update(133, 20_000) > 8_000


# --------------------------------------------------------------------------- reports


MOVES = [
    {"call": "model.to('cpu')", "method": "to", "source": "cpu", "target": "cpu", "seconds": 0.001, "bytes": 44,
     "gbps": 44 / 0.001 / 1e9, "ok": True, "error": None},
    {"call": "model.cuda()", "method": "cuda", "source": "cpu", "target": "cuda:0", "seconds": 0.0, "bytes": 0,
     "gbps": None, "ok": False, "error": {"kind": "device", "message": "no CUDA GPU", "detail": ""}},
]  # fmt: skip


@pytest.fixture(scope="module")
def noisy_report():
    result = measure_latency(example_model(), runs=20)
    # Other samples, and the figures they give (a report's figures must be its samples').
    entry = with_samples(result.to_dict(), [0.036] * 18 + [3.0] * 2)
    assert entry["noisy"] is True and entry["median_ci_ms"] == [0.036, 0.036]
    report = build_report(example_model(), moves=MOVES, latency=[entry])
    return report


def test_markdown_and_html_show_the_spread_the_noise_and_honest_move_figures(noisy_report):
    md = render_markdown(typed(noisy_report))
    assert "| Median 95 % CI | IQR |" in md
    assert "- cpu float32 forward: noisy: p95 is" in md and "results may not be repeatable" in md
    move_rows = [line for line in md.splitlines() if line.startswith("| model.")]
    assert "| \\< 0.01 |" in move_rows[0]  # 44 B in 1 ms, as the window writes it ("<" escaped for Markdown)
    assert "µs" not in move_rows[1] and move_rows[1].count("| — |") >= 2  # the failed move: no time, no rate
    html = render_html(typed(noisy_report))
    assert "noisy: p95 is" in html and "Median 95 % CI" in html


def test_a_schema_1_report_still_loads_and_gets_its_spread_from_its_samples(tmp_path, noisy_report):
    old = json.loads(json.dumps(noisy_report))
    old["schema_version"] = 1
    for key in ("iqr_ms", "median_ci_ms", "noisy", "noise", "timer", "runs", "min_time", "warmup"):
        old["latency"][0].pop(key)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    loaded = load_report(path)
    assert "noisy: p95 is" in render_markdown(loaded)
    assert load_report(save_report(typed(noisy_report), tmp_path / "new.json")).to_dict()["latency"][0]["noisy"] is True


def test_the_gpu_checks_latency_comparison_runs_on_the_cpu(capsys):
    """benchmarks/gpu_check.py compares CUDA-event timing with torch.utils.benchmark on a GPU;
    here its logic runs on the CPU, briefly: both models, a ratio each, what timed them."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "gpu_check.py"
    spec = importlib.util.spec_from_file_location("gpu_check", path)
    gpu_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gpu_check)
    rows = gpu_check.latency_vs_timer("cpu", min_time=0.005, rounds=1, dtypes=("float32",), mlp_mib=1, width=64)
    assert [(label, timer) for label, _, timer in rows] == [("example Net float32", "host clock"),
                                                          ("MLP 1 MiB float32", "host clock")]  # fmt: skip
    assert all(0 < f.blocks < 100 and 0 < f.median < 100 and f.rounds == 1 for _, f, _ in rows)
    out = capsys.readouterr().out
    assert "blocks" in out and "TARGET ±3 %" in out and "median ratio" in out
