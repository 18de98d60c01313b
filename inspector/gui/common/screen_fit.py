"""Windows that fit the screen they open on.

A first launch sizes the window to the smaller of what it would like and the screen's
available area (``QScreen.availableGeometry``: the screen less its panels and docks), less a
margin, centred there. A geometry restored from the settings that no longer fits (a smaller
screen, a screen unplugged since, another DPI) is brought onto a screen that exists: the one
it overlaps most, else the primary one, shrunk to fit and moved inside. Dialogs get the same.

The rules are plain functions of rectangles, so they are tested with made-up screens.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QStyle, QTableView, QWidget

#: Kept free around a window on a screen smaller than it would like: room for the window
#: manager's frame and title bar, and a bit of desktop, so the window reads as a window.
MARGIN = 16


def _shrunk(area: QRect, margin: int) -> QRect:
    return area.adjusted(margin, margin, -margin, -margin)


def first_geometry(preferred: QSize, available: QRect, margin: int = MARGIN) -> QRect:
    """Where a window without saved settings opens: centred in ``available``, no larger than
    ``preferred`` nor than ``available`` less ``margin`` on each side."""
    room = _shrunk(available, margin)
    size = QSize(min(preferred.width(), room.width()), min(preferred.height(), room.height()))
    rect = QRect(QPoint(0, 0), size)
    rect.moveCenter(available.center())
    return rect


def best_screen(rect: QRect, screens: Sequence[QRect]) -> int:
    """The index of the screen ``rect`` overlaps most (0, the primary, when it overlaps none)."""
    best, best_area = 0, 0
    for index, screen in enumerate(screens):
        overlap = rect.intersected(screen)
        area = overlap.width() * overlap.height() if overlap.isValid() else 0
        if area > best_area:
            best, best_area = index, area
    return best


def clamped(rect: QRect, screens: Sequence[QRect], margin: int = MARGIN) -> QRect:
    """``rect`` (a restored geometry) made to fit: on the screen it overlaps most, no larger
    than that screen's available area less ``margin``, and wholly inside it."""
    if not screens:
        return QRect(rect)
    area = screens[best_screen(rect, screens)]
    room = _shrunk(area, margin) if area.width() > 2 * margin and area.height() > 2 * margin else QRect(area)
    width, height = min(rect.width(), room.width()), min(rect.height(), room.height())
    x = min(max(rect.x(), room.left()), room.right() + 1 - width)
    y = min(max(rect.y(), room.top()), room.bottom() + 1 - height)
    return QRect(x, y, width, height)


def _primary_screen() -> QScreen | None:
    """The primary screen; None where there is no screen at all (PySide6's stub says never)."""
    return QGuiApplication.primaryScreen()


def available_areas() -> list[QRect]:
    """Each screen's available area, the primary screen first."""
    primary = _primary_screen()
    screens: list[QScreen | None] = [primary] + [s for s in QGuiApplication.screens() if s is not primary]
    return [s.availableGeometry() for s in screens if s is not None]


def place_first(window: QWidget, preferred: QSize, screen: QScreen | None = None) -> None:
    """Size and centre ``window`` for a first launch on ``screen`` (default: the primary one)."""
    screen = screen or _primary_screen()
    if screen is None:
        window.resize(preferred)
        return
    # setGeometry places the window's inside: the window manager's title bar goes above it.
    title = window.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight)
    window.setGeometry(first_geometry(preferred, screen.availableGeometry().adjusted(0, title, 0, 0)))


def keep_on_screen(window: QWidget) -> None:
    """Bring a shown or restored ``window`` wholly onto an existing screen, shrunk to fit.

    Works on the frame (title bar included) where the window manager says where it is, so the
    title bar never ends up above the screen's top edge."""
    areas = available_areas()
    frame, inner = window.frameGeometry(), window.geometry()
    # The frame's extra size (title bar, borders): 0 before the window manager has framed it.
    extra_w, extra_h = frame.width() - inner.width(), frame.height() - inner.height()
    fitted = clamped(frame, areas)
    if fitted != frame:
        window.resize(fitted.width() - extra_w, fitted.height() - extra_h)
        window.move(fitted.topLeft())


def fit_dialog(dialog: QWidget, parent: QWidget | None = None) -> None:
    """A dialog no larger than the screen its parent is on (or the primary one), inside it."""
    screen = (parent.screen() if parent is not None else None) or _primary_screen()
    if screen is None:
        return
    room = _shrunk(screen.availableGeometry(), MARGIN)
    size = dialog.size().boundedTo(room.size())
    if size != dialog.size():
        dialog.resize(size)
    dialog.setMaximumSize(dialog.maximumSize().boundedTo(screen.availableGeometry().size()))


def fit_height_to_contents(dialog: QWidget) -> None:
    """``dialog`` as tall as its contents need at its width now (word-wrapped text included),
    never taller than its screen: neither cut nor growing with each answer (the fit dialog's
    notes overlapped each other, and it grew 380 -> 506 px with each plan, issue 45)."""
    layout = dialog.layout()
    if layout is None:
        return
    layout.activate()
    width = dialog.width()
    height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
    screen = dialog.screen() or _primary_screen()
    if screen is not None:
        height = min(height, _shrunk(screen.availableGeometry(), MARGIN).height())
    dialog.resize(width, max(height, layout.totalMinimumSize().height()))
    if dialog.isVisible():  # (a dialog grown by its answer hung below the screen's edge at 1024x700)
        keep_on_screen(dialog)



def fit_table_to_rows(table: QTableView) -> None:
    """``table`` as tall as its header, its rows and its sideways scroll bar: no row scrolls out of sight."""
    rows = sum(table.rowHeight(r) for r in range(table.model().rowCount()))
    scroll = table.horizontalScrollBar()
    extra = scroll.sizeHint().height() if scroll.maximum() > 0 else 0
    header = table.horizontalHeader()
    header_height = max(header.height(), header.sizeHint().height())  # (its words just changed: not laid out yet)
    table.setFixedHeight(header_height + rows + 2 * table.frameWidth() + extra)
