"""The filter field's pattern, built without Qt, is the one Qt's own escaping gave, and Qt's
engine reads it as Python's ``re`` does (the Qt-free tests check matching with ``re``)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRegularExpression  # noqa: E402

from inspector.gui.features.model.cells import filter_pattern  # noqa: E402

HOSTILE = ["layers.4999.", "a+b", "(x)", "[0]", "back\\slash", "$^|?*{2}", "nul\0byte", "über.gewicht", "ß", "🙂.w", "_ok_"]


@pytest.mark.parametrize("word", HOSTILE)
def test_the_pattern_escapes_as_qregularexpression_does(word):
    assert filter_pattern(f"cuda {word}") == f"(?=.*cuda)(?=.*{QRegularExpression.escape(word)}).*"


def test_qt_and_python_match_the_same_names():
    names = ["layers.4999.weight", "layers.49990.weight", "a+b.bias", "aab.bias", "über.gewicht cuda:0", "x(0).w"]
    for text in ("layers.4999.", "A+B", "über", "(0)", "cuda ÜBER", "bias weight"):
        qt = QRegularExpression(filter_pattern(text), QRegularExpression.PatternOption.CaseInsensitiveOption)
        assert qt.isValid(), text
        by_qt = [n for n in names if qt.match(n).hasMatch()]
        by_re = [n for n in names if re.search(filter_pattern(text), n, re.IGNORECASE)]
        assert by_qt == by_re, text
