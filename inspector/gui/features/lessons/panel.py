"""Help › Lessons: the tutorial's five lessons, each a short text, its code and a Run button
that performs it on the live session (``core.lessons``) and points at the answer on screen.

The lessons use the example ``Net``: another model loaded is replaced by it, after asking.
A lesson runs in the ModelWorker like any other task (one task at a time, its moves in the
history, the tree updated); what it saw comes back as plain facts, worded here in the
window's language. PyTorch's own messages are quoted as PyTorch wrote them.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QSize, Qt, SignalInstance, Slot
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core import lessons as core
from inspector.gui.common.i18n import Retranslates, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.plain_text import plain_label
from inspector.gui.common.screen_fit import fit_dialog
from inspector.gui.features.lessons.answers import answer_lines
from inspector.gui.state.outcomes import LessonOutcome, TaskEnded
from inspector.gui.state.session_state import SessionState
from inspector.gui.state.tasks import Task

#: (title, what it teaches, where the answer shows) per lesson, marked for translation. The
#: last is the line under the answer box: it points up at the answer, and names the main
#: window for its panels (the lessons dialog may cover it, as it does on a 1024x700 screen).
LESSON_TEXTS: dict[int, tuple[str, str, str]] = {
    1: (QT_TRANSLATE_NOOP("Lessons", "1. Pick the device: cuda:0 or cpu"),
        QT_TRANSLATE_NOOP("Lessons", "The tutorial picks the device once and uses it everywhere: the first GPU "
                                     "when PyTorch can use CUDA, else the CPU. Run it to see what this machine "
                                     "answers, and why."),
        QT_TRANSLATE_NOOP("Lessons", "The answer is above; in the main window, the Devices panel lists what "
                                     "PyTorch found.")),
    2: (QT_TRANSLATE_NOOP("Lessons", "2. x.to(device) versus net.to(device)"),
        QT_TRANSLATE_NOOP("Lessons", "A tensor's .to(device) returns a new tensor and leaves x where it was, so "
                                     "you write x = x.to(device). A module's .to(device) moves the module "
                                     "itself: the same parameter objects, holding new data."),
        QT_TRANSLATE_NOOP("Lessons", "The answer is above; in the main window, the History tab shows the move the "
                                     "lesson made, and the tree where each parameter is now.")),
    3: (QT_TRANSLATE_NOOP("Lessons", "3. .cuda() versus .to(device)"),
        QT_TRANSLATE_NOOP("Lessons", ".cuda() moves to a GPU and fails where there is none; .to(device) goes "
                                     "wherever device points, so the same code runs on every machine."),
        QT_TRANSLATE_NOOP("Lessons", "The answer is above; in the main window, the History tab shows each call "
                                     "the lesson made, and how it ended.")),
    4: (QT_TRANSLATE_NOOP("Lessons", "4. Make the optimizer after the move"),
        QT_TRANSLATE_NOOP("Lessons", "Module.to moves the parameters, not the optimizer's state. An optimizer "
                                     "that stepped before the move keeps its state where it was; one made "
                                     "after the move makes its state next to the parameters."),
        QT_TRANSLATE_NOOP("Lessons", "The placement check quoted above is the warning the main window shows "
                                     "above the tree for such a model.")),
    5: (QT_TRANSLATE_NOOP("Lessons", "5. \"Expected all tensors to be on the same device\""),
        QT_TRANSLATE_NOOP("Lessons", "A forward pass needs its input where the model's parameters are. Leave the "
                                     "input on another device and PyTorch stops with an error; move it with "
                                     "x.to(device) and it runs."),
        QT_TRANSLATE_NOOP("Lessons", "PyTorch's message is quoted above, word for word.")),
}  # fmt: skip


#: Room for a lesson's text, its code on one line each and its answer without scrolling.
DEFAULT_SIZE = QSize(900, 560)


class LessonsPanel(Retranslates, QDialog):
    """The lessons dialog (non-modal, object name ``lessonsPanel``)."""

    def __init__(
        self, parent: QWidget, *, send: Callable[[Task, SignalInstance, object], bool], request: SignalInstance,
        open_example: Callable[[], bool], state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName("lessonsPanel")
        self._send, self._request, self._open_example = send, request, open_example
        self.state = state
        state.taskEnded.connect(self.on_task_ended)
        #: A lesson asked for while the example was being loaded for it.
        self.pending: int | None = None
        self.results: dict[int, object] = {}

        self.list = QListWidget(self)
        self.list.setObjectName("lessonList")
        self.list.setWordWrap(True)  # a long title (lesson 5 quotes PyTorch) wraps, never cut
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for _ in core.LESSONS:
            self.list.addItem("")
        self.title = QLabel(self)
        self.title.setObjectName("lessonTitle")
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.code = QPlainTextEdit(self)
        self.code.setObjectName("lessonCode")
        self.code.setReadOnly(True)
        self.code.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # code keeps its lines
        self.code.setFixedHeight(self.code.fontMetrics().lineSpacing() * 2 + 2 * self.code.frameWidth() + 12)
        self.runButton = QPushButton(self)
        self.runButton.setObjectName("lessonRunButton")
        self.runButton.clicked.connect(lambda: self.run(self.current()))
        self.answer = QPlainTextEdit(self)  # plain text: it quotes PyTorch and names tensors
        self.answer.setObjectName("lessonAnswer")
        self.answer.setReadOnly(True)
        self.look = plain_label(QLabel(self))
        self.look.setWordWrap(True)
        self.look.setObjectName("lessonLook")

        right = QVBoxLayout()
        for widget in (self.title, self.text, self.code):
            right.addWidget(widget)
        run_row = QHBoxLayout()
        run_row.addWidget(self.runButton)
        run_row.addStretch(1)
        right.addLayout(run_row)
        right.addWidget(self.answer, 1)
        right.addWidget(self.look)
        layout = QHBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(right, 1)
        self.list.currentRowChanged.connect(lambda _row: self._show_lesson())
        self.list.setCurrentRow(0)
        self.retranslate()
        self.resize(DEFAULT_SIZE)
        fit_dialog(self, parent)

    # ----- texts

    def retranslate(self) -> None:
        self.setWindowTitle(translate("Lessons", "Lessons"))
        for row, number in enumerate(core.LESSONS):
            self.list.item(row).setText(translate("Lessons", LESSON_TEXTS[number][0]))
        self.runButton.setText(translate("Lessons", "&Run"))
        # As wide as the longest title, up to a third of the panel: the text and code get the rest.
        self.list.setFixedWidth(min(max(self.list.sizeHintForColumn(0) + 24, 160), DEFAULT_SIZE.width() // 3))
        self._show_lesson()

    def current(self) -> int:
        return core.LESSONS[max(0, self.list.currentRow())]

    def _show_lesson(self) -> None:
        number = self.current()
        title, text, _look = LESSON_TEXTS[number]
        self.title.setText(translate("Lessons", title))
        self.text.setText(translate("Lessons", text))
        self.code.setPlainText(core.LESSON_CODE[number])
        facts = self.results.get(number)
        self.answer.setPlainText("\n".join(answer_lines(number, facts)) if facts is not None else "")
        self.look.setText(translate("Lessons", LESSON_TEXTS[number][2]) if facts is not None else "")

    # ----- running

    def show(self) -> None:  # noqa: D102 -- the menu's slot: shown, raised, not modal
        super().show()
        self.raise_()
        self.activateWindow()

    def run(self, number: int) -> bool:
        """Run lesson ``number`` in the worker; first load the example if it needs it (asked)."""
        model = self.state.model
        if number in core.NEEDS_EXAMPLE and (model is None or model.info.spec != "example"):
            if model is not None and not self._agree_to_reload():
                return False
            self.pending = number
            return self._open_example()
        self.pending = None
        return self._send(Task.LESSON, self._request, number)

    def _agree_to_reload(self) -> bool:
        answer = QMessageBox.question(
            self, translate("Lessons", "Load the example?"),
            translate("Lessons", "The lessons use the tutorial's example model (Net: Linear(3, 2) → Linear(2, 1)). "
                                 "Load it in place of the model open now? Your model file is not changed."),
        )  # fmt: skip
        return answer == QMessageBox.StandardButton.Yes

    def on_idle(self) -> None:
        """The window is idle again: the lesson that waited for the example's load runs now."""
        model = self.state.model
        if self.pending is not None and model is not None and model.info.spec == "example":
            number, self.pending = self.pending, None
            self._send(Task.LESSON, self._request, number)

    @Slot(object)
    def on_task_ended(self, end: TaskEnded) -> None:
        """A lesson ran (its ``LessonOutcome``), on the GUI thread."""
        if (outcome := end.result_of(LessonOutcome)) is not None:
            self.on_finished(outcome.number, outcome.facts)

    def on_finished(self, number: int, facts: object) -> None:
        self.results[number] = facts
        self.list.setCurrentRow(core.LESSONS.index(number))
        self._show_lesson()

