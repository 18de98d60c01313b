"""Comparing big reports stays quick, and a report holds only so much (issue 32, item 8).

Two valid reports of 2,000 latency entries each, none alike, took 93 s: each unmatched entry
scanned every entry of the other report for its nearest counterpart. The work is counted
here (calls made), never timed.
"""

from __future__ import annotations

import json

import pytest

from inspector.core.errors import InputError
from inspector.core.measure import measurement
from inspector.core.report import compare as compare_module
from inspector.core.report import sample_figures
from inspector.core.report import latency_reader, schema
from inspector.core.report.compare import compare_reports
from inspector.core.report.timing_report import load_report, save_report
from inspector.core.vocabulary import MAX_SAMPLES
from tests.core.report.generated import real_report, scaled, unmatched, with_latency
from tests.report_edge import typed


@pytest.fixture(scope="module")
def report() -> dict:
    return real_report(runs=5)


class _Counted:
    """Wraps a function and counts its calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> None:
        self.calls = 0
        original = getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


def _work(monkeypatch, report, count: int) -> tuple[int, int, int]:
    """Calls made comparing two reports of ``count`` entries, none alike: (key parts looked up,
    differences named, figures computed)."""
    with monkeypatch.context() as patch:
        shared = _Counted(patch, compare_module, "_shared")
        differences = _Counted(patch, compare_module, "_differences")
        figures = _Counted(patch, measurement, "figures_of")  # an entry's figures: its samples', once
        rows = compare_reports(typed(unmatched(report, count, batch=1)), typed(unmatched(report, count, batch=2))).latency
    assert len(rows) == 2 * count
    # Each row names how its nearest counterpart differs: the same input shape's neighbour.
    assert rows[0].verdict == "not compared: B's cpu run differs in input shape (1x1 vs 2x1)"
    assert rows[-1].verdict == f"not compared: A's cpu run differs in input shape (2x{count} vs 1x1)"
    return shared.calls, differences.calls, figures.calls


def test_comparing_2000_against_2000_unmatched_entries_does_work_linear_in_the_entries(monkeypatch, report):
    shared, differences, figures = _work(monkeypatch, report, 2000)
    # Before: every unmatched entry judged its differences from each of the other report's 2,000
    # entries, 8,000,000 times. Now: one per row, and a bounded number of index lookups.
    assert differences == 4000
    assert figures == 4000
    assert shared <= 2 * 2000 * 7 + 4000 * 7  # the two indexes built, then at most 7 lookups a row
    # Twice the entries, twice the work (a quadratic one would be four times).
    half = _work(monkeypatch, report, 1000)
    assert (shared, differences, figures) == tuple(2 * n for n in half)


def test_the_nearest_counterpart_is_the_one_a_scan_would_find(report):
    """The index finds what the scan found: fewest differences, the same mode first, and the
    first of equals in the other report's order."""
    entry = report["latency"][0]

    def e(dtype="float32", mode="forward", shape=(1, 3)):
        return {**entry, "dtype": dtype, "mode": mode, "input_shape": list(shape)}

    a = with_latency(report, [e(dtype="bfloat16", mode="train-step", shape=(9, 9))])
    b = with_latency(report, [e(mode="train-step", shape=(1, 1)), e(dtype="float16", mode="train-step"),
                              e(shape=(9, 9)), e(dtype="bfloat16")])  # fmt: skip
    verdicts = [r.verdict for r in compare_reports(typed(a), typed(b)).latency]
    # Two differences each: dtype and input shape (same mode) before mode and anything else.
    assert verdicts[0] == "not compared: B's cpu run differs in dtype (bfloat16 vs float32) and input shape (9x9 vs 1x1)"


# --------------------------------------------------------------------------- what one report may hold


def _refused(tmp_path, report: dict) -> str:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(report))
    with pytest.raises(InputError) as info:
        load_report(path)
    message = info.value.message
    assert "\n" not in message
    return message


def test_the_bounds_are_stated_and_far_above_a_real_report():
    assert schema.MAX_LATENCY_ENTRIES == 10_000 and schema.MAX_MOVES == 10_000
    assert schema.MAX_SAMPLES_PER_ENTRY == MAX_SAMPLES == 100_000  # the most one measurement takes
    assert schema.MAX_REPORT_SAMPLES == 2_000_000


def test_an_entry_with_more_samples_than_a_measurement_takes_is_refused_in_one_line(tmp_path, report):
    entry = report["latency"][0]
    big = with_latency(report, [{**entry, "samples_ms": [1] * (MAX_SAMPLES + 1)}])
    message = _refused(tmp_path, big)
    assert message.endswith("latency[0].samples_ms: holds 100,001 samples, more than the 100,000 one measurement takes")


def test_a_report_with_more_entries_than_a_report_may_hold_is_refused_in_one_line(tmp_path, report, monkeypatch):
    monkeypatch.setattr(latency_reader, "MAX_LATENCY_ENTRIES", 50)
    message = _refused(tmp_path, unmatched(report, 51, batch=1))
    assert message.endswith("latency: holds 51 entries, more than the 50 a report may hold")
    # The ranks of a torchrun job count too.
    job = unmatched(report, 30, batch=1)
    job["ranks"] = [{"rank": 0, "ok": True, "latency": unmatched(report, 21, batch=2)["latency"]}]
    assert _refused(tmp_path, job).endswith("ranks[0].latency: brings the report to 51 entries, more than the 50 a report may hold")


def test_a_report_with_more_samples_in_all_than_it_may_hold_is_refused_naming_the_entry(tmp_path, report, monkeypatch):
    monkeypatch.setattr(latency_reader, "MAX_REPORT_SAMPLES", 40)
    entry = report["latency"][0]  # its samples and warm-up samples as the writer wrote them
    per_entry = len(entry["samples_ms"]) + len(entry["warmup_samples_ms"])
    count = 40 // per_entry + 1
    message = _refused(tmp_path, unmatched(report, count, batch=1))
    assert message.endswith(f"latency[{count - 1}]: brings the report to {count * per_entry:,} samples, "
                            "more than the 40 a report may hold")  # fmt: skip


def test_a_report_at_the_bounds_loads(tmp_path, report, monkeypatch):
    monkeypatch.setattr(latency_reader, "MAX_LATENCY_ENTRIES", 50)
    path = save_report(typed(unmatched(report, 50, batch=1)), tmp_path / "full.json")
    assert len(load_report(path).latency) == 50


def test_figures_are_computed_as_numpy_computes_them(report):
    """The reader's figures are the measurement's own, to the bit (so a report the app
    wrote is never refused as contradicting itself)."""
    import numpy as np

    from inspector.core.measure import spread

    rng = np.random.default_rng(0)
    for n in (1, 2, 3, 5, 6, 20, 101, 1000, 5001):
        samples = np.sort(rng.lognormal(0, 1, n))
        expected = np.percentile(samples, [5, 25, 50, 75, 95])
        assert np.array_equal(spread._percentiles(samples), expected), n
    entry = report["latency"][0]
    figures = sample_figures.figures_of(entry["samples_ms"])
    assert figures is not None
    assert {k: entry[k] for k in figures.stated()} == figures.stated()
    assert entry["median_ci_ms"] == (list(figures.median_ci_ms) if figures.median_ci_ms else None)
    assert scaled(entry, 1.0)["median_ms"] == entry["median_ms"]
