"""``QT_TRANSLATE_NOOP`` typed as it works: it hands back the text it marks, a ``str``.

PySide6's stub says ``(object, object) -> object``, so every marked text would type as
``object`` where a ``str`` is asked (an ``ActionSpec``'s label, a tab's title). The same
function, cast: pyside6-lupdate finds the calls by this name, so import it as it is
(``from inspector.gui.common.marks import QT_TRANSLATE_NOOP``). A leaf: it imports nothing
of the window, so the word lists that use it stay on the lowest floor.
"""

from __future__ import annotations

from typing import Callable, cast

from PySide6.QtCore import QT_TRANSLATE_NOOP as _qt_mark

QT_TRANSLATE_NOOP = cast("Callable[[str, str], str]", _qt_mark)
