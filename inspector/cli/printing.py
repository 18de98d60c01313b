"""What every sub-command prints with: tables, escaped text on stdout and stderr, the
version text, the progress bar and the one-line account of a move.

Text from a file or a model (tensor and module names, paths, messages) is escaped here, so
none of it can start a line of its own or drive the terminal. Imports only the core's light
modules at load; anything torch-heavy is imported inside the function that needs it.
"""

from __future__ import annotations

import sys
from typing import Sequence

from inspector.core.files import LINE_LIMIT, NAME_LIMIT, escape_control, one_line
from inspector.core.units import format_bytes


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int] = frozenset()) -> str:
    # Padded by display width (wcwidth, as terminals count columns): a CJK character takes two
    # columns, so padding by len() pushed a row with a name like "编码器.层1" right by one
    # column per character. Our own layout rather than rich's Table: rich reads "[...]" in a
    # cell as markup and wraps to the terminal's width, and a piped table must stay one line a row.
    # Cells may hold names from a file: escaped, so none can start a line of its own, and
    # capped, so a 100,000-character name does not pad every row to its width.
    rows = [[_plain(cell, NAME_LIMIT) for cell in row] for row in rows]
    widths = [max(_width(str(x)) for x in col) for col in zip(headers, *rows)] if rows else [_width(h) for h in headers]

    def line(cells: Sequence[object]) -> str:
        return "  ".join(_pad(str(c), w, i in right) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal (wide East Asian characters two, combining marks none)."""
    from wcwidth import wcswidth  # 40 ms of tables: loaded when a table is printed, not at start

    width = wcswidth(text)
    return width if width >= 0 else len(text)  # -1: a character with no width defined (escaped before here)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns, on the left when ``right``."""
    fill = " " * max(0, width - _width(text))
    return fill + text if right else text + fill


def _plain(value: object, limit: int = LINE_LIMIT) -> str:
    """Text that came from a file or a model, as one line with its control characters
    escaped, at most ``limit`` characters (a longer one says how long it was)."""
    return one_line(value, limit)


def _print(text: str = "") -> None:
    print(escape_control(text, keep_newlines=True), flush=True)


def _say(text: str) -> None:
    """A line for the user on stderr; parts from files are escaped where the text is built,
    and any control character left is escaped here (the program's own newlines stay)."""
    end_progress_line()
    print(escape_control(text, keep_newlines=True), file=sys.stderr, flush=True)


#: A progress bar has drawn on stderr's current line and not ended it.
_bar_line_open = False


def end_progress_line() -> None:
    """End a progress bar's line left open (Ctrl-C or an error mid-bar), so what is said next,
    "error: interrupted" included, starts a line of its own."""
    global _bar_line_open
    if _bar_line_open:
        _bar_line_open = False
        sys.stderr.write("\n")
        sys.stderr.flush()


def version_text() -> str:
    from inspector.core.devices import version_lines

    try:
        # Imports Qt: fails cleanly where PySide6 or pyqtgraph is missing (a GPU server).
        from inspector.gui.common.branding import toolkit_line
    except ImportError:
        toolkit = "Qt not installed (PySide6 missing: only the headless commands work)"
    else:
        toolkit = toolkit_line()
    return "\n".join(version_lines(toolkit))


class _ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal.

    Kept hand-written rather than tqdm or rich.progress (issue 47 item 13), for what they
    would not do: the time left is ``TimeLeft``'s, which knows the measurement stops at its
    cap (a rate-based ETA says "3 h" for a benchmark that ends in 30 s), and the one shared by
    the window's status bar; Ctrl-C is the CLI's (one "error: interrupted" line, exit 130, the
    workers ended), not a library's handler; and the label (a model's name) is escaped and
    padded by display width like the tables. What they would give beyond that (rates, nested
    bars, notebook widgets) no sub-command needs.
    """

    def __init__(self, label: str, cap_s: float | None = None) -> None:
        """``cap_s``: the measurement stops by then (its time left never says more)."""
        from inspector.core.measure import TimeLeft, time_left_text

        self._left_text = time_left_text
        self.label = label
        self.enabled = sys.stderr.isatty()
        self._last = -1
        self._time_left = TimeLeft(cap_s=cap_s)

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        left = self._left_text(self._time_left.update(done, total))
        pct = min(100, int(100 * done / total))
        if pct == self._last:
            return
        self._last = pct
        filled = pct // 4
        end = "\n" if pct >= 100 else ""
        global _bar_line_open
        _bar_line_open = not end
        left = f" {left}" if left and pct < 100 else ""
        sys.stderr.write(f"\r{_pad(self.label, 24)} [{'#' * filled}{' ' * (25 - filled)}] {pct:3d}%{left:<26}{end}")
        sys.stderr.flush()


def _move_text(move) -> str:
    from inspector.core.units import format_seconds

    # Warnings name module classes, which come from the user's file: shown as plain text.
    extra = "".join(f"\n  warning: {_plain(w)}" for w in getattr(move, "warnings", ()))
    if not move.ok:
        return f"move failed: {_plain(move.call)}: {_plain(move.error.message)}{extra}"
    speed = ""
    if move.gbps:
        speed = f" ({move.gbps:.2f} GB/s)" if move.gbps >= 0.01 else " (< 0.01 GB/s)"
    note = f"\n  note: {_plain(move.note)}" if move.note else ""
    peak = getattr(move, "peak_bytes", None) or {}
    if move.bytes and peak:
        # The price of the rollback: every original is kept until the move has succeeded.
        where = ", ".join(f"{d} {format_bytes(b)}" for d, b in sorted(peak.items()))
        extra = f"\n  peak: {where} (model and copies together: originals are kept until success)" + extra
    return (
        f"moved: {_plain(move.call)}: {format_bytes(move.bytes)} in {format_seconds(move.seconds)}{speed}, "
        f"{move.source} -> {move.target}{note}{extra}"
    )
