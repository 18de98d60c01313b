"""The action bar's progress text as a part said it, said again when the language changes.

The bar (``panels.actions.ActionBar``) shows a string. A part that writes one there ("moved in
0.2 s", "writing report.html…") gives ``BarWords`` the function that says it; on a change of
language (the part's ``retranslate``) the text is said again in the new language, if the bar
still shows it (a later task's text is not overwritten).
"""

from __future__ import annotations

from typing import Callable

# (the bar's face lives with the other faces features share, so the faces import no word list)
from inspector.gui.common.faces import ProgressShown


class BarWords:
    """What one part last said in the progress bar (see the module docstring)."""

    def __init__(self, bar: ProgressShown) -> None:
        self.bar = bar
        #: (the function that says it, the fraction or None, idle?, the text shown)
        self._said: tuple[Callable[[], str], float | None, bool, str] | None = None

    def idle(self, words: Callable[[], str]) -> None:
        """The bar at rest, saying ``words()``."""
        shown = words()
        self.bar.show_idle(shown)
        self._said = (words, None, True, shown)

    def progress(self, fraction: float | None, words: Callable[[], str]) -> None:
        """The bar at ``fraction`` (None: busy), saying ``words()``."""
        shown = words()
        self.bar.show_progress(fraction, shown)
        self._said = (words, fraction, False, shown)

    def retranslate(self) -> None:
        if self._said is None:
            return
        words, fraction, idle, shown = self._said
        if self.bar.progressBar.format() != shown:
            self._said = None  # someone else has spoken since
        elif idle:
            self.idle(words)
        else:
            self.progress(fraction, words)
