"""A real small screen, as a new user has one: the first window fits it, nothing of the action
bar is off its edge, and a geometry saved elsewhere is brought onto it.

Each case is a fresh process on an offscreen screen of its own size (Qt's offscreen platform
reads its screens from a JSON file), with its own settings folder: no saved settings unless
the case saves them first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.gui import doors
from tests.gui.helpers import GENEROUS_MS

REPO = Path(__file__).resolve().parents[3]

_PROBE = textwrap.dedent(
    """
    import json, sys, time
    from inspector.gui.shell.app import create_window, ensure_application
    app = ensure_application()
    window = create_window(sys.argv[1])
    window.show()
    end = time.time() + 60
    while time.time() < end and (window.session_state.model is None or window.session_state.tasks.task is not None):
        app.processEvents(); time.sleep(0.01)
    for _ in range(20):
        app.processEvents(); time.sleep(0.01)
    area = app.primaryScreen().availableGeometry()
    inside = window.geometry()
    from inspector.gui.features.moves.action_bar import ActionBar
    bar = window.findChild(ActionBar)
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit, QSpinBox, QCheckBox
    off = []
    for kind in (QAbstractButton, QComboBox, QLineEdit, QSpinBox, QCheckBox):
        for w in bar.findChildren(kind):
            if not w.isVisible():
                continue
            r = w.rect().translated(w.mapTo(window, w.rect().topLeft()))
            if not window.rect().contains(r):
                off.append(w.objectName() or type(w).__name__)
    tree = window.parameters.view
    header = tree.header()
    model = tree.model()
    from PySide6.QtCore import Qt
    shape_col = next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Shape")
    shape_right = header.sectionViewportPosition(shape_col) + header.sectionSize(shape_col)
    def rows(parent=None):
        from PySide6.QtCore import QModelIndex
        parent = parent or QModelIndex()
        for r in range(model.rowCount(parent)):
            index = model.index(r, 0, parent)
            yield index
            if tree.isExpanded(index):
                yield from rows(index)
    cut_rows = [model.data(i) for i in rows() if tree.visualRect(i).bottom() > tree.viewport().height()
                or tree.visualRect(i).top() < 0]
    extra = {}
    if len(sys.argv) > 2 and sys.argv[2] == "flows":
        # A failed .cuda(): the banner moves no panel; then a move by keyboard: the focus stays.
        panels = lambda: [w.geometry().getRect() for w in (window.main_splitter, window.tabs, tree, bar)]
        before = panels()
        window.move_cuda()
        end = time.time() + 60
        while time.time() < end and (window.session_state.tasks.task is not None or not window.errorBanner.isVisible()):
            app.processEvents(); time.sleep(0.01)
        for _ in range(20):
            app.processEvents(); time.sleep(0.01)
        extra["banner_moved"] = panels() != before
        button = bar.toDeviceButton
        button.setFocus()
        button.click()
        end = time.time() + 60
        while time.time() < end and (window.session_state.tasks.task is not None or window.errorBanner.isVisible()):
            app.processEvents(); time.sleep(0.01)
        for _ in range(10):
            app.processEvents(); time.sleep(0.01)
        extra["banner_after_success"] = window.errorBanner.isVisible()
        focus = app.focusWidget()
        extra["focus_after_move"] = focus.objectName() if focus is not None else None
    print(json.dumps({
        **extra,
        "cut_rows": cut_rows,
        "area": [area.x(), area.y(), area.width(), area.height()],
        "window": [inside.x(), inside.y(), inside.width(), inside.height()],
        "min": [window.minimumSizeHint().width(), window.minimumSizeHint().height()],
        "off_edge": off,
        "shape_visible": shape_right <= tree.viewport().width(),
    }))
    if len(sys.argv) > 2 and sys.argv[2] == "save":  # leave a geometry behind, as a close does
        window.close()
        for _ in range(10):
            app.processEvents()
    else:
        window.close()
    """
)


def screens_file(tmp_path: Path, name: str, *screens: tuple[int, int, int, int]) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"synchronousWindowSystemEvents": False, "windowFrameMargins": False, "screens": [
        {"name": f"{name}-{i}", "x": x, "y": y, "width": w, "height": h, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
        for i, (x, y, w, h) in enumerate(screens)
    ]}))  # fmt: skip
    return str(path)


def probe(screens: str, settings: Path, spec: str = "example", *, save: bool = False, flows: bool = False) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={screens}", XDG_CONFIG_HOME=str(settings))
    env["PYTHONPATH"] = str(REPO)
    args = [sys.executable, "-c", _PROBE, spec] + (["save"] if save else []) + (["flows"] if flows else [])
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=180, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def within(rect: list[int], area: list[int]) -> bool:
    x, y, w, h = rect
    ax, ay, aw, ah = area
    return ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah


@pytest.mark.parametrize("spec", ["example", "torch.nn:Transformer"])
def test_a_first_launch_on_a_1024x700_screen_fits_it_with_every_control_reachable(tmp_path, spec):
    seen = probe(screens_file(tmp_path, "small", (0, 0, 1024, 700)), tmp_path / "settings", spec)
    assert within(seen["window"], seen["area"]), seen
    assert seen["min"][0] <= 1024 and seen["min"][1] <= 700, seen  # it can get this small
    assert seen["off_edge"] == [], seen
    assert seen["shape_visible"], seen


def test_at_1024x700_the_examples_rows_all_show_a_banner_moves_nothing_and_a_move_keeps_the_focus(tmp_path):
    seen = probe(screens_file(tmp_path, "small", (0, 0, 1024, 700)), tmp_path / "settings", flows=True)
    assert seen["cut_rows"] == [], seen  # modules and parameters, without scrolling
    assert seen["banner_moved"] is False, seen  # it floats over the bottom of the tabs
    assert seen["banner_after_success"] is False, seen  # the move that worked cleared it
    assert seen["focus_after_move"] == "toDeviceButton", seen  # not the input-shape field


def test_a_saved_geometry_larger_than_the_screen_is_clamped_onto_it(tmp_path):
    settings = tmp_path / "settings"
    big = probe(screens_file(tmp_path, "big", (0, 0, 1920, 1080)), settings, save=True)
    assert big["window"][2] > 1024  # saved at its preferred size
    small = probe(screens_file(tmp_path, "small", (0, 0, 1024, 700)), settings)
    assert within(small["window"], small["area"]), small


def test_a_geometry_saved_on_a_screen_that_is_gone_lands_on_the_current_one(tmp_path):
    settings = tmp_path / "settings"
    two = screens_file(tmp_path, "two", (0, 0, 1920, 1080), (1920, 0, 1280, 1024))
    # Saved on the right-hand monitor: move the window there before it closes.
    env_probe = _PROBE.replace("window.show()", "window.show(); window.move(2000, 50)")
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={two}", XDG_CONFIG_HOME=str(settings),
               PYTHONPATH=str(REPO))  # fmt: skip
    done = subprocess.run([sys.executable, "-c", env_probe, "example", "save"], capture_output=True, text=True,
                          env=env, timeout=180, cwd=REPO)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1])["window"][0] >= 1920  # it was on the second screen
    laptop = probe(screens_file(tmp_path, "laptop", (0, 0, 1024, 700)), settings)
    assert within(laptop["window"], laptop["area"]), laptop


def test_at_1024_px_the_progress_text_is_whole_for_the_texts_a_student_saw(qtbot, make_window):
    window = make_window()
    window.show()
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() == 1024, timeout=GENEROUS_MS)
    bar = doors.bar(window)
    for text in ("样本 3,567 / 20,000 · 约剩 12 秒", "中位数 36.7 µs · 有噪声", "已写入 Net-timing-report.html"):
        bar.show_progress(0.2, text)
        qtbot.wait(10)
        assert bar.progressBar.text() == text  # not cut with "…"
