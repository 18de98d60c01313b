"""One cell of the comparison's tables: its text, what it sorts by, and how it looks. The
value ``rows`` and ``cells`` make and ``table`` shows, on its own so that none of them
imports another for it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtGui import QColor


@dataclass
class Cell:
    """One read-only cell: its text, what it sorts by, and how it looks."""

    text: str
    sort_value: float | str | None = None
    numeric: bool = False
    tooltip: str = ""
    foreground: QColor | None = None
    bold: bool = False

    def __post_init__(self) -> None:
        if self.sort_value is None:
            self.sort_value = math.inf if self.numeric else self.text
