"""Every text a person sees, in Chinese: a whole session in zh_CN leaves no English on screen
but code, identifiers and units; the same session in English shows no Chinese.

The walk reads what the window shows, as a user would: widget texts, tooltips, placeholders,
titles, menus and their actions, table and tree headers and cells, plot titles, axes and
legends, in the main window and in every dialog and tab a session opens (the tabs not in
front too: each page as it shows when its tab is picked), the file dialogs (Qt's own, read
while they are open), and the comments of the code the code view showed after each action
(code is code, its comments are prose). Core's vocabulary ("forward", "example", "factory",
"input", "train step", an optimizer's CLI name) is prose there too, wherever it stands
(``vocabulary_left``), while ``.to()`` and ``cuda:0`` are code.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from inspector.core.messages import Text
from inspector.gui.common.pages import COMPARISON
from tests.gui.conftest import wait_idle
from tests.gui.languages import has_chinese
from tests.prose import english_words
from inspector.gui.features.training.step import TrainingStep
from tests.gui import doors
from inspector.gui.features.fit.flow import FitFlow
from inspector.gui.features.latency.launch import BenchmarkLaunch
from inspector.gui.features.lessons.panel import LessonsPanel
from inspector.gui.features.moves.commands import ModelCommands
from inspector.gui.features.report.flow import ReportFlow

#: Widgets whose content is code or PyTorch's own words (their headers and labels are read).
CODE_WIDGETS = {"codeView", "lessonCode", "lessonAnswer"}

#: Core's vocabulary, which the window says in words (``gui.vocabulary_words``): a mode, a
#: model's source, the example's spec, an optimizer's CLI name. English prose wherever it
#: shows, brackets included ("Net (example)", "forward ×20"); code keeps it (``model.forward``,
#: ``forward()``, ``'example'``, ``--mode=train-step``), and so do the allowed words'
#: capitalised names (Adam, SGD).
_VOCABULARY = re.compile(
    r"(?<![\w.'\"/:=`-])(forward|example|factory|input|train[ -]step|adam|adamw|sgd-momentum)(?![\w'\"(/:=`-])"
)
_CALL = re.compile(r"[\w.]+\((?:[^()]|\([^()]*\))*\)")
#: Units written after a number, the same in every language (as ms and s are): 583 ns, 5 min.
_UNITS = re.compile(r"(?<=\d) ?(ns|min)\b")
#: Identifiers that read as words: the kernel's transparent huge page mode (madvise).
_IDENTIFIERS = re.compile(r"\bmadvise\b")

#: English that another part of the window still shows, each with its owner and what it
#: needs: (where it shows, a piece of the text, why). Read by the walk and left out of its
#: verdict until that part is done; an entry whose text no longer shows fails the walk, so
#: the list only shrinks.
#: (a report read from a file kept core's facts as English strings until the one reader read them as texts)
ELSEWHERE: tuple[tuple[str, str, str], ...] = ()


def vocabulary_left(text: str) -> list[str]:
    """Core's vocabulary left in English in ``text``, outside code (``<code>``, calls)."""
    text = re.sub(r"<code>.*?</code>", " ", text, flags=re.S)
    return _VOCABULARY.findall(_CALL.sub(" ", text))


def english_left(text: str) -> list[str]:
    """What the Chinese walk calls English: prose words, and core's vocabulary anywhere."""
    text = _IDENTIFIERS.sub(" ", _UNITS.sub(" ", text))
    return english_words(text) + vocabulary_left(text)


def elsewhere(where: str, text: str) -> bool:
    return any(place in where and piece in text for place, piece, _why in ELSEWHERE)


def code_comments(code: str) -> str:
    """The comments of Python ``code`` (what follows a ``#`` outside a string), a line each:
    the prose of the code view, which is translated while the code stays as it is."""
    import io
    import tokenize

    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    return "\n".join(token.string.lstrip("#").strip() for token in tokens if token.type == tokenize.COMMENT)


def _item_texts(view: QAbstractItemView) -> Iterator[str]:
    model = view.model()
    if model is None:
        return

    def columns(parent: QModelIndex) -> int:
        try:
            return model.columnCount(parent)
        except TypeError:  # a list model's columnCount is not public in PySide: one column
            return 1

    for orientation in (Qt.Orientation.Horizontal,):
        for column in range(columns(QModelIndex())):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.headerData(column, orientation, role)
                if isinstance(value, str):
                    yield value

    def walk(parent: QModelIndex, depth: int) -> Iterator[str]:
        for row in range(min(model.rowCount(parent), 200)):
            for column in range(columns(parent)):
                index = model.index(row, column, parent)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = index.data(role)
                    if isinstance(value, str):
                        yield value
            if depth < 8:
                yield from walk(model.index(row, 0, parent), depth + 1)

    yield from walk(QModelIndex(), 0)


def _menu_texts(menu: QMenu) -> Iterator[tuple[str, str]]:
    where = f"menu {menu.objectName() or menu.title()}"
    yield where, menu.title()
    for action in menu.actions():
        yield where, action.text()
        if action.toolTip() and action.toolTip() != action.text().replace("&", ""):
            yield where, action.toolTip()
        if action.menu() is not None:
            yield from _menu_texts(action.menu())


def _plot_texts(widget: pg.PlotWidget) -> Iterator[str]:
    item = widget.getPlotItem()
    yield item.titleLabel.text
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        if axis.isVisible() and axis.labelText:
            yield axis.labelText
    if item.legend is not None:
        for _sample, label in item.legend.items:
            yield label.text
    for child in item.items:
        if isinstance(child, pg.TextItem):
            yield child.toPlainText()


def _prose(edit: QTextEdit) -> str:
    """A rich text's words, without its code (fragments set in a fixed-pitch font)."""
    words = []
    block = edit.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.isValid() and not fragment.charFormat().font().fixedPitch() and "monospace" not in (
                fragment.charFormat().fontFamilies() or []
            ):
                words.append(fragment.text())
            it += 1
        words.append("\n")
        block = block.next()
    return "".join(words)


def visible_texts(top: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) of everything ``top`` and its visible children show a person."""
    yield f"window {top.objectName()}", top.windowTitle()
    widgets = [top, *top.findChildren(QWidget)]
    for widget in widgets:
        if not widget.isVisibleTo(top) and widget is not top:
            continue
        name = widget.objectName() or type(widget).__name__
        if name in CODE_WIDGETS:
            continue
        if isinstance(widget, QAbstractItemView) and isinstance(widget.parent(), QAbstractItemView):
            continue  # a view's header: read with the view it belongs to
        if widget.toolTip():
            yield f"{name} tooltip", widget.toolTip()
        if isinstance(widget, QLabel):
            yield name, widget.text()
        elif isinstance(widget, QAbstractButton):
            yield name, widget.text()
        elif isinstance(widget, QLineEdit):
            yield f"{name} placeholder", widget.placeholderText()
        elif isinstance(widget, QGroupBox):
            yield name, widget.title()
        elif isinstance(widget, QTabWidget):
            for i in range(widget.count()):
                yield f"{name} tab", widget.tabText(i)
                yield f"{name} tab tooltip", widget.tabToolTip(i)
        elif isinstance(widget, QComboBox):
            for i in range(widget.count()):
                yield f"{name} item", widget.itemText(i)
        elif isinstance(widget, QTextEdit):
            yield name, _prose(widget)
        elif isinstance(widget, QPlainTextEdit):
            yield name, widget.toPlainText()
        elif isinstance(widget, QAbstractItemView):
            for text in _item_texts(widget):
                yield name, text
        elif isinstance(widget, pg.PlotWidget):
            for text in _plot_texts(widget):
                yield name, text
    menu_bar = getattr(top, "menuBar", None)
    if callable(menu_bar):
        for action in top.menuBar().actions():
            if action.menu() is not None:
                yield from _menu_texts(action.menu())


def texts_of_every_tab(top: QWidget) -> Iterator[tuple[str, str]]:
    """What ``top``'s tab widgets show on the pages not in front, each as it shows when its
    tab is picked (a page shown only through its tab is read with its own children)."""
    for tabs in top.findChildren(QTabWidget):
        if not tabs.isVisibleTo(top):
            continue
        for index in range(tabs.count()):
            page = tabs.widget(index)
            if index != tabs.currentIndex() and page is not None:
                for where, text in visible_texts(page):
                    yield f"{tabs.objectName()} page {index}: {where}", text


def file_dialog_texts(open_it: Callable[[], object]) -> list[tuple[str, str]]:
    """What Qt's file dialog says when ``open_it()`` asks for one (``QFileDialog``'s static
    functions): its title, labels, buttons and their tooltips, the file-type filters, the
    list's column titles, and its menus' actions (rename, delete, hidden files, new folder; the
    columns' show/hide); then it is cancelled. The dialog is Qt's own widget, made as the static
    function makes it where the platform has no native one (offscreen, a bare X server), with
    the caller's title, folder and filters, and read while shown (no nested event loop). The
    files and folders it lists are the disk's, not ours: not read."""
    seen: list[tuple[str, str]] = []

    def asked(save: bool) -> Callable[..., tuple[str, str]]:
        def dialog_for(parent=None, caption="", folder="", filters="", selected="", *_options) -> tuple[str, str]:
            dialog = QFileDialog(parent, caption, folder, filters)
            dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
            if save:
                dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            if selected:
                dialog.selectNameFilter(selected)
            dialog.show()
            QApplication.processEvents()
            seen.extend(_file_dialog_read(dialog))
            dialog.reject()
            dialog.deleteLater()
            return "", ""

        return dialog_for

    real = QFileDialog.getOpenFileName, QFileDialog.getSaveFileName
    QFileDialog.getOpenFileName, QFileDialog.getSaveFileName = asked(False), asked(True)  # type: ignore[method-assign]
    try:
        open_it()
    finally:
        QFileDialog.getOpenFileName, QFileDialog.getSaveFileName = real  # type: ignore[method-assign]
    assert seen, "no file dialog opened"
    return seen


def _file_dialog_read(dialog: QFileDialog) -> Iterator[tuple[str, str]]:
    where = f"file dialog {dialog.windowTitle()}"
    yield where, dialog.windowTitle()
    for widget in dialog.findChildren(QWidget):
        if not widget.isVisibleTo(dialog):
            continue
        name = f"{where} {widget.objectName() or type(widget).__name__}"
        if widget.toolTip():
            yield f"{name} tooltip", widget.toolTip()
        if isinstance(widget, (QLabel, QAbstractButton)):
            yield name, widget.text()
        elif isinstance(widget, QComboBox) and widget.objectName() == "fileTypeCombo":
            yield from ((name, widget.itemText(i)) for i in range(widget.count()))
        elif isinstance(widget, QAbstractItemView) and widget.objectName() == "treeView":
            model = widget.model()
            yield from ((f"{name} header", str(model.headerData(c, Qt.Orientation.Horizontal))) for c in range(model.columnCount()))
    yield from ((f"{where} action", action.text()) for action in dialog.findChildren(QAction) if action.text())


def a_whole_session(window, qtbot, tmp_path) -> tuple[list[QWidget], list[tuple[str, str]]]:
    """Load (done), ``.cuda()`` (it fails without a GPU), move, benchmark per module and a
    training step's, one training step, run every lesson, open every dialog, file dialog and
    tab; the windows to read, and what was shown one at a time: each lesson's answer, the
    comments of the code after each action, what each file dialog said."""
    from inspector.gui.common import dialogs, window_settings
    from inspector.gui.features.remote.connect_dialog import ConnectDialog

    shown: list[tuple[str, str]] = []  # read as it shows: each a moment of the session

    def code_after(action: str) -> None:
        shown.append((f"code view comments after {action}", code_comments(window.code.code())))

    bar = doors.bar(window)
    assert doors.part(window, ModelCommands).move_cuda()
    wait_idle(qtbot, window)
    code_after(".cuda()")
    bar.dtypeCombo.setCurrentIndex(bar.dtypeCombo.findData("float64"))
    assert doors.part(window, ModelCommands).move_to_target()
    wait_idle(qtbot, window)
    code_after(".to()")
    bar.runsSpin.setValue(20)
    bar.perModuleCheck.setChecked(True)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    wait_idle(qtbot, window, timeout=60_000)
    code_after("the benchmark")
    bar.perModuleCheck.setChecked(False)
    bar.modeCombo.setCurrentIndex(bar.modeCombo.findData("train-step"))
    bar.runsSpin.setValue(10)
    assert doors.part(window, BenchmarkLaunch).run_benchmark()
    wait_idle(qtbot, window, timeout=60_000)
    code_after("the train-step benchmark")
    bar.modeCombo.setCurrentIndex(bar.modeCombo.findData("forward"))
    assert doors.part(window, TrainingStep).run()
    wait_idle(qtbot, window)
    code_after("a training step")
    report = tmp_path / "session.json"
    assert doors.part(window, ReportFlow).export_report(report)
    qtbot.waitUntil(lambda: report.exists() and doors.busy(window) is None, timeout=30_000)
    doors.part(window, ReportFlow).open_report(report)  # the Compare tab, this session against its own report
    qtbot.waitUntil(lambda: window.lazy_tabs.is_built(COMPARISON), timeout=30_000)
    for index in range(window.tabs.count()):  # every page, built
        window.tabs.setCurrentIndex(index)
        qtbot.wait(20)
    doors.part(window, LessonsPanel).show()
    answers = shown  # every lesson's answer, read as it is shown (the panel shows one at a time)
    for row in range(doors.part(window, LessonsPanel).list.count()):
        doors.part(window, LessonsPanel).list.setCurrentRow(row)
        doors.part(window, LessonsPanel).runButton.click()
        qtbot.waitUntil(lambda r=row: r + 1 in doors.part(window, LessonsPanel).results, timeout=30_000)
        wait_idle(qtbot, window)
        answers.append((f"lesson {row + 1} answer", our_lines(doors.part(window, LessonsPanel).answer.toPlainText())))
    opened = [window, doors.part(window, LessonsPanel)]
    for topic in ("start", "shortcuts", "report"):
        opened.append(window.help.show(topic))
    fit = doors.part(window, FitFlow).show()
    qtbot.waitUntil(lambda: doors.busy(window) is None, timeout=60_000)
    # Qt's own file dialogs, in the session's folder (the disk's names are not ours to read)
    window_settings.set_last_folder(window.settings, "reports", str(report))
    window_settings.set_last_folder(window.settings, "models", str(report))
    shown += file_dialog_texts(doors.part(window, ReportFlow).export_report_dialog)
    open_model = window.make_open_model_dialog()
    open_model.show()
    shown += file_dialog_texts(open_model.browse_button.click)
    opened += [
        fit,
        open_model,
        dialogs.PreferencesDialog(10.0, window),
        dialogs.ask_trust(window, "/models/checkpoint.pt", (Text("trust.setstate", record="data.pkl"),), lambda: None),
        ConnectDialog(window.settings, window),
    ]
    for dialog in opened[1:]:
        dialog.show()
    qtbot.wait(50)
    return opened, answers


def our_lines(answer: str) -> str:
    """A lesson's answer without the lines that quote PyTorch's own message (indented by two
    spaces, in English in every language): what is left is ours, and translated."""
    return "\n".join(line for line in answer.splitlines() if not line.startswith("  "))


def host_data(window, *folders: object) -> list[str]:
    """Texts that come from the machine, not from us: device names (a CPU may be named
    "Intel(R) Xeon(R) Processor"), the host's name, the user's home, the session's folders.
    They are data, in whatever language the machine speaks, like tensor names: never a leak."""
    names = [device.name for device in window.inventory.devices]
    names += [str(value) for device in window.inventory.devices for value in device.details.values() if isinstance(value, str)]
    names += [socket.gethostname(), str(Path.home()), *map(str, folders)]
    return sorted({name for name in names if name.strip()}, key=len, reverse=True)  # longest first


def without(data: list[str], text: str) -> str:
    for name in data:
        text = text.replace(name, " ")
    return text


def leaks(windows: list[QWidget], answers: list[tuple[str, str]], found, data: list[str]) -> list[tuple[str, str]]:
    shown = [(where, text) for window in windows for where, text in visible_texts(window)] + answers
    shown += [(where, text) for window in windows for where, text in texts_of_every_tab(window)]
    # the history quotes each lesson's answer, and with it PyTorch's own messages (indented)
    shown = [(where, our_lines(text) if "historyView" in where else text) for where, text in shown]
    return [(where, text) for where, text in shown if text and found(without(data, text))]


def test_a_whole_session_in_chinese_leaves_no_english_on_screen(make_window, qtbot, chinese, tmp_path, monkeypatch):
    # As on a system that draws Chinese. Without such a font the window says so once in both
    # languages on purpose (test_window_i18n checks that notice); it is no English leak.
    from inspector.gui.common import i18n

    monkeypatch.setattr(i18n, "has_cjk_font", lambda: True)
    window = make_window()
    windows, answers = a_whole_session(window, qtbot, tmp_path)
    data = host_data(window, tmp_path)
    english = leaks(windows, answers, english_left, data)
    known = [(where, text) for where, text in english if elsewhere(where, text)]
    still = {piece for _place, piece, _why in ELSEWHERE if any(piece in text for _where, text in known)}
    assert still == {piece for _place, piece, _why in ELSEWHERE}, "a part listed in ELSEWHERE is done: take it off"
    english = [(where, text) for where, text in english if not elsewhere(where, text)]
    assert not english, "\n".join(f"{where}: {text!r} -> {english_left(without(data, text))}" for where, text in english[:40])
    said = dict(answers)
    actions = (".cuda()", "the benchmark", "the train-step benchmark", "a training step")  # (a .to() on the CPU has none)
    assert all(said[f"code view comments after {action}"] for action in actions)
    assert any(where.startswith("file dialog") for where in said)
    assert window.about_text() and not english_words(window.about_text().replace("Torch Device Inspector", ""))


def test_the_same_session_in_english_shows_no_chinese(make_window, qtbot, tmp_path):
    window = make_window()
    windows, answers = a_whole_session(window, qtbot, tmp_path)
    data = host_data(window, tmp_path)
    chinese_left = [(w, t) for w, t in leaks(windows, answers, has_chinese, data) if t != "简体中文"]  # the language's own name
    assert not chinese_left, chinese_left[:20]


def teardown_function() -> None:
    for widget in QApplication.topLevelWidgets():
        if widget.objectName() != "mainWindow" and widget.isVisible():
            widget.close()


def test_the_walk_tells_english_prose_from_code_and_units():
    # (the walk above is only as good as this reading of a text)
    assert english_words("移动失败：the model is as it was") == ["the", "is", "as", "it", "was"]
    assert english_words("model.to('cpu', dtype=torch.float64)：无需复制 · 88 B · 7.3 µs") == []
    assert english_words("<code>schema_version</code>、<b>float64</b> 的 state_dict") == []
    assert english_words("文件(&F)") == [] and english_words("&File") == ["File"]
    # core's vocabulary is prose wherever it stands; code keeps it
    assert vocabulary_left("模型 — Net (example)") == ["example"] and vocabulary_left("forward ×20 · cpu") == ["forward"]
    assert vocabulary_left("优化器 adam") == ["adam"] and vocabulary_left("Net (factory): 4 个张量") == ["factory"]
    assert vocabulary_left("load_model('example') · model.forward · forward() · --mode=train-step · Adam") == []
    assert code_comments("x = 1  # one\n# two\ny = '# not a comment'") == "one\ntwo"
