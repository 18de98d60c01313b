"""The window's layout: the boxes, splitters and tabs the panels sit in, and the tab pages
built on first use.

``build_frame`` lays out panels the window made (the object names docs/architecture.md lists
are set by the panels themselves) and returns the containers: one column of the devices over
the model tree, beside one tab area that holds what a task looks at (History, Memory, Latency,
Compare, Code), with the Memory, Latency and Compare tabs laid out behind placeholders (``PAGES``): the feature that owns each provides its
page when it is installed (``state.feature``), built when first shown or asked for.
First-start proportions live here; a saved layout replaces them (``window_settings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QMainWindow, QSplitter, QTabWidget, QVBoxLayout, QWidget

from inspector.gui.common.i18n import translate
from inspector.gui.common.message_bar import FloatOver
from inspector.gui.common.lazy_tabs import LazyTabs
from inspector.gui.common.pages import COMPARISON, LATENCY, MEMORY

#: The lazy tab pages after History, in order.
PAGES = (MEMORY, LATENCY, COMPARISON)

if TYPE_CHECKING:
    from inspector.gui.common.error_banner import ErrorBanner


@dataclass(frozen=True)
class Frame:
    """The containers ``build_frame`` made around the panels."""

    tabs: QTabWidget  # "bottomTabs": History, then the ``PAGES``, then Code
    pages: LazyTabs
    model_box: QGroupBox
    devices_box: QGroupBox
    left_splitter: QSplitter  # "topSplitter": the devices over the model tree
    main_splitter: QSplitter  # the left column beside the tabs
    code: QWidget
    history: QWidget

    def first_start(self) -> None:
        """At the first show without a saved layout, once the splitter has its real width: the
        left column half of it, at most ``LEFT_MAX_WIDTH`` (at 1024 px the tree's Shape column
        in view, and its totals on one line in Chinese), the tabs the rest.
        (The devices take the height their rows need, ``build_frame``; the tree the rest.)"""
        splitter = self.main_splitter
        width = splitter.width() - splitter.handleWidth()
        if width > 0:
            left = min(LEFT_MAX_WIDTH, round(0.5 * width))
            splitter.setSizes([left, width - left])

    def splitters(self) -> tuple[QSplitter, QSplitter]:
        """In the order a saved layout lists them."""
        return (self.main_splitter, self.left_splitter)

    def retranslate(self) -> None:
        """The boxes' and the tabs' titles, in the language now installed."""
        self.devices_box.setTitle(translate("Layout", "Devices"))
        # Once a model is loaded the box names it (``results``), which says it again itself.
        if self.model_box.title() in ("", self.model_box.property("placeholderTitle")):
            title = translate("Layout", "Model")
            self.model_box.setTitle(title)
            self.model_box.setProperty("placeholderTitle", title)
        self.tabs.setTabText(self.tabs.indexOf(self.code), translate("Layout", "Code"))
        self.tabs.setTabText(self.tabs.indexOf(self.history), translate("Layout", "History"))
        self.pages.retranslate()


#: The left column (devices over the model tree) is no wider than this on first start (a wide
#: screen's room goes to the plots).
LEFT_MAX_WIDTH = 600


def build_frame(
    window: QMainWindow, *, banner: ErrorBanner, action_bar: QWidget, devices: QWidget, parameters: QWidget,
    history: QWidget, code: QWidget,
) -> Frame:  # fmt: skip
    """Lay the panels out as ``window``'s central widget (issue 45): the action bar on top;
    under it the devices and the model tree in one column, the tree taking its height, beside
    the tabs (History, Memory, Latency, Compare, Code), which take the rest. The banner floats
    over the bottom of the tabs (hidden until a failure): its coming and going moves nothing."""
    devices_box = _boxed(devices)
    model_box = _boxed(parameters)
    tabs = QTabWidget(window)
    tabs.setObjectName("bottomTabs")
    tabs.addTab(history, "")
    # Before anyone else hears the tabs change: their slots see the real page (``lazy_tabs``).
    pages = LazyTabs(tabs)
    for key in PAGES:  # behind pages nobody sees at start (their features provide them)
        pages.add(key)
    tabs.addTab(code, "")
    # (titles: ``Frame.retranslate``)

    # The devices get the height their rows and notes need, no more: the tree takes the rest.
    needed = getattr(devices, "neededHeightChanged", None)
    if needed is not None:
        margins = devices_box.contentsMargins().top() + devices_box.contentsMargins().bottom() + 8
        needed.connect(lambda height: devices_box.setMaximumHeight(height + margins + devices_box.fontMetrics().height()))
    left_splitter = _splitter("topSplitter", Qt.Orientation.Vertical, devices_box, model_box, (0, 1))
    main_splitter = _splitter("mainSplitter", Qt.Orientation.Horizontal, left_splitter, tabs, (0, 1))
    # First-start proportions (a saved layout replaces them; ``Frame.first_start`` fits them to
    # the screen once shown).
    left_splitter.setSizes([100, 10_000])  # the tree all the devices leave
    main_splitter.setSizes([420, 600])

    central = QWidget(window)
    layout = QVBoxLayout(central)
    layout.setContentsMargins(4, 4, 4, 0)
    layout.setSpacing(4)
    layout.addWidget(action_bar)
    layout.addWidget(main_splitter, 1)
    # The banner is about what the tabs show (a move's or a benchmark's failure, its code):
    # it floats over their bottom. In a row of its own above the panels it pushed Devices and
    # Model down 84 px and took a tree row, and they jumped back when it went (issue 45).
    FloatOver(banner, tabs)
    banner.setVisible(False)
    window.setCentralWidget(central)
    frame = Frame(tabs, pages, model_box, devices_box, left_splitter, main_splitter, code, history)
    frame.retranslate()
    return frame


def _boxed(widget: QWidget) -> QGroupBox:
    box = QGroupBox()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 2, 4, 4)  # (the title above is margin enough)
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
