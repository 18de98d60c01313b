"""Each action says when it is enabled (``ActionSpec.enabled``, ``while_loading``), over the
session's situation, as app-model's ``enablement``: the registry enables them from that alone,
and no module of the window enables an action by its Qt object name."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from inspector.gui.common.actions import ActionRegistry, ActionSpec, Situation, when_idle_with_model

ROOT = Path(__file__).resolve().parents[3]

ALWAYS = ActionSpec("test.always", "alwaysAction", "Always")
LOADING = ActionSpec("test.loading", "loadingAction", "Help", while_loading=True)
MODEL = ActionSpec("test.model", "modelAction", "Export", enabled=when_idle_with_model,
                   tooltip="Write it", disabled_tip="Available once a model is loaded")  # fmt: skip


class _Changes(QObject):
    changed = Signal()


def test_each_action_is_enabled_as_it_declares(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    registry = ActionRegistry(parent)
    actions = {spec.id: registry.add(spec) for spec in (ALWAYS, LOADING, MODEL)}
    now = {"situation": Situation()}
    changes = _Changes()

    registry.refresh()  # no session yet: only what works while torch loads
    assert [id for id, a in actions.items() if a.isEnabled()] == ["test.loading"]
    assert actions["test.model"].toolTip() == "Available once a model is loaded"

    registry.follow(lambda: now["situation"], changes.changed)
    now["situation"] = Situation(started=True, idle=True)
    changes.changed.emit()
    assert [id for id, a in actions.items() if a.isEnabled()] == ["test.always", "test.loading"]

    model = object()  # (a loaded model's state: only whether there is one counts here)
    now["situation"] = Situation(started=True, idle=True, model=model)  # type: ignore[arg-type]
    changes.changed.emit()
    assert all(a.isEnabled() for a in actions.values())
    assert actions["test.model"].toolTip() == "Write it"

    now["situation"] = Situation(started=True, idle=False, model=model)  # type: ignore[arg-type]
    changes.changed.emit()
    assert not actions["test.model"].isEnabled() and actions["test.always"].isEnabled()


def test_a_feature_may_give_the_enablement_of_its_own_state_when_it_binds(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    registry = ActionRegistry(parent)
    action = registry.add(ALWAYS)
    ready = {"yes": False}
    registry.bind(ALWAYS, lambda: None, enabled=lambda _situation: ready["yes"])
    registry.follow(lambda: Situation(started=True, idle=True))
    assert not action.isEnabled()
    ready["yes"] = True
    registry.refresh()
    assert action.isEnabled()


def test_no_module_of_the_window_enables_an_action_by_its_object_name():
    by_name = re.compile(r"""["'][a-z][A-Za-z]*Action["']\s*\]\s*\.setEnabled|USABLE_WHILE_LOADING""")
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "inspector" / "gui").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if by_name.search(line)
    ]
    assert offenders == []
    assert by_name.search('actions["exportReportAction"].setEnabled(True)')  # (the check sees one)
