"""The comparison view: a report opened from disk next to the session (offscreen)."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import Qt

pytest.importorskip("pytestqt")

from inspector.core.errors import Failure  # noqa: E402
from inspector.core.files.models import example_model  # noqa: E402
from inspector.core.report.timing_report import build_report, save_report  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402
from inspector.gui.features.compare.view import ComparisonView  # noqa: E402
from tests.core.report.generated import scaled, with_samples  # noqa: E402
from tests.report_edge import typed  # noqa: E402
from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS
from inspector.gui.common.pages import COMPARISON

GPU = {"id": "cuda:0", "type": "cuda", "index": 0, "name": "NVIDIA H200", "total_bytes": 150 << 30}


#: A quiet run's samples (ms): the view is under test, not the machine's load, so the session's
#: report holds these in place of what its run measured (a loaded machine's 20 samples can
#: spread wide enough that twice them is "no clear difference").
QUIET_SAMPLES = [0.100 + 0.001 * (i % 5) for i in range(20)]


@pytest.fixture(scope="module")
def session_report():
    loaded = example_model()
    report = build_report(loaded, latency=[measure_latency(loaded, runs=20)])
    report["latency"] = [with_samples(report["latency"][0], QUIET_SAMPLES)]
    return report


def _server_report(session_report, cpu_factor, gpu_factor):
    """What ``bench`` on a GPU server writes: the CPU and a GPU (the session's samples, so
    many times as slow, or a list: these samples), and a host-to-GPU move."""
    report = json.loads(json.dumps(session_report))
    cpu = report["latency"][0]

    def entry(factor, **changes):
        return scaled(cpu, factor, **changes) if isinstance(factor, float) else with_samples(cpu, factor, **changes)

    report["latency"] = [entry(cpu_factor), entry(gpu_factor, device="cuda:0")]
    report["moves"] = [{"call": "model.to('cuda:0')", "method": "to", "source": "cpu", "target": "cuda:0",
                        "dtype": None, "pinned": False, "seconds": 0.5, "bytes": 1 << 30,
                        "gbps": (1 << 30) / 0.5 / 1e9, "ok": True, "error": None}]  # fmt: skip
    report["environment"]["torch"] = "2.11.0+cu128"
    report["environment"]["devices"]["devices"].append(GPU)
    return report


@pytest.fixture
def view(qtbot):
    view = ComparisonView()
    qtbot.addWidget(view)
    yield view
    assert view.wait(GENEROUS_MS)


def _rows(view, table):
    return {view.cell_text(table, r, "Device"): r for r in range(table.row_count())}


def test_a_report_opened_from_disk_is_compared_with_the_session(qtbot, view, session_report, tmp_path):
    path = save_report(typed(_server_report(session_report, 2.0, 0.25)), tmp_path / "server.json")
    view.set_session_report(typed(session_report))
    with qtbot.waitSignal(view.reportOpened, timeout=GENEROUS_MS) as opened:
        view.open_report(path)
    assert opened.args == ["b", str(path)]

    table = view.latency_table
    rows = _rows(view, table)
    assert set(rows) == {"cpu", "cuda:0"}
    cpu, gpu = rows["cpu"], rows["cuda:0"]
    assert view.cell_text(table, cpu, "B ÷ A") == "2.00×"
    # (a run on a loaded test machine may be flagged noisy: the verdict then says so after the ratio)
    assert view.cell_text(table, cpu, "Verdict").startswith("B 2.00× slower")
    assert view.cell_text(table, cpu, "95 % CI").endswith("×")
    # The GPU exists only in the server's report: no ratio across reports, but its speed-up
    # over that report's own CPU (2x / 0.25x = 8x).
    assert view.cell_text(table, gpu, "A median (ms)") == "—"
    assert view.cell_text(table, gpu, "B vs CPU") == "8.00×"
    assert view.cell_text(table, gpu, "Verdict") == "only in B"
    # the card's name, then what every row says alike (folded to give the verdict room)
    assert table.cell(gpu, "Device", Qt.ItemDataRole.ToolTipRole).splitlines() == [
        "NVIDIA H200", "Dtype: float32", "Mode: forward", "Input: 64×3"]

    moves = view.moves_table
    assert moves.row_count() == 1
    assert view.cell_text(moves, 0, "Route") == "cpu → cuda:0"
    assert view.cell_text(moves, 0, "B GB/s") == "2.15"

    env = view.environment_table
    torch_row = next(r for r in range(env.row_count()) if view.cell_text(env, r, "What") == "PyTorch")
    assert view.cell_text(env, torch_row, "B") == "2.11.0+cu128"
    assert env.cell(torch_row, "Section", Qt.ItemDataRole.FontRole).bold()  # what differs stands out
    summary = view.summary_label.text()
    assert "<b>A</b> = <b>This session</b>" in summary and "<b>B</b> = <b>server.json</b>" in summary


def test_one_report_alone_shows_its_devices_with_speedups(qtbot, view, session_report, tmp_path):
    path = save_report(typed(_server_report(session_report, [3.0] * 20, [0.5] * 20)), tmp_path / "gpu-box.json")
    with qtbot.waitSignal(view.reportOpened, timeout=GENEROUS_MS):
        view.open_report(path, side="a")
    table = view.latency_table
    rows = _rows(view, table)
    assert set(rows) == {"cpu", "cuda:0"}
    assert view.cell_text(table, rows["cuda:0"], "vs CPU") == "6.00×"
    assert view.cell_text(table, rows["cpu"], "median (ms)") == "3.00 ms"
    assert "gpu-box.json" in view.summary_label.text()
    headers = [table.model().headerData(c, Qt.Orientation.Horizontal) for c in range(table.model().columnCount())]
    assert not any("÷" in h for h in headers)  # nothing to divide by


def test_sorting_by_a_number_column_sorts_numerically(qtbot, view, session_report):
    report = json.loads(json.dumps(session_report))
    base = report["latency"][0]
    report["latency"] = [with_samples(base, [m] * 3, device=d) for d, m in (("cpu", 10.0), ("cuda:0", 9.0), ("cuda:1", 100.0))]
    with qtbot.waitSignal(view.comparisonShown, timeout=GENEROUS_MS):
        view.set_reports(typed(report), label_a="r")
    table = view.latency_table
    column = next(c for c in range(table.model().columnCount())
                  if table.model().headerData(c, Qt.Orientation.Horizontal) == "median")  # fmt: skip
    table.sortByColumn(column, Qt.SortOrder.AscendingOrder)
    assert [view.cell_text(table, r, "Device") for r in range(3)] == ["cuda:0", "cpu", "cuda:1"]  # 9 < 10 < 100
    table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    assert [view.cell_text(table, r, "Device") for r in range(3)] == ["cuda:1", "cpu", "cuda:0"]


def test_a_file_that_is_not_a_report_is_a_clear_error(qtbot, view, tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"hello": 1}')
    with qtbot.waitSignal(view.failed, timeout=GENEROUS_MS) as failed:
        view.open_report(path)
    (failure,) = failed.args
    assert isinstance(failure, Failure) and failure.kind == "input"
    assert "not a timing report" in failure.message
    assert "not a timing report" in view.summary_label.text()
    assert view.latency_table.row_count() == 0


def test_the_view_starts_empty_with_a_hint(view):
    assert view.objectName() == "comparisonView"
    assert "No report yet" in view.summary_label.text()


# ----- issue 32: reading, checking and comparing run on the pool thread (item 8); the same
# measurement twice is said to be that (item 16)


@pytest.fixture
def threads(monkeypatch):
    """The threads that read, compared and worded reports for the view:
    {"load": [...], "compare": [...], "rows": [...]}."""
    from inspector.gui.features.compare import view as compare_view

    seen: dict[str, list[int]] = {"load": [], "compare": [], "rows": []}
    for name, key in (("load_report", "load"), ("compare_reports", "compare"), ("comparison_tables", "rows")):
        original = getattr(compare_view, name)

        def recorded(*args, _original=original, _key=key, **kwargs):
            seen[_key].append(threading.get_ident())
            return _original(*args, **kwargs)

        monkeypatch.setattr(compare_view, name, recorded)
    return seen


def test_the_view_reads_and_compares_on_a_pool_thread_and_only_shows_on_the_gui_thread(
    qtbot, view, session_report, tmp_path, threads
):
    gui = threading.get_ident()
    path = save_report(typed(_server_report(session_report, 2.0, 0.25)), tmp_path / "server.json")
    with qtbot.waitSignal(view.comparisonShown, timeout=GENEROUS_MS):
        view.set_session_report(typed(session_report))
    with qtbot.waitSignal(view.reportOpened, timeout=GENEROUS_MS):
        view.open_report(path)
    assert threads["load"] and len(threads["compare"]) == len(threads["rows"]) == 2
    assert gui not in threads["load"] + threads["compare"] + threads["rows"]
    assert view.cell_text(view.latency_table, _rows(view, view.latency_table)["cpu"], "B ÷ A") == "2.00×"


def test_open_report_and_compare_with_in_the_window_never_compare_on_the_gui_thread(
    qtbot, window, tmp_path, monkeypatch, threads
):
    """The tester's two reports of 2,000 entries froze the window for ~50 s: each is now read,
    checked and compared on the view's pool thread; the window stays free meanwhile."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from tests.core.report.generated import real_report, unmatched

    report = real_report(runs=5)
    first = save_report(typed(unmatched(report, 2000, batch=1)), tmp_path / "first.json")
    second = save_report(typed(unmatched(report, 2000, batch=2)), tmp_path / "second.json")
    gui = threading.get_ident()
    for action, path in (("openReportAction", first), ("compareWithAction", second)):
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, _path=path, **k: (str(_path), "Timing report (*.json)"))
        window.findChild(QAction, action).trigger()
        view = doors.page(window, COMPARISON)
        assert doors.busy(window) is None  # nothing of this is the window's task: it stays free
        qtbot.waitUntil(lambda _name=path.name: view.labels["b"] == _name and view.comparison is not None
                        and len(view.comparison.latency) >= 2000, timeout=60_000)  # fmt: skip
    assert view.labels["a"] == "first.json" and view.latency_table.row_count() == 4000
    assert threads["load"] and threads["compare"] and threads["rows"]
    assert gui not in threads["load"] + threads["compare"] + threads["rows"]


def test_the_same_report_on_both_sides_is_said_to_be_the_same_measurement(qtbot, view, session_report):
    copy = json.loads(json.dumps(session_report))
    with qtbot.waitSignal(view.comparisonShown, timeout=GENEROUS_MS):
        view.set_reports(typed(session_report), typed(copy), label_a="r.json", label_b="r.json")
    assert "A and B hold the same measurements (identical samples)" in view.summary_label.text()
    assert view.cell_text(view.latency_table, 0, "Verdict") == "the same measurement (identical samples)"
    assert view.cell_text(view.latency_table, 0, "B ÷ A") == "—"


def test_a_ratios_colour_follows_its_verdict_whatever_the_words():
    """A red "1.04×" stood beside "no clear difference: within run-to-run noise" (issue 45 item 3):
    only a verdict that says slower or faster (noisy or not) colours its ratio."""
    from inspector.core.messages import Text
    from inspector.gui.features.compare.cells import ratio_cell

    unclear = (Text("verdict.within_run_noise", floor="3 %"), Text("verdict.unclear"),
               Text("verdict.same_within", within="2%"), Text("verdict.slower_unsure", label="B", factor="1.37"),
               Text("verdict.machine_too_busy", spoiled=2, rounds=3), "")  # fmt: skip
    for verdict in unclear:
        assert ratio_cell(1.04, verdict, higher_is_better=False).foreground is None, verdict
    slower = Text("verdict.slower", label="B", factor="2.10")
    assert ratio_cell(2.1, slower, higher_is_better=False).foreground is not None
    noisy = Text("verdict.noisy_one", verdict=Text("verdict.faster", label="B", factor="2.00"), label="A")
    assert ratio_cell(0.5, noisy, higher_is_better=False).foreground is not None


def test_the_medians_read_in_the_windows_duration_units(qtbot, view, session_report):
    """The compare table's medians said "0.03621" (ms, five decimals) where the rest of the window says µs."""
    report = json.loads(json.dumps(session_report))
    report["latency"] = [with_samples(report["latency"][0], [0.0362, 0.0362, 0.0362], device="cpu")]
    with qtbot.waitSignal(view.comparisonShown, timeout=GENEROUS_MS):
        view.set_reports(typed(report), label_a="r")
    assert view.cell_text(view.latency_table, 0, "median (ms)") == "36.2 µs"
