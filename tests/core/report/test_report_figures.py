"""A report's figures are its samples' (issue 32, item 16): a lying median is refused when
read and never believed by a comparison; a report saved with a byte-order mark reads; the
same measurement on both sides is called that."""

from __future__ import annotations

import copy
import json

import pytest

from inspector.core.errors import InputError
from inspector.core.report.compare import compare_reports
from inspector.core.report.timing_report import load_report, save_report
from tests.core.report.generated import real_report, scaled, with_latency, with_samples
from tests.report_edge import typed


@pytest.fixture(scope="module")
def report() -> dict:
    return real_report(runs=20)


@pytest.fixture(scope="module")
def entry(report) -> dict:
    return report["latency"][0]


@pytest.mark.parametrize(
    ("key", "lie"),
    [("median_ms", 1e-6), ("mean_ms", 1000.0), ("p5_ms", 0.0), ("p95_ms", 1e9), ("min_ms", 0.0), ("max_ms", 0.0),
     ("std_ms", 0.0), ("iqr_ms", 50.0), ("median_ci_ms", [0.0, 1e6])],
)  # fmt: skip
def test_a_figure_its_samples_contradict_is_refused_in_one_line_naming_it(tmp_path, report, entry, key, lie):
    path = tmp_path / "lying.json"
    path.write_text(json.dumps(with_latency(report, [{**entry, key: lie}])))
    with pytest.raises(InputError) as info:
        load_report(path)
    message = info.value.message
    assert "\n" not in message and f"latency[0].{key}: says " in message
    assert "but its 20 samples give" in message


def test_a_median_without_samples_to_check_it_against_is_refused(tmp_path, report, entry):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(with_latency(report, [{**entry, "samples_ms": []}])))
    with pytest.raises(InputError) as info:
        load_report(path)
    assert info.value.message.endswith("latency[0].samples_ms: holds no sample: an entry's figures come from its samples")


def test_the_comparison_believes_the_samples_never_a_lying_median(report, entry):
    """The tester's report: B's samples twice A's, its median_ms 17,302,500 times smaller
    than A's. The comparison (handed dicts nobody checked) divides the samples' medians."""
    # Steady samples: a run measured on a loaded test machine may be flagged noisy, and a noisy
    # single run gets no verdict at all (issue 46).
    entry = with_samples(entry, [entry["median_ms"] * (1 + 0.002 * (i % 5)) for i in range(20)])
    slower = scaled(entry, 2.0)
    lying = {**slower, "median_ms": entry["median_ms"] / 17_302_500, "p5_ms": 0.0, "p95_ms": 0.0,
             "median_ci_ms": [0.0, 1e-9], "noise": None, "noisy": False}  # fmt: skip
    [row] = compare_reports(typed(with_latency(report, [entry])), typed(with_latency(report, [lying]))).latency
    assert row.median_b == pytest.approx(2 * entry["median_ms"]) == pytest.approx(slower["median_ms"])
    assert row.p5_b == pytest.approx(slower["p5_ms"]) and row.p95_b == pytest.approx(slower["p95_ms"])
    assert row.ratio == pytest.approx(2.0)
    assert row.ratio_low > 1 and row.verdict.startswith("B 2.00× slower")
    assert row.noise_b == slower["noise"]  # judged from the samples, not taken from the file


def test_a_zero_median_is_one_of_samples_of_zero_and_gets_no_ratio(tmp_path, report, entry):
    zero = load_report(save_report(typed(with_latency(report, [with_samples(entry, [0.0] * 5)])), tmp_path / "zero.json"))
    for (a, b), side in (((report, zero), "B"), ((zero, report), "A")):
        [row] = compare_reports(typed(a), typed(b)).latency
        assert row.ratio is None  # and it says why (issue 43, item 13): before, the verdict was empty
        assert row.verdict == f"no verdict: a median of 0 ms in {side} (calls shorter than the clock shows): no ratio to take"


def test_a_report_saved_with_a_byte_order_mark_reads(tmp_path, report):
    path = save_report(typed(report), tmp_path / "r.json")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # what Notepad writes as "UTF-8 with BOM"
    assert load_report(path).to_dict() == report


def test_the_same_measurement_on_both_sides_is_called_that(report, entry):
    few = with_latency(report, [with_samples(entry, entry["samples_ms"][:5])])  # too few for an interval
    for a, b in ((few, few), (few, copy.deepcopy(few)), (report, copy.deepcopy(report))):
        comparison = compare_reports(typed(a), typed(b))
        [row] = comparison.latency
        assert row.verdict == "the same measurement (identical samples)" and row.ratio is None
        assert comparison.same_measurement and comparison.to_dict()["same_measurement"] is True
        assert comparison.same_measurement_text() == (
            "A and B hold the same measurements (identical samples): there is no difference to measure"
        )
    # One sample differs: two measurements, compared as such.
    other = with_latency(report, [with_samples(entry, [*entry["samples_ms"][:4], entry["samples_ms"][4] * 1.01])])
    comparison = compare_reports(typed(few), typed(other))
    assert not comparison.same_measurement and comparison.latency[0].verdict.endswith("? too few samples to tell")
    assert not compare_reports(typed(few)).same_measurement  # one report alone is no comparison
