"""The window's layout: the boxes, splitters and tabs the panels sit in, and the tab pages
built on first use.

``build_frame`` lays out panels the window made (the object names docs/architecture.md lists
are set by the panels themselves) and returns the containers, with the Memory, Latency and
Compare tabs laid out behind placeholders (``PAGES``): the feature that owns each provides its
page when it is installed (``state.feature``), built when first shown or asked for.
First-start proportions live here; a saved layout replaces them (``window_settings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QMainWindow, QSplitter, QTabWidget, QVBoxLayout, QWidget

from inspector.gui.common.i18n import translate
from inspector.gui.common.lazy_tabs import LazyTabs
from inspector.gui.common.pages import COMPARISON, LATENCY, MEMORY

#: The lazy tab pages after History, in order.
PAGES = (MEMORY, LATENCY, COMPARISON)

if TYPE_CHECKING:
    from inspector.gui.common.error_banner import ErrorBanner


@dataclass(frozen=True)
class Frame:
    """The containers ``build_frame`` made around the panels."""

    tabs: QTabWidget  # "bottomTabs": History, then the ``PAGES``
    pages: LazyTabs
    model_box: QGroupBox
    devices_box: QGroupBox
    top_splitter: QSplitter
    bottom_splitter: QSplitter
    main_splitter: QSplitter
    code_box: QGroupBox
    history: QWidget

    def first_start(self) -> None:
        """At the first show without a saved layout, once the splitter has its real height:
        the devices and the model tree get the room the example's rows need (modules and
        parameters, without scrolling), at least 45 % of the height and at most 60 %, the
        plots and history the rest. At 1024x700 the tree showed 4 of the example's 6 rows
        under proportions made for 1280x800 (issue 35); on a tall screen the 45 % is more
        than the rows need."""
        splitter = self.main_splitter
        height = splitter.height() - splitter.handleWidth()
        if height <= 0:
            return
        row = splitter.fontMetrics().lineSpacing() + 4
        # The box's title, the summary, the filter and the header above the rows, margins below.
        needed = 6 * row + 5 * row + 24
        top = round(max(0.45 * height, min(needed, 0.6 * height)))
        splitter.setSizes([top, height - top])

    def splitters(self) -> tuple[QSplitter, QSplitter, QSplitter]:
        """In the order a saved layout lists them."""
        return (self.main_splitter, self.top_splitter, self.bottom_splitter)

    def retranslate(self) -> None:
        """The boxes' and the tabs' titles, in the language now installed."""
        self.devices_box.setTitle(translate("Layout", "Devices"))
        # Once a model is loaded the box names it (``results``), which says it again itself.
        if self.model_box.title() in ("", self.model_box.property("placeholderTitle")):
            title = translate("Layout", "Model")
            self.model_box.setTitle(title)
            self.model_box.setProperty("placeholderTitle", title)
        self.code_box.setTitle(translate("Layout", "Code"))
        self.tabs.setTabText(self.tabs.indexOf(self.history), translate("Layout", "History"))
        self.pages.retranslate()


def build_frame(
    window: QMainWindow, *, banner: ErrorBanner, action_bar: QWidget, devices: QWidget, parameters: QWidget,
    history: QWidget, code: QWidget,
) -> Frame:  # fmt: skip
    """Lay the panels out as ``window``'s central widget, the banner in a row of its own
    between the action bar and the panels (hidden until a failure)."""
    # (titles: ``Frame.retranslate``)
    devices_box = _boxed(devices)
    model_box = _boxed(parameters)
    tabs = QTabWidget(window)
    tabs.setObjectName("bottomTabs")
    tabs.addTab(history, "")
    # Before anyone else hears the tabs change: their slots see the real page (``lazy_tabs``).
    pages = LazyTabs(tabs)
    for key in PAGES:  # behind pages nobody sees at start (their features provide them)
        pages.add(key)
    code_box = _boxed(code)

    top_splitter = _splitter("topSplitter", Qt.Orientation.Horizontal, devices_box, model_box, (5, 7))
    bottom_splitter = _splitter("bottomSplitter", Qt.Orientation.Horizontal, tabs, code_box, (7, 5))
    # When the window or the room under the banner shrinks, the plots give the height up first:
    # the model tree keeps its rows (issue 35).
    main_splitter = _splitter("mainSplitter", Qt.Orientation.Vertical, top_splitter, bottom_splitter, (0, 1))
    # First-start proportions (a saved layout replaces them): the plots get a bit more
    # than half the height (at 1280x800 the memory plot's markers and the comparison's
    # rows stay legible, and the device table still lists eight GPUs), the code view
    # enough width for a snippet's longest line.
    main_splitter.setSizes([450, 550])
    top_splitter.setSizes([520, 760])
    bottom_splitter.setSizes([800, 480])

    central = QWidget(window)
    layout = QVBoxLayout(central)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(action_bar)
    # The banner takes its own room: floating over the panels, it covered the devices table
    # and the model's header at 1024x700 (issue 35); the panels give it the height it needs
    # while it shows, and take it back when it goes.
    banner.setParent(central)
    banner.setVisible(False)
    layout.addWidget(banner)
    layout.addWidget(main_splitter, 1)
    window.setCentralWidget(central)
    frame = Frame(tabs, pages, model_box, devices_box, top_splitter, bottom_splitter, main_splitter, code_box, history)
    frame.retranslate()
    return frame


def _boxed(widget: QWidget) -> QGroupBox:
    box = QGroupBox()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(6, 6, 6, 6)
    layout.addWidget(widget)
    return box


def _splitter(name: str, orientation: Qt.Orientation, first: QWidget, second: QWidget, stretch: tuple[int, int]) -> QSplitter:
    splitter = QSplitter(orientation)
    splitter.setObjectName(name)
    splitter.addWidget(first)
    splitter.addWidget(second)
    splitter.setStretchFactor(0, stretch[0])
    splitter.setStretchFactor(1, stretch[1])
    splitter.setChildrenCollapsible(False)
    return splitter
