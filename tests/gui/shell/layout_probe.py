"""What a student sees at 1024x700 (issue 45), measured in a window of its own: run as a script
(``python -m tests.gui.shell.layout_probe``) on an offscreen screen of that size, it loads the
Transformer preset, benchmarks it per module, plans it for an RTX 4090, and prints one JSON line
of figures per language (English, then Chinese after a change of language at run time), and at
the window's minimum size. ``test_layout_probe`` asserts on them; ``tools``-free, so the test
and a person read the same figures.

Reached through object names only (the contracts' ``benchmarkButton``, ``cudaButton``,
``fitAction``, …), never the window's attributes.
"""

from __future__ import annotations

import json
import sys
import time
from itertools import combinations
from typing import Any

PRESET = ("torch.nn:Transformer", "10,32,512; 20,32,512")
TABS = {"en": ("Latency", "Memory"), "zh_CN": ("延迟", "内存")}



def pump(ms: int) -> None:
    """Turn the event loop for ``ms`` ms. (QTest.qWait holds the GIL while it sleeps between
    turns: the window's torch import, on its own thread, then took 40-50 s instead of 2.)"""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()

def main() -> None:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QPushButton, QSpinBox, QTableView, QTableWidget

    from inspector.gui.common import i18n
    from inspector.gui.shell.app import create_window, ensure_application

    app = ensure_application()
    i18n.apply_language(i18n.ENGLISH)
    window = create_window(model_spec="example")
    window.show()
    state = window.session_state

    def wait(done: Any, seconds: float = 600) -> None:
        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                raise SystemExit("the probe waited too long")
            pump(20)

    idle = lambda: state.model is not None and state.tasks.task is None and state.inventory is not None  # noqa: E731
    wait(lambda: window.session_started and idle())
    window.open_model(PRESET[0], inputs=PRESET[1])
    wait(lambda: idle() and state.model.info.spec == PRESET[0])
    window.findChild(QSpinBox, "runsSpin").setValue(1)
    window.findChild(QCheckBox, "perModuleCheck").setChecked(True)
    history = window.findChild(QTableView, "historyView").model()
    rows = history.rowCount()
    window.findChild(QPushButton, "benchmarkButton").click()
    wait(lambda: idle() and history.rowCount() > rows)

    window.findChild(QAction, "fitAction").trigger()
    dialog = next(d for d in app.topLevelWidgets() if isinstance(d, QDialog) and d.findChild(QTableWidget, "fitTable"))
    named = dialog.findChild(QComboBox, "fitNamedCombo")
    named.setCurrentIndex(named.findData("RTX 4090"))
    dialog.findChild(QPushButton, "fitEstimateButton").click()
    pump(50)
    wait(lambda: idle() and dialog.findChild(QPushButton, "fitEstimateButton").isEnabled())
    pump(300)

    for language in ("en", "zh_CN"):
        i18n.apply_language(language)
        pump(300)
        print(json.dumps({"language": language, **_figures(app, window, dialog, language)}), flush=True)

    dialog.close()
    window.resize(window.minimumSizeHint())
    pump(300)
    print(json.dumps({"language": "minimum", "size": window.size().toTuple(), "views": _views(window, "zh_CN")}), flush=True)
    window.close()


def _figures(app: Any, window: Any, dialog: Any, language: str) -> dict[str, Any]:
    from PySide6.QtWidgets import QAbstractButton, QPushButton, QWidget

    figures: dict[str, Any] = {"tree_rows": _tree_rows(window), "views": _views(window, language)}
    figures["cut"] = _cut_texts(window) + _cut_texts(dialog)
    figures["overlapping"] = _overlapping_plot_texts(window)
    # A banner appearing, then going, moves no other widget.
    banner = window.findChild(QPushButton, "cudaButton")
    before = _geometries(window)
    banner.click()
    end = time.monotonic() + 120
    error = window.findChild(QWidget, "errorBanner")
    while not (error is not None and error.isVisible() and window.session_state.tasks.task is None):
        if time.monotonic() > end:
            raise SystemExit("no banner")
        pump(20)
    pump(100)
    shown = _geometries(window)
    figures["cut_with_banner"] = _cut_texts(error)
    error.findChild(QAbstractButton, "errorBannerCloseButton").click()
    pump(100)
    figures["moved_by_banner"] = sorted(name for name in before if shown.get(name) != before[name])
    figures["moved_back"] = sorted(name for name in before if _geometries(window).get(name) != before[name])
    screen = dialog.screen().availableGeometry()
    table = dialog.table
    figures["fit"] = {
        "height": dialog.frameGeometry().height(), "screen": screen.height(), "rows": table.rowCount(),
        "rows_shown": sum(table.visualRect(table.model().index(r, 0)).bottom() < table.viewport().height()
                          for r in range(table.rowCount())),
        "notes_whole": dialog.notes.height() >= dialog.notes.heightForWidth(dialog.notes.width()),
        "table_scrolls": table.verticalScrollBar().maximum() > 0,
        "on_screen": screen.contains(dialog.frameGeometry()),
    }  # fmt: skip
    return figures


def _tree_rows(window: Any) -> int:
    """The model tree's rows wholly in view (not under a floating message)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QTreeView

    from inspector.gui.common.message_bar import MessageStack

    tree = window.findChild(QTreeView, "parameterView")
    viewport = tree.viewport()
    bottom = viewport.height()
    for message in tree.findChildren(MessageStack):  # a warning floating over the last rows hides them
        if message.isVisible():
            bottom = min(bottom, viewport.mapFromGlobal(message.mapToGlobal(QPoint(0, 0))).y())
    shown, index = 0, tree.indexAt(viewport.rect().topLeft())
    while index.isValid() and tree.visualRect(index).bottom() < bottom:
        shown += 1
        index = tree.indexBelow(index)
    return shown


def _views(window: Any, language: str) -> dict[str, int]:
    """The height of each plot's drawing area (its ViewBox), each shown as a student would."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QTabWidget, QWidget

    tabs = window.findChild(QTabWidget, "bottomTabs")
    titles = [tabs.tabText(i) for i in range(tabs.count())]
    heights = {}
    latency_title, memory_title = TABS[language]
    tabs.setCurrentIndex(titles.index(latency_title))
    pump(200)
    latency = window.findChild(QWidget, "latencyPlot")
    for index, name in enumerate(("samples", "summary")):
        latency.tabs.setCurrentIndex(index)
        pump(200)
        plot = latency.tabs.currentWidget()
        heights[name] = round(plot.getPlotItem().getViewBox().sceneBoundingRect().height())
    tabs.setCurrentIndex(titles.index(memory_title))
    pump(200)
    memory = window.findChild(QWidget, "memoryPlot")
    canvas = next(p for p in memory.findChildren(pg.PlotWidget) if p.isVisible())
    heights["memory"] = round(canvas.getPlotItem().getViewBox().sceneBoundingRect().height())
    tabs.setCurrentIndex(titles.index(latency_title))
    latency.tabs.setCurrentIndex(1)  # the Summary, with its value labels, for the text checks
    pump(200)
    return heights


def _whole_in_tooltip(widget: Any, text: str) -> bool:
    tip = widget.toolTip()
    return bool(tip) and (text in tip or text.replace("&", "") in tip)


def _cut_texts(root: Any) -> list[str]:
    """Every visible label, button, tab and header section under ``root`` whose text is wider
    or taller than its room and whose tooltip does not have it whole."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractButton, QHeaderView, QLabel, QStyle, QTabBar

    cut = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if not label.isVisible() or not text or label.pixmap() is not None and not label.pixmap().isNull():
            continue
        room = label.contentsRect()
        if label.wordWrap():
            over = label.heightForWidth(room.width()) > room.height() + 1
        else:
            over = label.sizeHint().width() > label.width() + 1 or label.sizeHint().height() > label.height() + 1
        if over and not _whole_in_tooltip(label, text if label.textFormat() == Qt.TextFormat.PlainText else ""):
            cut.append(f"label {label.objectName() or type(label).__name__}: {text[:60]!r}")
    for button in root.findChildren(QAbstractButton):
        text = button.text()
        if button.isVisible() and text and button.sizeHint().width() > button.width() + 1 and not _whole_in_tooltip(button, text):
            cut.append(f"button {button.objectName() or type(button).__name__}: {text!r}")
    for bar in root.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            text = bar.tabText(i)
            if bar.fontMetrics().horizontalAdvance(text) > bar.tabRect(i).width() - 8 and text not in bar.tabToolTip(i):
                cut.append(f"tab {text!r}")
    for header in root.findChildren(QHeaderView):
        if not header.isVisible() or header.orientation() != Qt.Orientation.Horizontal:
            continue
        model = header.model()
        for section in range(header.count()):
            if header.isSectionHidden(section):
                continue
            left = header.sectionViewportPosition(section)
            size = header.sectionSize(section)
            if left < 0 or left + size > header.viewport().width():
                continue  # scrolled out of view, wholly or partly: it scrolls, it is not cut
            text = str(model.headerData(section, Qt.Orientation.Horizontal) or "")
            tip = str(model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) or "")
            margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
            if text and header.fontMetrics().horizontalAdvance(text) + margin > size and text not in tip:
                cut.append(f"header {text!r}")
    return cut


def _overlapping_plot_texts(window: Any) -> list[str]:
    """pyqtgraph text items (bar values, marker labels, the outlier line) that overlap each
    other or stick out of their plot's drawing area, in the plots now shown."""
    import pyqtgraph as pg

    found = []
    for plot in window.findChildren(pg.PlotWidget):
        if not plot.isVisible():
            continue
        view = plot.getPlotItem().getViewBox().sceneBoundingRect()
        items = [i for i in plot.scene().items() if isinstance(i, pg.TextItem) and i.isVisible()
                 and i.textItem.toPlainText().strip()]  # fmt: skip
        rects = [(i.textItem.toPlainText(), i.sceneBoundingRect()) for i in items]
        for text, rect in rects:
            if not view.adjusted(-1, -1, 1, 1).contains(rect):
                found.append(f"{plot.objectName()}: {text!r} outside the view")
        for (a, ra), (b, rb) in combinations(rects, 2):
            if ra.intersected(rb).width() > 1 and ra.intersected(rb).height() > 1:
                found.append(f"{plot.objectName()}: {a!r} over {b!r}")
    return found


def _geometries(window: Any) -> dict[str, tuple[int, ...]]:
    """Each named visible widget's place in the window, but the banner's own."""
    from PySide6.QtWidgets import QWidget

    banner = window.findChild(QWidget, "errorBanner")
    return {
        f"{w.objectName()}#{i}": (*w.mapTo(window, w.rect().topLeft()).toTuple(), w.width(), w.height())
        for i, w in enumerate(window.findChildren(QWidget))
        if w.objectName() and w.isVisible() and w is not banner and not banner.isAncestorOf(w)
    }


if __name__ == "__main__":
    main()
    sys.exit(0)
