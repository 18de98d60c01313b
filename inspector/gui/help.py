"""The Help menu's pages (Getting started, Keyboard shortcuts, The report format), its About
box, and the one-line note a CPU-only machine gets on its first launch.

The pages are our own text (no file-supplied content), shown as rich text in a non-modal
dialog; the shortcuts page is built from the menus' own table, so it cannot drift from them.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QStatusBar, QTextBrowser, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from inspector.gui.snapshots import Snapshots

#: Remembers that the CPU-only note was shown (once per user, not per launch).
CPU_ONLY_NOTE_KEY = "hints/cpuOnlyNoteShown"

#: Short enough for the status bar of a 1024-pixel-wide window.
CPU_ONLY_NOTE = "No GPU here: see placement, cast dtypes, time on CPU, estimate GPU fit (Help › Getting started)"

GETTING_STARTED = """
<h3>Getting started</h3>
<p>The window opens with the tutorial's example model (<code>Linear(3,2) → Linear(2,1)</code>,
with an SGD optimizer). Open your own with <b>File › Open model…</b>: a factory
(<code>path/to/file.py:make_model</code>, <code>torch.nn:Transformer</code>) or a saved file.</p>
<h4>On a machine with a GPU</h4>
<ol>
<li>Look at <b>Devices</b>: each GPU and how full its memory is.</li>
<li>Pick the GPU as the target and press <b>.to(device)</b>: every parameter moves, the
memory plot shows the bytes arrive, and the Code panel shows the line that does it.</li>
<li>Press <b>Benchmark</b> on the GPU, then <b>.cpu()</b> and benchmark again: the Latency tab
compares the two runs.</li>
<li><b>Tools › Run one training step</b>, then move the model: the tree shows the optimizer's
state left behind on the CPU, and the fix.</li>
</ol>
<h4>On a machine without a GPU</h4>
<ol>
<li>The tree lists every parameter and buffer on <code>cpu</code>; pick <b>float64</b> or
<b>bfloat16</b> and press <b>.to(device)</b> to see sizes change.</li>
<li>Press <b>.cuda()</b>: it fails, as it would in your script; <code>.to(device)</code> with a
fallback works everywhere. The error banner says why.</li>
<li><b>Benchmark</b> times the model on the CPU; <b>Tools › Will it fit?</b> estimates the memory
one step needs on any device, GPU included.</li>
<li><b>Tools › Run one training step</b> adds gradients and optimizer state to the tree.</li>
</ol>
<p><b>File › Export report…</b> saves what you measured (see Help › The report format).</p>
"""

REPORT_FORMAT = """
<h3>The report format</h3>
<p><b>File › Export report…</b> writes the session's timing report; the file's suffix picks the
format: <code>.json</code> (complete, versioned, opened again by <b>File › Open report…</b>),
<code>.html</code> (with the plots), <code>.csv</code> (one row per latency sample) or
<code>.md</code> (also <b>Edit › Copy report as Markdown</b>).</p>
<p>The JSON holds:</p>
<ul>
<li><code>schema_version</code>, <code>created</code>;</li>
<li><code>environment</code>: Python, torch, CUDA and driver where present, OS, devices;</li>
<li><code>model</code>: spec, class, optimizer, tensor counts and bytes by device and dtype;</li>
<li><code>moves</code>: each call, method, source, target, seconds, bytes, GB/s, ok, error;</li>
<li><code>latency</code>: each run's device, dtype, input shape, warm-up and every sample (ms),
median, mean, p5, p95, min, max, and its spread;</li>
<li><code>memory</code>: the memory readings over time, per device;</li>
<li>where measured: <code>modules</code> (per-module time, FLOPs, shapes), <code>fit</code>
(will it fit?), <code>ranks</code> (one entry per torchrun rank).</li>
</ul>
<p><b>File › Compare with…</b> sets two reports side by side: latency ratios with confidence
intervals, and "no clear difference" where the interval includes 1.</p>
"""


def shortcuts_html(menus: Any) -> str:
    """The keyboard shortcuts, from the menus' table (``gui.menus.MENUS``), plus Esc."""
    rows = []
    for title, entries in menus:
        for entry in entries:
            shortcut = getattr(entry, "shortcut", None)
            if shortcut is None:
                continue
            keys = QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                where = title.replace("&", "")
                text = entry.text.replace("&", "").rstrip("…")
                rows.append(f"<tr><td><b>{html.escape(keys)}</b></td><td>{html.escape(where)} › {html.escape(text)}</td></tr>")
    rows.append("<tr><td><b>Esc</b></td><td>Cancel the running move (it rolls back) or benchmark</td></tr>")
    return "<h3>Keyboard shortcuts</h3><table cellpadding='4'>" + "".join(rows) + "</table>"


class HelpDialog(QDialog):
    """A non-modal page of help; one per topic, kept by the window and raised again."""

    def __init__(self, title: str, body: str, parent: Any = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("helpDialog")
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("helpText")
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(body)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(560, 520)


class HelpPages:
    """The Help menu: one non-modal page per topic, kept and raised again; the About box."""

    def __init__(self, parent: QWidget, snapshots: Snapshots) -> None:
        self.parent_widget = parent
        self.snapshots = snapshots  # the About box names the devices' drivers
        self.dialogs: dict[str, HelpDialog] = {}

    def show(self, topic: str) -> HelpDialog:
        """Show the page ``topic`` ("start", "shortcuts" or "report") without blocking the window."""
        from inspector.gui.menus import MENUS

        pages = {
            "start": ("Getting started", GETTING_STARTED),
            "shortcuts": ("Keyboard shortcuts", shortcuts_html(MENUS)),
            "report": ("The report format", REPORT_FORMAT),
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
        from inspector.gui import dialogs

        dialogs.show_about(self.parent_widget, self.about_text())

    def about_text(self) -> str:
        from inspector.core.devices.environment import driver_lines, version_lines
        from inspector.gui import dialogs
        from inspector.gui.branding import toolkit_line

        return dialogs.about_html(version_lines(toolkit_line()) + driver_lines(self.snapshots.inventory))


def note_cpu_only_once(status_bar: QStatusBar, settings: QSettings, accelerators: list[str]) -> bool:
    """On the first launch on a machine without an accelerator, say in one line what it can
    show (``status_bar``, for a while); remembered in ``settings``. True when shown now."""
    if accelerators or settings.value(CPU_ONLY_NOTE_KEY, False, type=bool):
        return False
    settings.setValue(CPU_ONLY_NOTE_KEY, True)
    settings.sync()
    status_bar.showMessage(CPU_ONLY_NOTE, 30_000)
    return True
