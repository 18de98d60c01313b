"""PNG plots of a timing report, in the report's language: the CLI's HTML report draws them
here with the same widgets and renderer as the window's own export (``export.plot_images``,
which also says the memory plot's event marks in that language: ``export.mark_in``).

Lives on the Qt side because it draws with pyqtgraph; ``inspector.core.report.timing_report`` takes the
bytes it returns. Works in a headless CLI process too: it starts an offscreen QApplication
when none exists. Widgets may only be made on the thread that owns the QApplication, so in
the GUI call it from the GUI thread (rendering takes tens of milliseconds, not seconds).

The images speak the report's language, not the window's by accident: an English report's
are drawn by twins that say each text's English source (``plots.words.ENGLISH``), another
language's through that language's Qt translators (installed for the drawing, in the CLI,
when the process speaks another). A machine with no font for the language (Chinese on a bare
server) draws them in English instead, and says so (``images_language``): boxes in place of
characters would tell a reader nothing.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from inspector.core.messages import ENGLISH

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from inspector.core.report import TimingReport

_app: QApplication | None = None  # keeps an application we created alive for the life of the process


def render_report_images(report: TimingReport, size: tuple[int, int] = (960, 480), *,
                         language: str = ENGLISH) -> dict[str, bytes]:  # fmt: skip
    """The plots the window's own export embeds (``export.plot_images``: latency samples,
    latency summary, memory), drawn from ``report`` by offscreen twins of the window's plots,
    each exactly ``size`` (width, height) pixels, in ``language`` where a font draws it. A
    plot with nothing to show is left out."""
    return report_images(report, size, language=language)[0]


def report_images(report: TimingReport, size: tuple[int, int] = (960, 480), *,
                  language: str = ENGLISH) -> tuple[dict[str, bytes], str]:  # fmt: skip
    """``render_report_images``, and the language the images were drawn in (``language``, or
    English where this machine has no font for it or no catalogue)."""
    width, height = int(size[0]), int(size[1])
    if width <= 0 or height <= 0:
        raise ValueError(f"image size must be positive, not {size!r}")
    _ensure_application()
    from inspector.gui.common import i18n
    from inspector.gui.features.report.export import images_language, plot_images
    from inspector.gui.features.latency.plot import LatencyPlot
    from inspector.gui.features.memory.plot import MemoryPlot

    drawn = images_language(language)
    speaking = i18n.current_language()
    switch = drawn != ENGLISH and drawn != speaking
    latency, memory = LatencyPlot(), MemoryPlot()
    try:
        if switch and not i18n.apply_language(drawn):  # (its catalogue could not be read)
            drawn = ENGLISH
        latency.show_report(report)
        memory.show_report(report)
        return plot_images(memory, latency, (width, height), language=drawn), drawn
    finally:
        if switch:
            i18n.apply_language(speaking)
        latency.deleteLater()
        memory.deleteLater()


def _ensure_application() -> None:
    global _app
    no_display = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if sys.platform.startswith("linux") and no_display:
        # Only Linux needs a display server; Windows and macOS always have a native platform.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    if existing is None:
        _app = QApplication(sys.argv[:1] or ["torch-device-inspector"])
    elif not isinstance(existing, QApplication):
        raise RuntimeError("report plots need a QApplication (widgets), not a bare Qt core/gui application")
