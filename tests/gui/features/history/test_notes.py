"""An outcome that was no worker's task (a remote window's connection: connected, ended, lost)
reaches the History through the session state (``SessionState.noted``), never by another
part writing into the history feature's tab."""

from __future__ import annotations

from pathlib import Path

from inspector.gui.features.history.rows import HistoryRows
from inspector.gui.state.notes import Note
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import TaskController
from tests.gui.features.history.test_history_rows import Rows

ROOT = Path(__file__).resolve().parents[4]


def test_a_note_on_the_state_is_a_row_of_the_history(qapp):
    tasks = TaskController()
    state = SessionState(tasks)
    history = Rows()
    rows = HistoryRows(state=state, tasks=tasks, history=history)  # noqa: F841 (kept: it hears the state)

    state.noted.emit(Note(lambda: "connect gpu-box", lambda: "agent 1.0, torch 2.5, pid 42"))
    state.noted.emit(Note("connection to gpu-box", "lost: the agent ended", ok=False))

    assert history.rows == [("connect gpu-box", "agent 1.0, torch 2.5, pid 42", True),
                            ("connection to gpu-box", "lost: the agent ended", False)]  # fmt: skip


def test_the_remote_window_writes_no_row_itself():
    source = (ROOT / "inspector" / "gui" / "shell" / "remote_window.py").read_text(encoding="utf-8")
    assert "historyView" not in source and "noted.emit(Note(" in source
