"""The files ``bench`` writes: the timing report (with its plots in HTML when Qt is
installed, in ``--lang``'s language) and the Chrome trace; and the check, before measuring,
that their paths and the report's language can work."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.cli.printing import _plain, _say

if TYPE_CHECKING:
    from inspector.core.report import TimingReport


def _check_file(flag: str, path: str, suffixes: tuple[str, ...]) -> None:
    """Refuse an output path for ``flag`` that cannot work, before measuring."""
    from inspector.core.files import check_output_path

    check_output_path(path, suffixes, what=flag)


def _write_trace(path: str, ranks) -> None:
    from inspector.core.measure import build_trace, write_trace

    built = build_trace(ranks)
    write_trace(built, path)
    note = built["otherData"].get("note")
    _say(f"trace written: {_plain(path)}" + (f" ({_plain(note)})" if note else ""))


def report_language(asked: str | None) -> str:
    """``--lang``'s language, checked before anything is measured: ``en`` (the default) or a
    language whose catalogue is installed (``zh_CN``; ``zh-CN`` reads the same)."""
    from inspector.core.errors import InputError
    from inspector.core.messages import ENGLISH, available_languages

    if asked is None:
        return ENGLISH
    language = asked.strip().replace("-", "_")
    available = available_languages()
    if language not in available:
        raise InputError(f"--lang {_plain(repr(asked))}: reports are written in {' or '.join(available)}")
    return language


def _write_report(report: "TimingReport", output, *, measured: bool, what: str = "", language: str = "en") -> None:
    """Write the report (a ``TimingReport`` from the moment it was built), unless nothing was
    measured: a run whose every device failed must not replace a good report with an empty one.
    ``language``: what its Markdown or HTML is written in (``--lang``); the JSON and CSV are
    data, the same in every language."""
    from inspector.core.report import save_report

    if not measured:
        kept = " (the file already there is left as it was)" if output.exists() else ""
        _say(f"note: nothing was measured, so no report was written to {_plain(output)}{kept}")
        return
    images, drawn_in = _report_images(report, str(output), language)
    path = save_report(report, output, images=images, language=language, images_language=drawn_in)
    _say(f"report written: {_plain(path)}{what}")


def _report_images(report: "TimingReport", output: str, language: str = "en"):
    """Plots for an HTML report, rendered with Qt when it is installed, and the language they
    are labelled in (``language``, or English where no font draws it); (None, None) otherwise."""
    if not output.lower().endswith(".html"):
        return None, None
    try:
        # The renderer imports Qt lazily, so a server without PySide6 fails at the call.
        import pyqtgraph  # noqa: F401
        from PySide6 import QtWidgets  # noqa: F401

        from inspector.gui.shell.report_images import report_images
    except ImportError:
        return None, None  # the page itself says the plots were left out, and why
    return report_images(report, language=language)
