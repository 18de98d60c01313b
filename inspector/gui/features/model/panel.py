"""The model panel: every parameter, buffer, gradient and optimizer-state tensor, by module.

The widget around the parameter tree: totals per device in its header, the placement findings
(split model, optimizer state left behind) as closable warnings floating over its bottom
rows, a filter field (with a note when it hides every row; cleared when another model is loaded, ``model_loaded``), the
``QTreeView`` (object name ``parameterView``) with uniform row heights and columns sized to
what they show, and its context menu. The tree's rows are ``parameter_tree``'s, their texts
``parameter_cells``' (both Qt-free), served by ``parameter_model.PlacementModel`` through
``parameter_filter.PlacementFilter``.

Its texts are translated (context "ParametersPanel"; the cells' in ``parameter_model``); a
change of language says the totals and findings again and re-fits the columns to the words.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.core.placement import device_bytes_text, meta_text
from inspector.core.units import format_bytes
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.message_bar import MessageBar, MessageStack, OneLineLabel
from inspector.gui.common.theme import device_colour
from inspector.gui.features.model.cells import widest_texts
from inspector.gui.features.model.filter import PlacementFilter
from inspector.gui.features.model.item_model import PlacementModel, shown
from inspector.gui.features.model.tree import module_path, tree_parent
from inspector.gui.common.plain_text import menu_text

#: Models up to this many tensors open fully expanded; bigger ones show their top level.
EXPAND_ALL_LIMIT = 300
#: The Name column never gets narrower than this (the others scroll sideways instead):
#: "in_p…weight" four modules deep (names elide in the middle; the tooltip has them whole).
NAME_MIN_WIDTH = 150
#: The other columns are sized to what they show (``fit_columns``), each at most this wide:
#: a longer cell (a mixed module's dtypes, a 6-d shape) elides, its tooltip has it whole.
COLUMN_MAX_WIDTH = 150

#: The columns' order on screen (the model's own order stays, for code and tests).
VISUAL_ORDER = (PlacementModel.NAME, PlacementModel.SIZE, PlacementModel.DEVICE, PlacementModel.DTYPE,
                PlacementModel.SHAPE, PlacementModel.KIND, PlacementModel.GRAD)  # fmt: skip


class ParametersPanel(Retranslates, QWidget):
    """Totals per device, the placement findings, a filter field, and the tree of tensors."""

    def _warning_bar(self, name: str, label: QLabel) -> MessageBar:
        """A closable message (its label named ``name``) floating over the tree's bottom."""
        label.setObjectName(name)
        label.setVisible(False)
        return MessageBar(label, f"{name}Bar", self)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._placement: Any = None  # the placement shown, to say it again in another language
        self.totals = QLabel(self)
        self.totals.setObjectName("parameterTotals")
        self.totals.setWordWrap(True)
        self.totals.setTextFormat(Qt.TextFormat.RichText)

        # The placement findings, and why the per-module figures (Time, % of forward) are
        # rough: closable bars over the tree's bottom rows, never above it (issue 45: two of
        # them above the tree left it one row, and moved it as they came and went).
        self.warningsBar = self._warning_bar("placementWarnings", QLabel(self))
        self.warnings = self.warningsBar.label
        self.warnings.setTextFormat(Qt.TextFormat.RichText)
        self.moduleWarningsBar = self._warning_bar("moduleTimeWarnings", OneLineLabel(self))
        self.moduleWarnings = self.moduleWarningsBar.label
        self._module_run_last = True  # the last benchmark timed the modules (its warnings hold)

        self.filterEdit = QLineEdit(self)
        self.filterEdit.setObjectName("parameterFilterEdit")
        self.filterEdit.setClearButtonEnabled(True)
        self.filterEdit.textChanged.connect(self.set_filter)
        #: Under the filter field when the filter hides every row: an empty tree says why.
        self.noMatches = QLabel(self)
        self.noMatches.setObjectName("parameterNoMatches")
        self.noMatches.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what was typed
        self.noMatches.setWordWrap(True)
        self.noMatches.setContentsMargins(6, 2, 6, 2)
        self.noMatches.setVisible(False)
        #: The spec of the model shown: another one clears the filter (``model_loaded``).
        self._spec: str | None = None

        #: The move a "Copy the .to() line" writes: () -> (device, dtype or None). The window
        #: points it at the action bar's target.
        self.move_target: Any = lambda: ("cpu", None)

        self.model = PlacementModel(self)
        self.proxy = PlacementFilter(self.model, self)
        self.view = QTreeView(self)
        self.view.setObjectName("parameterView")
        self.view.setModel(self.proxy)
        for signal in (self.proxy.modelReset, self.proxy.layoutChanged, self.proxy.rowsInserted, self.proxy.rowsRemoved):
            signal.connect(self._show_no_matches)
        self.view.setUniformRowHeights(True)  # lets the view skip measuring 100k rows
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Names elide in the middle ("in_pro…weight": weight and bias stay apart when
        # narrow), the other columns at their end.
        self.view.setItemDelegateForColumn(PlacementModel.NAME, _MiddleElided(self.view))
        self.view.setIndentation(14)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        header = self.view.header()
        header.setStretchLastSection(False)
        # Fixed widths: ResizeToContents would measure every row of a big model. The Name
        # column takes what is left (``_fit_name_column``), never less than NAME_MIN_WIDTH.
        for column, width in enumerate((NAME_MIN_WIDTH, 126, 84, 72, 76, 104, 40, 80, 90, 110, 100)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # Shown in the order a reader scans (where and how big first); on a narrow screen
        # the columns that scroll out of sight are Kind and Grad, which the row's tooltip also says.
        for visual, column in enumerate(VISUAL_ORDER):
            header.moveSection(header.visualIndex(column), visual)
        header.setSortIndicatorClearable(True)  # a third click goes back to the model's order
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)  # the model's own order first: a header click sorts
        for column in PlacementModel.MODULE_COLUMNS:  # until a per-module run fills them
            self.view.setColumnHidden(column, True)
        self.view.viewport().installEventFilter(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.totals)
        layout.addWidget(self.filterEdit)
        layout.addWidget(self.noMatches)
        layout.addWidget(self.view, 1)
        self.messages = MessageStack(self.view, self.warningsBar)
        # (one line, over the totals above the filter: the rows stay in view; the status line
        # and the window's title say the totals too)
        self.moduleMessages = MessageStack(self, self.moduleWarningsBar, top=True)
        self.retranslate()

    def retranslate(self) -> None:
        self.filterEdit.setPlaceholderText(
            translate("ParametersPanel", "Filter: name, device, dtype or kind (e.g. cuda float16 weight)")
        )
        self.filterEdit.setToolTip(
            translate("ParametersPanel", "Rows whose full name, kind, dtype or device contain every word; empty shows all")
        )
        self.model.retranslate()
        self._show_no_matches()
        placement = self._placement
        if placement is None:
            self.totals.setText(html.escape(translate("ParametersPanel", "Loading the model…")))
            return
        self.fit_columns(placement)
        self.totals.setText(totals_html(placement))
        self._show_warnings(placement.warnings)
        self._show_module_warnings()

    def set_placement(self, placement: Any) -> None:
        self._placement = placement
        rebuilt = self.model.set_placement(placement)
        self.fit_columns(placement)
        if rebuilt:
            self._expand()
            self._show_module_columns(False)
            self._show_module_warnings()  # another model: its per-module figures are gone
        self.totals.setText(totals_html(placement))
        self._show_warnings(placement.warnings)

    def set_attribution(self, attribution: Any) -> None:
        """Fill the Time, % of forward, Output shape and FLOPs columns, and let them sort;
        say above the tree why their figures are rough, if they are."""
        self.model.set_attribution(attribution)
        self._expand()
        self._show_module_columns(True)
        self._module_run_last = True
        self._show_module_warnings()

    def _show_module_warnings(self) -> None:
        from inspector.gui.common.module_summary import warning_lines

        attribution = self.model.attribution if self._module_run_last else None
        lines = warning_lines(attribution) if attribution is not None else []
        self.moduleWarningsBar.say("\n".join(lines))
        self.moduleMessages.follow()

    def plain_run_finished(self) -> None:
        """A benchmark without per-module timing ended: the last per-module run's warnings
        were about that run, not about what is on screen now (the Time column keeps its
        figures, their flag stays in its title)."""
        self._module_run_last = False
        self._show_module_warnings()

    def set_filter(self, text: str) -> None:
        self.proxy.set_filter_text(text)
        if not text.split():
            self._expand()
        elif self.model.tensor_count() <= EXPAND_ALL_LIMIT:
            self.view.expandAll()  # the matches, wherever they are
        else:
            self._expand_first_matches()
        self._show_no_matches()

    def model_loaded(self, spec: str) -> None:
        """A model was loaded: another one than shown clears the filter, whose words were about
        the names of the last (a tree left empty by them would look like a model without
        tensors). The same model loaded again keeps it."""
        if self._spec is not None and spec != self._spec and self.filterEdit.text():
            self.filterEdit.clear()  # (textChanged: set_filter)
        self._spec = spec

    def _show_no_matches(self) -> None:
        """The note under the filter field, shown while the filter hides every row."""
        text = self.filterEdit.text().strip()
        hidden = bool(text) and self.proxy.rowCount() == 0
        if hidden:
            self.noMatches.setText(fill(translate("ParametersPanel", "No row matches “%1”: clear the filter to see every "
                                                                     "row."), text))  # fmt: skip
        self.noMatches.setVisible(hidden)

    def _expand_first_matches(self, budget: int = EXPAND_ALL_LIMIT) -> None:
        """Open the modules holding the first ``budget`` matching rows (depth first): expanding
        every module of a 10,000-tensor model takes about a second."""
        proxy, shown = self.proxy, 0
        stack = [QModelIndex()]
        while stack and shown < budget:
            parent = stack.pop()
            rows = proxy.rowCount(parent)
            if parent.isValid():
                self.view.setExpanded(parent, True)
            shown += rows
            stack.extend(proxy.index(r, 0, parent) for r in reversed(range(rows)) if proxy.hasChildren(proxy.index(r, 0, parent)))

    def _expand(self) -> None:
        if self.model.tensor_count() <= EXPAND_ALL_LIMIT:
            self.view.expandAll()
        else:
            self.view.collapseAll()
            self.view.expandToDepth(0)

    def _show_module_columns(self, shown: bool) -> None:
        for column in PlacementModel.MODULE_COLUMNS:
            self.view.setColumnHidden(column, not shown)
        self._fit_name_column()

    def fit_columns(self, placement: Any) -> None:
        """Size Size, Device, Dtype, Shape, Kind and Grad to what they show (never less than
        their title), so Name gets the rest: at 1024 px every column is in view.

        Measured on a few widest candidates, not every row: ResizeToContents would ask the
        model for every cell of a 10,000-tensor model.
        """
        m = PlacementModel
        cell = self.view.fontMetrics()
        title = self.view.header().fontMetrics()
        margin = 2 * (self.view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.view) + 1) + 6
        texts = widest_texts(placement, self.model.largest_module(), self.model.has_grads(), shown)
        header = self.view.header()
        for column, candidates in texts.items():
            icon = 16 if column == m.DEVICE else 0  # the device's colour swatch
            # default: a model with no tensor at all (nn.ReLU, say) has no candidates
            width = max((cell.horizontalAdvance(t) for t in candidates), default=0) + icon + margin
            heading = title.horizontalAdvance(shown(m.HEADERS[column])) + margin + 6  # + most of a sort arrow
            header.resizeSection(column, min(COLUMN_MAX_WIDTH, max(width, heading)))
        self._fit_name_column()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_name_column()
        return False

    def _fit_name_column(self) -> None:
        """The Name column takes the width the other columns leave; below NAME_MIN_WIDTH the
        view scrolls sideways instead."""
        header = self.view.header()
        others = sum(header.sectionSize(c) for c in range(1, header.count()) if not header.isSectionHidden(c))
        header.resizeSection(PlacementModel.NAME, max(NAME_MIN_WIDTH, self.view.viewport().width() - others))

    # ----- context menu

    def _context_menu(self, point: QPoint) -> None:
        menu = self.context_menu(self.view.indexAt(point))
        menu.exec(self.view.viewport().mapToGlobal(point))

    def context_menu(self, index: QModelIndex) -> QMenu:
        """Copy the name / the ``.to()`` line of the row at ``index``; expand or collapse all."""
        menu = QMenu(self.view)
        menu.setObjectName("parameterContextMenu")
        name, module = self.names_at(index)
        if index.isValid():
            shown_name = _short(name) if name else translate("ParametersPanel", "(model)")
            copy_name = menu.addAction(fill(translate("ParametersPanel", "Copy name: %1"), shown_name))
            copy_name.setObjectName("copyNameAction")
            copy_name.triggered.connect(lambda: QGuiApplication.clipboard().setText(name))
            line = self.move_line(module)
            shown_module = _short(module) if module else translate("ParametersPanel", "the model")
            copy_move = menu.addAction(fill(translate("ParametersPanel", "Copy the .to() line for %1"), shown_module))
            copy_move.setObjectName("copyMoveLineAction")
            copy_move.setToolTip(line)
            # The target as it is when chosen (the action bar may change while the menu is open).
            copy_move.triggered.connect(lambda: QGuiApplication.clipboard().setText(self.move_line(module)))
            menu.addSeparator()
        expand = menu.addAction(translate("ParametersPanel", "Expand all"))
        expand.setObjectName("expandAllAction")
        expand.triggered.connect(self.view.expandAll)
        collapse = menu.addAction(translate("ParametersPanel", "Collapse all"))
        collapse.setObjectName("collapseAllAction")
        collapse.triggered.connect(self.view.collapseAll)
        return menu

    def names_at(self, index: QModelIndex) -> tuple[str, str]:
        """(full name of the row, dotted path of its module) at a view index."""
        if not index.isValid():
            return "", ""
        node = self.proxy.mapToSource(index.siblingAtColumn(0)).internalPointer()
        if node.row is None:
            path = module_path(node)
            return path, path
        return node.row.name, tree_parent(node.row)

    def move_line(self, module: str) -> str:
        from inspector.core.report import module_move_line

        device, dtype = self.move_target()
        return module_move_line(module, device, dtype)

    def _show_warnings(self, findings: Any) -> None:
        if not findings:
            self.warningsBar.say("")
            self.messages.follow()
            return
        fix = html.escape(translate("ParametersPanel", "Fix: %1"))
        items = "".join(
            f"<li>{html.escape(core_text(f.message))}"
            + ("<br>" + fill(fix, f"<code>{html.escape(f.fix)}</code>") if getattr(f, "fix", "") else "")
            + "</li>"
            for f in findings
        )
        heading = html.escape(translate("ParametersPanel", "⚠ Placement warnings"))
        self.warningsBar.say(f"<b>{heading}</b><ul style='margin:0'>{items}</ul>")
        self.messages.follow()


class _MiddleElided(QStyledItemDelegate):
    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


def _short(text: str, limit: int = 48) -> str:
    """A name in a menu item: both ends of a long one kept, escaped, ``&`` shown (``menu_text``)."""
    return menu_text(text, limit)


def totals_html(placement: Any) -> str:
    """The line above the tree, in the language now installed (rich text: names escaped)."""
    t = placement.totals
    devices = " &nbsp; ".join(
        f"<span style='color:{device_colour(d).name()}'>■</span> <b>{html.escape(d)}</b> "
        f"{html.escape(core_text(device_bytes_text(t, d)))}"
        for d in t.by_device
    )
    dtypes = ", ".join(f"{html.escape(d)} {format_bytes(b)}" for d, b in t.by_dtype.items())
    counts = html.escape(translate("ParametersPanel", "%1 tensors · %2 elements · %3"))
    no_tensors = html.escape(translate("ParametersPanel", "no tensors"))
    return (
        fill(counts, f"<b>{t.count:,}</b>", f"{t.elements:,}", f"<b>{format_bytes(t.bytes)}</b>")
        + f"{html.escape(core_text(meta_text(t)))}"
        f" &nbsp;|&nbsp; {devices or no_tensors}" + (f" &nbsp;|&nbsp; {dtypes}" if dtypes else "")
    )
