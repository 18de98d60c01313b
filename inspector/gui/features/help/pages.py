"""The Help menu's pages (Getting started, Keyboard shortcuts, The report format), its About
box, the one-line note a CPU-only machine gets on its first launch, and the notice a
system without a Chinese font gets when the window speaks Chinese.

The pages are our own text (no file-supplied content), shown as rich text in a non-modal
dialog; the shortcuts page is built from the menus' own table, so it cannot drift from them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QStatusBar,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from inspector.gui.common import i18n, settings_values
from inspector.gui.common.i18n import Retranslates, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.screen_fit import fit_dialog

if TYPE_CHECKING:
    from inspector.gui.state.session_state import SessionState

#: Remembers that the CPU-only note was shown (once per user, not per launch).
CPU_ONLY_NOTE_KEY = "hints/cpuOnlyNoteShown"

#: Short enough for the status bar of a 1024-pixel-wide window (translated where shown).
CPU_ONLY_NOTE = QT_TRANSLATE_NOOP(
    "HelpPages", "No GPU here: see placement, cast dtypes, time on CPU, plan a GPU's memory (Help › Getting started)"
)

#: A page is its blocks: a heading (``"h3"``, ``"h4"``) or paragraph (``"p"``) holding one text,
#: or a list (``"ol"``, ``"ul"``) holding one text per item. Each text is marked for translation
#: (context "HelpPages", inline markup included) and translated when the page is shown, so the
#: HTML around the texts is the same in every language.
Page = tuple[tuple[str, "str | tuple[str, ...]"], ...]

GETTING_STARTED: Page = (
    ("h3", QT_TRANSLATE_NOOP("HelpPages", "Getting started")),
    ("p", QT_TRANSLATE_NOOP(
        "HelpPages",
        "The window opens with the tutorial's example model (<code>Linear(3,2) → Linear(2,1)</code>, with an SGD "
        "optimizer). Open your own with <b>File › Open model…</b>: a factory "
        "(<code>path/to/file.py:make_model</code>, <code>torch.nn:Transformer</code>) or a saved file.",
    )),
    ("h4", QT_TRANSLATE_NOOP("HelpPages", "On a machine with a GPU")),
    ("ol", (
        QT_TRANSLATE_NOOP("HelpPages", "Look at <b>Devices</b>: each GPU and how full its memory is."),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "Pick the GPU as the target and press <b>.to(device)</b>: every parameter moves, the memory plot shows "
            "the bytes arrive, and the Code panel shows the line that does it.",
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "Press <b>Benchmark</b> on the GPU, then <b>.cpu()</b> and benchmark again: the Latency tab compares "
            "the two runs.",
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "<b>Tools › Run one training step</b>, then move the model: the tree shows the optimizer's state left "
            "behind on the CPU, and the fix.",
        ),
    )),
    ("h4", QT_TRANSLATE_NOOP("HelpPages", "On a machine without a GPU")),
    ("ol", (
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "The tree lists every parameter and buffer on <code>cpu</code>; pick <b>float64</b> or "
            "<b>bfloat16</b> and press <b>.to(device)</b> to see sizes change.",
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "Press <b>.cuda()</b>: it fails, as it would in your script; <code>.to(device)</code> with a fallback "
            "works everywhere. The error banner says why.",
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "<b>Benchmark</b> times the model on the CPU; <b>Tools › Will it fit?</b> estimates the memory one "
            "training step needs on this machine's devices (here, the CPU, where one real step can prove it) or on "
            "<b>a GPU you name</b> (a card from its list, or a capacity), with the CUDA allocator's rules and the "
            "largest batch that fits; nothing is allocated for a GPU you do not have, so that answer is an estimate.",
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages", "<b>Tools › Run one training step</b> adds gradients and optimizer state to the tree."
        ),
    )),
    ("p", QT_TRANSLATE_NOOP(
        "HelpPages", "<b>File › Export report…</b> saves what you measured (see Help › The report format)."
    )),
)  # fmt: skip

REPORT_FORMAT: Page = (
    ("h3", QT_TRANSLATE_NOOP("HelpPages", "The report format")),
    ("p", QT_TRANSLATE_NOOP(
        "HelpPages",
        "<b>File › Export report…</b> writes the session's timing report; the file's suffix picks the format: "
        "<code>.json</code> (complete, versioned, opened again by <b>File › Open report…</b>), <code>.html</code> "
        "(with the plots), <code>.csv</code> (one row per latency sample) or <code>.md</code> (also <b>Edit › Copy "
        "report as Markdown</b>).",
    )),
    ("p", QT_TRANSLATE_NOOP("HelpPages", "The JSON holds:")),
    ("ul", (
        QT_TRANSLATE_NOOP("HelpPages", "<code>schema_version</code>, <code>created</code>;"),
        QT_TRANSLATE_NOOP(
            "HelpPages", "<code>environment</code>: Python, torch, CUDA and driver where present, OS, devices;"
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages", "<code>model</code>: spec, class, optimizer, tensor counts and bytes by device and dtype;"
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages", "<code>moves</code>: each call, method, source, target, seconds, bytes, GB/s, ok, error;"
        ),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "<code>latency</code>: each run's device, dtype, input shape, warm-up and every sample (ms), median, "
            "mean, p5, p95, min, max, and its spread;",
        ),
        QT_TRANSLATE_NOOP("HelpPages", "<code>memory</code>: the memory readings over time, per device;"),
        QT_TRANSLATE_NOOP(
            "HelpPages",
            "where measured: <code>modules</code> (per-module time, FLOPs, shapes), <code>fit</code> (will it "
            "fit?), <code>ranks</code> (one entry per torchrun rank).",
        ),
    )),
    ("p", QT_TRANSLATE_NOOP(
        "HelpPages",
        "<b>File › Compare with…</b> sets two reports side by side: latency ratios with confidence intervals, and "
        "\"no clear difference\" where the interval includes 1.",
    )),
)  # fmt: skip


def page_html(page: Page) -> str:
    """``page`` as rich text, each text in the language now installed."""
    parts = []
    for tag, content in page:
        if isinstance(content, tuple):
            items = "".join(f"<li>{translate('HelpPages', item)}</li>" for item in content)
            parts.append(f"<{tag}>{items}</{tag}>")
        else:
            parts.append(f"<{tag}>{translate('HelpPages', content)}</{tag}>")
    return "\n".join(parts)


def shortcuts_html(menus: Any) -> str:
    """The keyboard shortcuts, from the menus' table (the shell's ``menus.MENUS``), plus Esc."""
    rows = []
    for title, entries in menus:
        for entry in entries:
            shortcut = getattr(entry, "shortcut", None)
            if shortcut is None:
                continue
            keys = QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                where = _without_accelerator(translate("Menus", title))
                text = _without_accelerator(translate("Menus", entry.text)).rstrip("…")
                rows.append(f"<tr><td><b>{html.escape(keys)}</b></td><td>{html.escape(where)} › {html.escape(text)}</td></tr>")
    esc = translate("HelpPages", "Cancel the running move (it rolls back) or benchmark")
    rows.append(f"<tr><td><b>Esc</b></td><td>{html.escape(esc)}</td></tr>")
    heading = translate("HelpPages", "Keyboard shortcuts")
    return f"<h3>{html.escape(heading)}</h3><table cellpadding='4'>" + "".join(rows) + "</table>"


def _without_accelerator(text: str) -> str:
    """A menu text as a sentence names it: "&File" -> "File", "文件(&F)" -> "文件"."""
    return re.sub(r"\(&\w\)", "", text).replace("&", "")


class HelpDialog(Retranslates, QDialog):
    """A non-modal page of help; one per topic, kept by the window and raised again. ``title``
    and ``body`` make its texts, again on a change of language."""

    def __init__(self, title: Callable[[], str], body: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._title, self._body = title, body
        self.setObjectName("helpDialog")
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("helpText")
        self.browser.setOpenExternalLinks(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(560, 520)
        self.retranslate()
        fit_dialog(self, parent)

    def retranslate(self) -> None:
        self.setWindowTitle(self._title())
        self.browser.setHtml(self._body())


class HelpPages:
    """The Help menu: one non-modal page per topic, kept and raised again; the About box."""

    def __init__(self, parent: QWidget, state: SessionState, menus: Callable[[], Any]) -> None:
        self.parent_widget = parent
        self.state = state  # the About box names the devices' drivers
        self.menus = menus  # the menus' table, for the shortcuts page (the shell owns it)
        self.dialogs: dict[str, HelpDialog] = {}

    def show(self, topic: str) -> HelpDialog:
        """Show the page ``topic`` ("start", "shortcuts" or "report") without blocking the window."""
        pages: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
            "start": (lambda: translate("HelpPages", "Getting started"), lambda: page_html(GETTING_STARTED)),
            "shortcuts": (lambda: translate("HelpPages", "Keyboard shortcuts"), lambda: shortcuts_html(self.menus())),
            "report": (lambda: translate("HelpPages", "The report format"), lambda: page_html(REPORT_FORMAT)),
        }
        title, body = pages[topic]
        dialog = self.dialogs.get(topic)
        if dialog is None:
            dialog = self.dialogs[topic] = HelpDialog(title, body, self.parent_widget)
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        dialog.show()
        dialog.raise_()
        return dialog

    def about(self) -> None:
        from inspector.gui.common import dialogs

        dialogs.show_about(self.parent_widget, self.about_text())

    def about_text(self) -> str:
        from inspector.core.devices import driver_lines, version_lines
        from inspector.gui.common import dialogs
        from inspector.gui.common.branding import toolkit_line

        return dialogs.about_html(version_lines(toolkit_line()) + driver_lines(self.state.inventory))


#: Remembers that the missing-Chinese-font notice was shown (once per user).
CJK_FONT_NOTE_KEY = "hints/cjkFontNoteShown"

#: Said in both languages on purpose: it is shown when Chinese cannot be drawn.
CJK_FONT_NOTE_TITLE = "No Chinese font · 缺少中文字体"
CJK_FONT_NOTE = (
    "No font on this system can draw Chinese, so the window's Chinese text shows as empty boxes. "
    "Install one and start the app again; on Debian/Ubuntu:\n"
    "    sudo apt install fonts-noto-cjk\n\n"
    "系统中没有能显示中文的字体，窗口中的中文会显示为空白方框。"
    "请安装中文字体后重新启动本程序；Debian/Ubuntu 上运行：\n"
    "    sudo apt install fonts-noto-cjk"
)


def note_missing_cjk_font_once(parent: QWidget, settings: QSettings) -> QMessageBox | None:
    """When the window speaks Chinese and no installed font draws it, say so once (a
    non-modal message box, in English and Chinese), remembered in ``settings``. Returns the
    box when shown now."""
    if i18n.current_language() != i18n.CHINESE or i18n.has_cjk_font():
        return None
    if settings_values.flag(settings, CJK_FONT_NOTE_KEY):
        return None
    settings.setValue(CJK_FONT_NOTE_KEY, True)
    settings.sync()
    box = QMessageBox(
        QMessageBox.Icon.Warning, CJK_FONT_NOTE_TITLE, CJK_FONT_NOTE, QMessageBox.StandardButton.NoButton, parent
    )
    box.setObjectName("cjkFontNotice")
    # A button of our own: Qt's standard one says "确定" in Chinese, which would be a box too.
    box.addButton("OK", QMessageBox.ButtonRole.AcceptRole)
    box.setWindowModality(Qt.WindowModality.NonModal)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.show()
    return box


def note_cpu_only_once(status_bar: QStatusBar, settings: QSettings, accelerators: list[str]) -> bool:
    """On the first launch on a machine without an accelerator, say in one line what it can
    show (``status_bar``, for a while); remembered in ``settings``. True when shown now."""
    if accelerators or settings_values.flag(settings, CPU_ONLY_NOTE_KEY):
        return False
    settings.setValue(CPU_ONLY_NOTE_KEY, True)
    settings.sync()
    note = CpuOnlyNote(status_bar)
    # A widget of the bar, not a message: a menu's or a combo's status tip replaced a message
    # for good, and hides a widget only while it shows (issue 35).
    status_bar.addWidget(note, 1)
    QTimer.singleShot(CPU_ONLY_NOTE_MS, note, note.deleteLater)
    return True


#: How long the first launch's note stays in the status bar.
CPU_ONLY_NOTE_MS = 30_000


class CpuOnlyNote(Retranslates, QLabel):
    """The first launch's "no GPU here" line, in the language shown."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("cpuOnlyNote")
        self.retranslate()

    def retranslate(self) -> None:
        text = translate("HelpPages", CPU_ONLY_NOTE)
        self.setText(text)
        self.setToolTip(text)  # (the status bar cuts it at 1024 px: whole on hover)
