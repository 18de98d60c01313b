"""Reports written as an attacker would, opened in the Compare view and the window (offscreen).

A bad report is refused in one line that names the field; it never leaves the view stuck at
"Opening…", and the window's later actions (an export) still really happen.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QFrame, QSpinBox  # noqa: E402

from inspector.core.measure import timing  # noqa: E402
from inspector.core.files.models import example_model  # noqa: E402
from inspector.core.report.timing_report import build_report, load_report, render_json  # noqa: E402
from inspector.gui.features.compare.view import ComparisonView  # noqa: E402
from tests.core.report.generated import with_latency, with_samples  # noqa: E402
from tests.gui.helpers import GENEROUS_MS, widget  # noqa: E402
from tests.report_edge import typed  # noqa: E402
from tests.gui import doors
from inspector.gui.common.pages import COMPARISON
from inspector.gui.features.report.flow import ReportFlow


@pytest.fixture(scope="module")
def good_report() -> dict:
    loaded = example_model()
    return json.loads(render_json(typed(build_report(loaded, latency=[timing.measure_latency(loaded, runs=5)]))))


def _latency_field(report: dict, key: str, value_text: str) -> str:
    """The report's JSON text with ``latency[0][key]`` replaced by raw JSON ``value_text``."""
    damaged = json.loads(json.dumps(report))
    damaged["latency"][0][key] = "__here__"
    return json.dumps(damaged).replace('"__here__"', value_text)


HOSTILE = [
    ("samples_ms", "5", "latency[0].samples_ms: expected a list of numbers, not a number"),
    ("median_ms", "1" + "0" * 400, "latency[0].median_ms: expected a number of at most 1e+18"),
    ("median_ms", "NaN", "latency[0].median_ms: expected a finite number, not nan"),
    ("p95_ms", "-Infinity", "latency[0].p95_ms: expected a finite number, not -inf"),
    ("samples_ms", "[" * 100_000 + "]" * 100_000, "it is nested too deeply"),
    ("input_shape", '["1", 3]', "latency[0].input_shape[0]: expected a whole number, not text"),
]


@pytest.fixture
def view(qtbot):
    view = ComparisonView()
    qtbot.addWidget(view)
    yield view
    assert view.wait(GENEROUS_MS)


@pytest.mark.parametrize(("key", "value", "message"), HOSTILE)
def test_a_bad_report_is_refused_in_one_line_and_the_view_keeps_what_it_showed(
    qtbot, view, good_report, tmp_path, key, value, message
):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(good_report))
    with qtbot.waitSignal(view.reportOpened, timeout=GENEROUS_MS):
        view.open_report(good)
    bad = tmp_path / "bad.json"
    bad.write_text(_latency_field(good_report, key, value))
    with qtbot.waitSignal(view.failed, timeout=GENEROUS_MS) as failed:
        view.open_report(bad)
    failure = failed.args[0]
    assert message in failure.message and "\n" not in failure.message
    assert str(bad) in failure.message
    text = view.summary_label.text()
    assert not text.startswith("Opening") and message in text
    # What was shown before is still shown: the good report as B.
    assert view.reports["b"].created == good_report["created"] and view.labels["b"] == "good.json"
    assert view.latency_table.rowCount() == 1


def test_a_zero_median_is_shown_without_a_ratio(qtbot, view, good_report, tmp_path):
    path = tmp_path / "zero.json"  # every sample 0 (a zero median with other samples is refused)
    path.write_text(json.dumps(with_latency(good_report, [with_samples(good_report["latency"][0], [0.0] * 5)])))
    view.set_session_report(typed(good_report))
    with qtbot.waitSignal(view.reportOpened, timeout=GENEROUS_MS):
        view.open_report(path)
    assert view.latency_table.rowCount() == 1
    assert view.cell_text(view.latency_table, 0, "B ÷ A") == "—"
    assert view.cell_text(view.latency_table, 0, "B median (ms)") == "0"


def test_a_comparison_that_fails_never_leaves_the_view_stuck(qtbot, view, good_report, tmp_path, monkeypatch):
    """Should the reader ever let through what the comparison cannot take (a bug), the view
    says so in one line and keeps its earlier state."""
    from inspector.gui.features.compare import view as compare_view

    path = tmp_path / "r.json"
    path.write_text(json.dumps(good_report))
    with qtbot.waitSignal(view.comparisonShown, timeout=GENEROUS_MS):  # (compared on the view's pool thread)
        view.set_session_report(typed(good_report))

    def broken(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(compare_view, "compare_reports", broken)
    failures = []
    view.failed.connect(failures.append)
    view.open_report(path)
    qtbot.waitUntil(lambda: bool(failures), timeout=GENEROUS_MS)
    assert view.wait(GENEROUS_MS)
    qtbot.wait(50)  # a second (duplicate) failure would arrive in this time
    assert len(failures) == 1
    assert failures[0].message == f"could not show {path}: ZeroDivisionError: float division by zero"
    assert view.reports["b"] is None
    assert not view.summary_label.text().startswith("Opening")


@pytest.mark.parametrize(("key", "value", "message"), [HOSTILE[0], HOSTILE[1], HOSTILE[4]])
def test_after_a_bad_report_the_window_still_exports(qtbot, window, good_report, tmp_path, key, value, message):
    bad = tmp_path / "bad.json"
    bad.write_text(_latency_field(good_report, key, value))
    doors.part(window, ReportFlow).open_report(bad)
    banner = widget(window, QFrame, "errorBanner")
    qtbot.waitUntil(lambda: banner.isVisibleTo(window) and banner.failure is not None, timeout=GENEROUS_MS)
    assert message in banner.failure.message
    assert not doors.page(window, COMPARISON).summary_label.text().startswith("Opening")

    out = tmp_path / "after.json"
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=30_000)
    assert doors.part(window, ReportFlow).export_report(out)
    qtbot.waitUntil(lambda: out.exists() and doors.busy(window) is None, timeout=30_000)
    assert load_report(out).to_dict()["model"]["class"] == "Net"
    assert window.statusBusy.text() == "Ready"


def test_the_windows_runs_field_has_the_clis_cap(window):
    runs = widget(window, QSpinBox, "runsSpin")
    assert runs.maximum() == timing.MAX_SAMPLES == 100_000
    assert "100,000" in runs.toolTip() and "3,600 s" in runs.toolTip()
