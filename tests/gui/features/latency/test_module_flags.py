"""The window says when its per-module figures are rough, next to them: above the model tree,
in the Time column's title, in the history entry and the Summary tab; not when they hold.

The models run on a fake clock (tests/module_clock.py), so their figures are known exactly;
the benchmark itself runs as a user starts it, with "per module" ticked."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableView, QTreeView

from inspector.core.measure import attribution
from tests.gui.helpers import table_rows, widget
from tests.gui.shell.test_modules_and_fit import _column, _per_module_benchmark
from tests.module_clock import CLOCK, factory_source
from inspector.gui.common.pages import LATENCY
from tests.gui import doors


@pytest.fixture
def fake_clock(monkeypatch):
    monkeypatch.setattr(attribution, "_clock", CLOCK)
    monkeypatch.setattr(CLOCK, "hook_read_ns", 0)  # each factory sets its own; put back after


def _window_after_a_per_module_run(qtbot, make_window, tmp_path, source: str):
    factory = tmp_path / "pair.py"
    factory.write_text(source)
    window = make_window(f"{factory}:make")
    _per_module_benchmark(qtbot, window, runs=3)
    return window


def _history_entry(window) -> tuple[str, str]:
    history = widget(window, QTableView, "historyView").model()
    result = table_rows(history)[-1]["Result"]
    return result, history.index(history.rowCount() - 1, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_module_times_that_exceed_the_forward_are_flagged_next_to_them(qtbot, make_window, tmp_path, fake_clock):
    # Leaves of 3 µs that wait 1 ms whenever the hooks are on (as a hook waiting for the GIL would).
    window = _window_after_a_per_module_run(
        qtbot, make_window, tmp_path, factory_source(3_000, hooked_ns=1_000_000, hook_read_ns=10_000)
    )
    stats = window.parameters.model.attribution
    assert stats.self_sum_ms > 1.1 * stats.forward_without_hooks_ms
    says = "the modules' self times add up to 286.71× the forward measured without hooks"

    note = widget(window, QLabel, "moduleTimeWarnings")
    assert not note.isHidden() and says in note.text()
    assert note.text().startswith("⚠ per-module figures not reliable: the hooks add 686.7 µs per module call")

    model = widget(window, QTreeView, "parameterView").model()
    time = _column(model, "Time")  # the title itself stays "Time"
    tip = model.headerData(time, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert "⚠ Per-module figures not reliable:" in tip and says in tip
    assert model.headerData(time, Qt.Orientation.Horizontal, Qt.ItemDataRole.DecorationRole) is not None

    result, detail = _history_entry(window)
    assert "top: " in result and "(⚠ per-module figures not reliable)" in result
    assert says in detail and detail.index(says) < detail.index("Top 5 modules by self time")
    assert "the hooks' own cost, 20.0 µs a module call (measured on empty modules), is taken out" in detail

    label = doors.page(window, LATENCY).findChild(QLabel, "summaryModulesLabel")
    assert says in label.text()


def test_module_times_that_hold_get_no_flag(qtbot, make_window, tmp_path, fake_clock):
    # Leaves of 2 ms, a hook pair of 2 µs: the figures add up to the forward, 1.002× with hooks.
    window = _window_after_a_per_module_run(qtbot, make_window, tmp_path, factory_source(2_000_000, hook_read_ns=1_000))
    assert window.parameters.model.attribution.warnings == ()
    assert widget(window, QLabel, "moduleTimeWarnings").isHidden()
    model = widget(window, QTreeView, "parameterView").model()
    time = _column(model, "Time")
    tip = model.headerData(time, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Time: the module's call with its children") and "not reliable" not in tip
    assert model.headerData(time, Qt.Orientation.Horizontal, Qt.ItemDataRole.DecorationRole) is None
    result, detail = _history_entry(window)
    assert "top: " in result and "not reliable" not in result and "not reliable" not in detail
