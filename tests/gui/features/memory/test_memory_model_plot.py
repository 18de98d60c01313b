"""The memory view shows the model: its own bytes per device first, moves as steps, process
RSS and machine memory as labelled secondary curves, marker labels that never collide."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from inspector.core.devices.discovery import MemoryReading, memory_reading  # noqa: E402
from inspector.core.measure.memory_log import MemoryTimeline  # noqa: E402
from inspector.core.moves.request import MoveRequest  # noqa: E402
from inspector.core.session import LoadRequest, Session  # noqa: E402
from inspector.gui.features.memory.plot import MemoryPlot  # noqa: E402
from tests.report_edge import typed  # noqa: E402
from tests.gui.helpers import GENEROUS_MS

MiB, GiB = 1 << 20, 1 << 30
DTYPES = ("float64", "float16", "float32", "float64", "bfloat16")


@pytest.fixture
def five_moves(qtbot):
    """A plot on a session's timeline after a load and five casts, with CPU readings."""
    timeline = MemoryTimeline()
    session = Session(timeline)
    plot = MemoryPlot(timeline=timeline)
    qtbot.addWidget(plot)
    timeline.add([memory_reading("cpu")])
    session.load(LoadRequest("example"))
    for dtype in DTYPES:
        started = plot.mark(f"model.to('cpu', dtype=torch.{dtype}) …")
        session.move(MoveRequest("to", "cpu", dtype))
        plot.end_mark(started, f"model.to('cpu', dtype=torch.{dtype})")
        timeline.add([memory_reading("cpu")])
    plot.redraw()
    return plot


def test_the_models_own_bytes_come_first_and_step_at_each_move(five_moves):
    plot = five_moves
    legend = [label.text for _, label in plot.canvas.getPlotItem().legend.items]
    assert legend[0] == "model on cpu"
    assert plot.unit == "B"  # the example's 44 bytes, not the process's hundreds of MiB
    _, y = plot.canvas.curves["cpu", "model"].xData, plot.canvas.curves["cpu", "model"].yData
    levels = [int(v) for i, v in enumerate(y) if i == 0 or v != y[i - 1]]
    assert levels == [44, 88, 22, 44, 88, 22]
    assert plot.canvas.getPlotItem().getAxis("left").labelText == "memory (B)"


def test_process_rss_and_machine_memory_are_secondary_and_named_as_what_they_are(five_moves):
    plot = five_moves
    rss, machine = plot.canvas.curves["cpu", "process_rss"], plot.canvas.curves["cpu", "machine_used"]
    assert not rss.isVisible() and not machine.isVisible()  # CPU-only: off by default
    assert not plot.secondary_check.isChecked()
    names = {label.text for _, label in plot.canvas.getPlotItem().legend.items}
    assert {"process RSS", "machine used"} <= names and not any("allocated" in n for n in names)
    view = plot.canvas.getPlotItem().getViewBox()
    view.autoRange()
    assert view.viewRange()[1][1] < 1000  # bytes: the hidden RSS does not flatten the model

    plot.secondary_check.setChecked(True)
    assert rss.isVisible() and machine.isVisible() and plot.unit in ("MiB", "GiB")
    plot.secondary_check.setChecked(False)
    assert not rss.isVisible() and plot.unit == "B"


def test_an_accelerator_shows_its_allocator_and_driver_figures_and_the_secondary_curves(qtbot):
    plot = MemoryPlot()
    qtbot.addWidget(plot)
    t0 = plot.timeline.t0
    plot.add_readings([memory_reading("cpu"), MemoryReading("cuda:0", t0 + 1, GiB, 2 * GiB, 3 * GiB, 80 * GiB, GiB // 2)])
    plot.redraw()
    assert {("cuda:0", f) for f in ("allocated", "reserved", "used", "other_processes")} <= set(plot.canvas.curves)
    assert plot.canvas.curves["cuda:0", "other_processes"].yData.tolist() == [0.5]  # GiB, apart from ours
    assert plot.canvas.curves["cpu", "process_rss"].isVisible() and plot.secondary_check.isChecked()
    names = {label.text for _, label in plot.canvas.getPlotItem().legend.items}
    assert {"cuda:0 used (driver, whole device)", "cuda:0 other processes (NVML)"} <= names


def test_hovering_reads_out_every_curve_and_the_models_split(five_moves):
    plot = five_moves
    t = plot.timeline.model_report()[-1]["t"] + 0.001
    text = plot.readout_at(t)
    assert text.startswith(f"t {t:.1f} s") and "model on cpu 22 B (parameter 22 B)" in text
    assert "process RSS" not in text  # hidden curves are not read out
    plot.secondary_check.setChecked(True)
    assert "process RSS" in plot.readout_at(t)
    assert plot.readout_at(-10.0) == ""


def _labels_laid_out(plot) -> list:
    """The markers whose labels show, after checking what a reader of the plot needs: labels
    never overlap each other nor leave the plot; each hangs from its marker's line (right of
    it, or left of it where the plot has no room right of it); a label hidden or shortened
    has its whole text in its marker's tooltip."""
    import pyqtgraph as pg

    canvas = plot.canvas
    box = canvas.getPlotItem().getViewBox().sceneBoundingRect()
    shown = [item for item in canvas.marker_items if item.label.isVisible()]
    rects = [item.label.sceneBoundingRect() for item in shown]
    for i, a in enumerate(rects):
        assert box.contains(a), (shown[i].label.toPlainText(), a, box)
        for b in rects[i + 1 :]:
            assert not a.intersects(b)
    for item, rect in zip(shown, rects):
        line = item if isinstance(item, pg.InfiniteLine) else item.lines[0]
        x = line.sceneBoundingRect().center().x()
        assert abs(rect.left() - x) <= 2 or abs(rect.right() - x) <= 2  # hangs from its line
    for item in canvas.marker_items:
        if not item.label.isVisible() or item.label.toPlainText() != item.label_text:
            assert item.label_text.replace("dtype=", "dtype=torch.") in item.toolTip()
            assert item.label.toolTip() == item.toolTip()
    return shown


def test_marker_labels_take_lanes_and_never_overlap(qtbot):
    plot = MemoryPlot()
    qtbot.addWidget(plot)
    plot.resize(1024, 320)
    plot.show()
    t0 = plot.timeline.t0
    plot.add_readings([MemoryReading("cpu", t0, 1, None, 2, 3), MemoryReading("cpu", t0 + 30, 1, None, 2, 3)])
    plot.redraw()
    for i in range(80):  # eighty actions, close together, with long labels
        plot.mark_span(f"model.to('cpu', dtype=torch.float{16 * (1 + i % 3)}) #{i}", t0 + 0.35 * i, t0 + 0.35 * i + 0.2)
    plot.canvas.getPlotItem().getViewBox().setXRange(0, 30, padding=0)
    plot.grab()  # painted now (the range applied, the labels laid out on it), not after a wait
    shown = _labels_laid_out(plot)
    assert 4 <= len(shown) < len(plot.canvas.marker_items)  # some get a lane; the rest live in tooltips
    assert plot.canvas.marker_items[-1].label.isVisible()  # the newest action is always labelled


#: The student's marks at 1024x700 in Chinese: a load, moves, a long benchmark, a move at the end.
STUDENT_MARKS = (
    (0.0, 0.4, "加载 example"),
    (1.2, 1.3, "model.to('cpu', dtype=torch.float16)"),
    (2.0, 2.1, "model.to('cpu', dtype=torch.float64)"),
    (2.8, 2.9, "model.to('cpu', dtype=torch.float32)"),
    (3.5, 9.2, "基准测试 ×100,000 · cpu float32（中位数 18.7 µs）"),
    (9.6, 9.7, "model.to('cpu', dtype=torch.bfloat16)"),
    (11.8, None, "基准测试 ×100,000 · cpu bfloat16 …"),
)


@pytest.mark.parametrize("size", [(600, 190), (1150, 420)], ids=["1024x700", "1920x1080"])
def test_the_students_marks_fit_the_plot_at_both_screen_sizes(qtbot, size):
    """At 1024x700 the labels ran into each other and off the plot's right edge (issue 35).
    The sizes are the memory plot's in the window at 1024x700 and at 1920x1080."""
    from inspector.gui.features.memory.task_marks import TaskMarks

    plot = MemoryPlot()
    qtbot.addWidget(plot)
    plot.resize(*size)
    plot.show()
    qtbot.waitExposed(plot)
    t0 = plot.timeline.t0
    plot.add_readings([MemoryReading("cpu", t0, 1, None, 2, 3), MemoryReading("cpu", t0 + 12.2, 1, None, 2, 3)])
    plot.secondary_check.setChecked(True)  # (a curve on screen: the plot's range follows it)
    marks = TaskMarks()
    marks.attach(plot)
    for start, end, label in STUDENT_MARKS:
        if end is None:
            plot.mark(label, t0 + start)
        else:
            plot.mark_span(label, t0 + start, t0 + end)
    plot.redraw()
    # pyqtgraph applies the new range when it next paints, and the labels are laid out again
    # on that range change: paint now, as the screen would, rather than wait a while for it
    # (a busy machine had not painted within 10 ms, and the labels were the old range's).
    plot.grab()
    shown = _labels_laid_out(plot)
    items = plot.canvas.marker_items
    assert items[-1] in shown and items[-2] in shown  # what just happened is labelled
    last = items[-1].label.sceneBoundingRect()
    assert last.right() <= items[-1].sceneBoundingRect().center().x() + 2  # no room right of it: left of it
    if size[0] > 1000:
        assert shown == items  # on a big screen every label shows, whole
        assert all(item.label.toPlainText() == item.label_text for item in items)
        assert items[4].label.toPlainText() == "基准测试 ×100,000 · cpu float32（中位数 18.7 µs）"

    # Zoomed in on the benchmark: the labels of marks out of view go, the rest stay in it.
    plot.canvas.getPlotItem().getViewBox().setXRange(4, 8, padding=0)
    shown = _labels_laid_out(plot)
    assert items[4] not in shown and items[-1] not in shown  # their lines are out of view
    plot.canvas.getPlotItem().getViewBox().setXRange(3, 10, padding=0)
    assert items[4] in _labels_laid_out(plot)


def test_a_reports_model_bytes_are_drawn_again(qtbot, five_moves):
    report = {"memory": five_moves.timeline.to_report(), "model_memory": five_moves.timeline.model_report()}
    again = MemoryPlot()
    qtbot.addWidget(again)
    again.show_report(typed(report))
    assert list(again.canvas.curves)[0] == ("cpu", "model")
    assert again.canvas.curves["cpu", "model"].yData.max() == 88


def _icons_on_screen(plot) -> dict[str, bool]:
    """Per legend entry, whether the screen shows its "hidden" eye (as last painted: the
    window's backing store, so an icon nobody repainted shows as it was)."""
    from PySide6.QtCore import QRect

    window = plot.window()
    image = window.screen().grabWindow(window.winId()).toImage()
    canvas = plot.canvas
    icons = {}
    for sample, label in canvas.getPlotItem().legend.items:
        rect = canvas.mapFromScene(sample.sceneBoundingRect()).boundingRect()
        crop = image.copy(QRect(canvas.viewport().mapTo(window, rect.topLeft()), rect.size()))
        if crop.isNull():  # not painted yet
            return {}
        ground = crop.pixelColor(0, 0).lightness()
        inked = [y for y in range(crop.height())
                 if any(abs(crop.pixelColor(x, y).lightness() - ground) > 60 for x in range(crop.width()))]  # fmt: skip
        icons[label.text] = len(inked) > 6  # the eye is 18 px tall; a curve's sample, its pen's few rows
    return icons


def _hidden_curves(plot) -> dict[str, bool]:
    return {label.text: not sample.item.isVisible() for sample, label in plot.canvas.getPlotItem().legend.items}


def test_the_legend_shows_the_hidden_eye_exactly_for_the_hidden_curves(qtbot, qapp, five_moves):
    """The student's legend showed crossed-out eyes next to curves on screen: the box shows
    the curves and their entries kept the eye, painted when the curves were hidden."""
    from PySide6.QtCore import QPoint, Qt

    from tests.gui.languages import speak

    plot = five_moves
    plot.resize(900, 320)
    plot.show()
    qtbot.waitExposed(plot)

    def icons_match(hidden: dict[str, bool] | None = None) -> None:
        expected = _hidden_curves(plot)
        if hidden is not None:
            assert expected == hidden
        qtbot.waitUntil(lambda: _icons_on_screen(plot) == expected, timeout=GENEROUS_MS)

    icons_match({"model on cpu": False, "process RSS": True, "machine used": True})
    plot.secondary_check.setChecked(True)
    icons_match({"model on cpu": False, "process RSS": False, "machine used": False})
    plot.secondary_check.setChecked(False)
    icons_match({"model on cpu": False, "process RSS": True, "machine used": True})
    plot.secondary_check.setChecked(True)
    icons_match()

    # A click on an entry hides its curve, another shows it again.
    canvas = plot.canvas
    sample = next(s for s, label in canvas.getPlotItem().legend.items if label.text == "process RSS")
    at = canvas.mapFromScene(sample.sceneBoundingRect().center())
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(at.x(), at.y()))
    icons_match({"model on cpu": False, "process RSS": True, "machine used": False})
    plot.secondary_check.setChecked(False)
    plot.secondary_check.setChecked(True)
    icons_match({"model on cpu": False, "process RSS": False, "machine used": False})

    try:
        speak(qapp, "zh_CN")
        icons_match({"cpu 上的模型": False, "进程 RSS": False, "整机已用": False})
        plot.secondary_check.setChecked(False)
        icons_match({"cpu 上的模型": False, "进程 RSS": True, "整机已用": True})
    finally:
        speak(qapp, "en")
    icons_match({"model on cpu": False, "process RSS": True, "machine used": True})
