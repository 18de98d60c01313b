"""The README's pictures, made from the real window (so they show what the app shows today).

    QT_QPA_PLATFORM=offscreen python tools/screenshots.py [--out docs/images] [--font FILE.ttc]

For each language (English, Simplified Chinese) and each size (1024x700, 1920x1080): a new
window on the example model, offscreen, with settings of its own (yours are neither read nor
changed); it waits until the model is loaded, the devices are listed and the window is idle,
runs a short benchmark through the Benchmark button, waits for it to end, and saves the window
as ``window-<size>-<language>.png``, in 256 colours to keep the files small.

Chinese needs a font that draws it: an installed one (``fonts-noto-cjk``), or ``--font FILE``,
loaded for this run only. Without either the Chinese pictures are not made, and it says so.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SIZES = ((1024, 700), (1920, 1080))
RUNS = 300  # a benchmark of well under a second on the example model, enough samples to plot
TIMEOUT_S = 120.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "images", help="folder for the PNG files")
    parser.add_argument("--font", type=Path, help="a font file that draws Chinese, loaded for this run only")
    parser.add_argument("--languages", default="en,zh_CN", help="comma-separated: en, zh_CN (default both)")
    args = parser.parse_args(argv)
    if not args.out.is_dir():
        print(f"error: {args.out} is not a folder", file=sys.stderr)
        return 2
    _isolate()
    sys.path.insert(0, str(REPO))  # this checkout's app, also when run as a plain script
    from inspector.gui.common import i18n
    from inspector.gui.shell.app import ensure_application

    app = ensure_application()
    if args.font is not None:
        from PySide6.QtGui import QFontDatabase

        if QFontDatabase.addApplicationFont(str(args.font)) < 0:
            print(f"error: {args.font} is not a font Qt can read", file=sys.stderr)
            return 2
    for language in args.languages.split(","):
        if language not in i18n.LANGUAGES:
            print(f"error: no language {language!r} (there are: {', '.join(i18n.LANGUAGES)})", file=sys.stderr)
            return 2
        if language != i18n.ENGLISH and not i18n.has_cjk_font():
            print(f"error: no font here draws {i18n.LANGUAGES[language]}: install fonts-noto-cjk, or pass --font FILE",
                  file=sys.stderr)  # fmt: skip
            return 2
        i18n.apply_language(language)
        for width, height in SIZES:
            path = args.out / f"window-{width}x{height}-{language}.png"
            _save(_picture(width, height), path)
            print(f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}: {path.stat().st_size // 1024} KiB")
    app.processEvents()
    return 0


def _isolate() -> None:
    """Settings and caches in a folder of this run; an offscreen screen as large as a desk's."""
    home = tempfile.mkdtemp(prefix="inspector-screenshots-")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
    os.environ["XDG_CACHE_HOME"] = os.path.join(home, "cache")
    os.environ["INSPECTOR_RUN_NOISE_FILE"] = os.path.join(home, "run_noise.json")
    if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
        screen = os.path.join(home, "screen.json")
        with open(screen, "w") as fh:
            json.dump({"screens": [{"name": "desk", "x": 0, "y": 0, "width": 2560, "height": 1440,
                                    "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}, fh)  # fmt: skip
        os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screen}"


def _picture(width: int, height: int):
    """A new window at ``width`` x ``height`` after a short benchmark, grabbed; then closed."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QAbstractItemView, QPushButton, QSpinBox

    from inspector.gui.shell.app import create_window

    window = create_window(model_spec="example")
    window.resize(width, height)
    window.show()

    def found(kind, name):
        return window.findChild(kind, name)

    def rows(name: str) -> int:
        view = found(QAbstractItemView, name)
        return 0 if view is None or view.model() is None else view.model().rowCount()

    def idle() -> bool:
        button = found(QPushButton, "benchmarkButton")
        return button is not None and button.isEnabled()

    _wait(lambda: rows("parameterView") > 0 and rows("deviceTable") > 0 and idle(), "the example model to load")
    found(QSpinBox, "runsSpin").setValue(RUNS)
    before = rows("historyView")
    found(QPushButton, "benchmarkButton").click()
    _wait(lambda: rows("historyView") > before and idle(), "the benchmark to end")
    _wait(lambda: False, "", seconds=1.0)  # the plots' timers draw what came last
    picture = window.grab()
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return picture


def _wait(done, what: str, seconds: float = TIMEOUT_S) -> None:
    """Runs the event loop until ``done()`` (or for ``seconds``, when ``what`` is empty)."""
    from PySide6.QtTest import QTest

    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            if not what:
                return
            raise SystemExit(f"error: waited {seconds:g} s for {what}")
        QTest.qWait(20)


def _save(picture, path: Path) -> None:
    """As a PNG of 256 colours: a window's flat colours lose nothing that shows, and the file
    is a third of a true-colour one."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    image = picture.toImage().convertToFormat(QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.ThresholdDither)
    if not image.save(str(path), "PNG", 9):
        raise SystemExit(f"error: cannot write {path}")


if __name__ == "__main__":
    raise SystemExit(main())
