"""The outcomes feature alone: a note that is a failure (a remote window's lost connection)
reaches the error banner through the session state, never by its sayer writing the banner,
and is said again in the language of the moment."""

from __future__ import annotations

from PySide6.QtWidgets import QStatusBar, QWidget

from inspector.gui.common.error_banner import ErrorBanner
from inspector.gui.common.status_line import StatusLine
from inspector.gui.features.moves.action_bar import ActionBar
from inspector.gui.features.outcomes.shown import TaskOutcomes
from inspector.gui.state.notes import Note, NoteFailure
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import TaskController


def test_a_noted_failure_is_shown_in_the_banner_and_said_again_on_a_new_language(qtbot):
    parent = QWidget()
    qtbot.addWidget(parent)
    tasks = TaskController()
    state = SessionState(tasks)
    banner = ErrorBanner(parent)
    outcomes = TaskOutcomes(state=state, tasks=tasks, bar=ActionBar(parent), banner=banner,
                            status=StatusLine(QStatusBar(parent)), parent=parent)  # fmt: skip
    words = ["lost (EOF)"]
    state.noted.emit(Note("connect gpu-box", "agent 1", ok=True))  # no failure: no banner
    assert banner.isHidden()

    state.noted.emit(Note(lambda: "connection to gpu-box", "lost", ok=False,
                          failure=NoteFailure("disconnected", lambda: words[0], "EOF")))  # fmt: skip
    assert not banner.isHidden() and banner.message.text() == "lost (EOF)"
    assert "connection to gpu-box" in banner.title.text() and banner.details.toPlainText() == "EOF"
    words[0] = "连接已中断（EOF）"  # the language changed: the note's words say it again
    outcomes.retranslate()
    assert banner.message.text() == "连接已中断（EOF）"
    banner.dismiss()
    words[0] = "gone"
    outcomes.retranslate()  # dismissed: not shown again
    assert banner.isHidden()
