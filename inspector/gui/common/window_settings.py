"""What the window remembers between runs (QSettings): recent models (and the "Open recent"
menu that lists them), the memory sampling rate, the last folders and inputs, its geometry
and splitter positions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

from PySide6.QtCore import QObject, QSettings, QSize, Signal
from PySide6.QtWidgets import QMenu, QSplitter, QWidget

from inspector.gui.common import screen_fit, settings_values
from inspector.gui.common.i18n import translate
from inspector.gui.common.plain_text import menu_text, shown_tip
from inspector.gui.common.sample_rate import DEFAULT_SAMPLE_HZ, MAX_SAMPLE_HZ, MIN_SAMPLE_HZ, clamp_sample_hz
from inspector.gui.common.vocabulary_words import spec_text

MAX_RECENT = 10
KEYS = {
    "geometry": "window/geometry",
    "state": "window/state",
    # (issue 45's layout: one column beside the tabs; the three splitters of the layout before
    # it, saved under "window/splitters", would set the new ones' sizes from another shape)
    "splitters": "window/columnSplitters",
    "recent": "models/recent",
    "sample_hz": "memory/sampleHz",
    "inputs": "models/inputs",  # {spec: the input field's text the last benchmark used}
    "folders": "folders",  # folders/<kind>: the last folder a file dialog of that kind used
}
#: Input texts remembered per model spec, newest kept.
MAX_REMEMBERED_INPUTS = 50


def recent_models(settings: QSettings) -> list[str]:
    return settings_values.texts(settings, KEYS["recent"], max_items=MAX_RECENT)


def add_recent_model(settings: QSettings, spec: str) -> None:
    recent = [spec] + [s for s in recent_models(settings) if s != spec]
    settings.setValue(KEYS["recent"], recent[:MAX_RECENT])


def fill_recent_menu(menu: QMenu, settings: QSettings, open_model: Callable[[str], object]) -> None:
    """The "Open recent" menu: the recent specs, then "Clear the list" (or a placeholder)."""
    menu.clear()
    menu.setToolTipsVisible(True)  # each spec in full, as far as a tooltip goes
    recent = recent_models(settings)
    for spec in recent:
        # The spec as typed or opened: escaped, elided, its "&" shown (plain_text); in full
        # (up to a limit) in the tooltip. The built-in example in words (示例).
        action = menu.addAction(menu_text(spec_text(spec)))
        action.setToolTip(shown_tip(spec_text(spec)))
        action.triggered.connect(lambda _checked=False, s=spec: open_model(s))
    if recent:
        menu.addSeparator()

        def clear() -> None:
            settings.setValue(KEYS["recent"], [])
            fill_recent_menu(menu, settings, open_model)

        menu.addAction(translate("RecentModels", "Clear the list"), clear)
    else:
        placeholder = menu.addAction(translate("RecentModels", "No recent models"))
        placeholder.setEnabled(False)


def remembered_inputs(settings: QSettings, spec: str) -> str:
    """The input text the last benchmark of ``spec`` used ("" when none)."""
    return settings_values.text_map(settings, KEYS["inputs"], max_items=MAX_REMEMBERED_INPUTS).get(spec, "")


def remember_inputs(settings: QSettings, spec: str, text: str) -> None:
    value = settings_values.text_map(settings, KEYS["inputs"], max_items=MAX_REMEMBERED_INPUTS)
    remembered = {k: v for k, v in value.items() if k != spec}
    if text:
        remembered[spec] = text
    settings.setValue(KEYS["inputs"], dict(list(remembered.items())[-MAX_REMEMBERED_INPUTS:]))


def last_folder(settings: QSettings, kind: str) -> str:
    """The folder the last ``kind`` dialog ("reports", "models") used; the home folder at first."""
    from pathlib import Path

    folder = settings_values.text(settings, f"{KEYS['folders']}/{kind}")
    return folder if folder and Path(folder).is_dir() else str(Path.home())


def set_last_folder(settings: QSettings, kind: str, path: str) -> None:
    """Remember the folder of ``path`` (a file) for the next ``kind`` dialog."""
    from pathlib import Path

    settings.setValue(f"{KEYS['folders']}/{kind}", str(Path(path).parent))


def sample_hz(settings: QSettings) -> float:
    return settings_values.number(settings, KEYS["sample_hz"], float(DEFAULT_SAMPLE_HZ), MIN_SAMPLE_HZ, MAX_SAMPLE_HZ)


def set_sample_hz(settings: QSettings, hz: float) -> float:
    hz = clamp_sample_hz(hz)
    settings.setValue(KEYS["sample_hz"], hz)
    return hz


#: The window's size where the screen has room for it (a first launch, no saved settings).
PREFERRED_SIZE = QSize(1240, 760)


def restore_layout(settings: QSettings, window: QWidget, splitters: Sequence[QSplitter]) -> bool:
    """``window``'s geometry and its ``splitters``' positions, as last saved; a first
    launch fits the screen it opens on, and a saved geometry that no longer fits (a smaller
    screen, one unplugged since) is brought onto a screen that exists (``screen_fit``).
    Returns whether the splitters' positions were restored (False: first-start proportions)."""
    geometry = settings_values.blob(settings, KEYS["geometry"])
    restored = geometry is not None and window.restoreGeometry(geometry)
    if geometry is not None and not restored:
        settings_values.drop(settings, KEYS["geometry"], "not a window geometry Qt saved")
    if not restored:
        screen_fit.place_first(window, PREFERRED_SIZE)
    screen_fit.keep_on_screen(window)
    states = settings_values.blobs(settings, KEYS["splitters"], len(splitters))
    # restoreState checks each state before applying it: a bad one leaves its splitter as it is.
    if states is not None and not all([s.restoreState(state) for s, state in zip(splitters, states)]):
        settings_values.drop(settings, KEYS["splitters"], "not splitter positions Qt saved")
        return False
    return states is not None


def save_layout(settings: QSettings, window: QWidget, splitters: Sequence[QSplitter]) -> None:
    settings.setValue(KEYS["geometry"], window.saveGeometry())
    settings.setValue(KEYS["splitters"], [s.saveState() for s in splitters])
    settings.sync()


class RecentModels(QObject):
    """The recent model specs, newest first, and the "Open recent" ``menu`` that lists them."""

    chosen = Signal(str)  # a spec picked in the menu: open it

    def __init__(self, menu: QMenu, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.menu = menu
        self.settings = settings
        fill_recent_menu(menu, settings, self.chosen.emit)

    def retranslate(self) -> None:
        fill_recent_menu(self.menu, self.settings, self.chosen.emit)

    def specs(self) -> list[str]:
        return recent_models(self.settings)

    def add(self, spec: str) -> None:
        add_recent_model(self.settings, spec)
        fill_recent_menu(self.menu, self.settings, self.chosen.emit)
