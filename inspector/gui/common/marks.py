"""``QT_TRANSLATE_NOOP`` typed as it works: it hands back the text it marks, a ``str``.

PySide6's stub says ``(object, object) -> object``, so every marked text would type as
``object`` where a ``str`` is asked (an ``ActionSpec``'s label, a tab's title). The same
function, cast: pyside6-lupdate finds the calls by this name, so import it as it is
(``from inspector.gui.common.marks import QT_TRANSLATE_NOOP``). A leaf: it imports nothing
of the window. ``task_words`` keeps PySide's own (its marks are looked up, never passed where a
``str`` is asked): importing this would add a floor under every module that says a task's
name (the window's import chain is at most 8 deep: tests/gui/test_window_shape.py).
"""

from __future__ import annotations

from typing import Callable, cast

from PySide6 import QtCore

QT_TRANSLATE_NOOP = cast("Callable[[str, str], str]", QtCore.QT_TRANSLATE_NOOP)
