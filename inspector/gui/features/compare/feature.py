"""The compare feature, installed (``state.feature``): the Compare tab (``view.ComparisonView``),
built when first shown or asked for; a close waits for a report it is reading."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from inspector.gui.common.pages import COMPARISON

if TYPE_CHECKING:
    from inspector.gui.state.feature import FeatureContext


def install(context: FeatureContext) -> None:
    pages = context.pages

    def view() -> QWidget:
        from inspector.gui.features.compare.view import ComparisonView

        made = ComparisonView(context.parent)
        # Its "Open report…" puts a report next to this session even before side A is built.
        made.follows_session = True
        return made

    pages.provide(COMPARISON, view)
    context.waits.append(lambda msecs: not pages.is_built(COMPARISON) or pages.page(COMPARISON).wait(msecs))
