"""The window's features, in the order they are installed (``state.feature``): the order they
hear an event in. Adding a feature is adding its package and its line here (and its menu rows
in ``menus``, if it has actions). Imported with the session (the features' modules import
torch): ``torch_loader`` imports it off the GUI thread; the window installs them (``install``)."""

from __future__ import annotations

from inspector.gui.features.compare import feature as compare
from inspector.gui.features.devices import feature as devices
from inspector.gui.features.devices_csv import feature as devices_csv
from inspector.gui.features.fit import feature as fit
from inspector.gui.features.help import feature as help
from inspector.gui.features.history import feature as history
from inspector.gui.features.latency import feature as latency
from inspector.gui.features.lessons import feature as lessons
from inspector.gui.features.memory import feature as memory
from inspector.gui.features.model import feature as model
from inspector.gui.features.moves import feature as moves
from inspector.gui.features.outcomes import feature as outcomes
from inspector.gui.features.ranks import feature as ranks
from inspector.gui.features.report import feature as report
from inspector.gui.features.tensor_table import feature as tensor_table
from inspector.gui.features.training import feature as training
from inspector.gui.state.feature import Feature, FeatureContext

FEATURES: tuple[Feature, ...] = (
    model,
    outcomes,
    moves,
    training,
    devices,
    history,
    latency,
    memory,
    lessons,
    report,
    compare,
    fit,
    ranks,
    help,
    tensor_table,
    devices_csv,
)


def install(context: FeatureContext) -> FeatureContext:
    """Install every feature in ``context``, in the table's order; returns the context, with
    what the features left in it."""
    for feature in FEATURES:
        feature.install(context)
    return context
