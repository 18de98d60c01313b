"""Qt's own dialogs in the window's language: Qt's catalogue (qtbase, from PySide6's
TranslationsPath) for what it has, ours for what Qt 6.11 added and its catalogue lacks
(``gui.qt_own_texts``). The file dialog is walked as a person sees it, the non-native one
Qt shows where the platform has none of its own (offscreen, a bare X server)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel

from inspector.gui.common import i18n
from inspector.gui.common.qt_own_texts import QT_OWN_MISSING
from tests.gui.languages import has_chinese
from tests.gui.shell.test_language_walk import _file_dialog_read, english_left
from tests.gui.helpers import GENEROUS_MS


def _dialog(qtbot, save: bool) -> QFileDialog:
    dialog = QFileDialog(None, "t", "", "Timing report (*.json);;All files (*)")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


@pytest.mark.parametrize("save", [False, True], ids=["open", "save"])
def test_the_file_dialog_says_every_label_button_and_menu_in_chinese(qtbot, chinese, save):
    dialog = _dialog(qtbot, save)
    texts = [(where, text) for where, text in _file_dialog_read(dialog) if text and text != "t"]
    ours = {"Timing report (*.json)", "All files (*)"}  # the caller's filters: translated by the caller
    left = [(where, text) for where, text in texts if text not in ours and english_left(text)]
    assert not left, left
    labels = {label.objectName(): label.text() for label in dialog.findChildren(QLabel) if label.objectName()}
    assert labels["lookInLabel"] == "查找范围(&L)：" and labels["fileTypeLabel"] == "文件类型(&T)："
    assert labels["fileNameLabel"] == "文件名称(&N)："  # Qt's own catalogue, loaded
    buttons = dialog.findChild(QDialogButtonBox).buttons()
    assert all(has_chinese(button.text()) for button in buttons)  # 打开/保存, 取消


def test_the_same_dialog_in_english_is_qts_own(qtbot):
    dialog = _dialog(qtbot, save=False)
    labels = {label.objectName(): label.text() for label in dialog.findChildren(QLabel) if label.objectName()}
    assert labels["lookInLabel"] == "&Look in:" and labels["fileTypeLabel"] == "Files of &type:"


def test_ours_only_fills_what_qts_catalogue_lacks(qapp):
    # Each text we translate under Qt's context is one Qt's catalogue has no translation for
    # (ours never overrides Qt's own words); the day Qt's has one, ours can go.
    qt = QTranslator()
    assert qt.load(QLocale(i18n.CHINESE), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
    assert qt.translate("QFileDialog", "File &name:")  # (the catalogue is there and answers)
    assert [text for text in QT_OWN_MISSING if qt.translate("QFileDialog", text)] == []


def test_a_folders_type_reads_in_chinese_in_the_file_dialog(qtbot, chinese, tmp_path):
    """The Type column said "Folder" beside Chinese columns (issue 45 item 7): Qt's catalogue
    lacks its text, ours has it (``qt_own_texts.folder_type``)."""
    from PySide6.QtWidgets import QTreeView

    from inspector.gui.common.qt_own_texts import folder_type

    assert folder_type() == "文件夹"
    (tmp_path / "runs").mkdir()
    dialog = QFileDialog(None, "t", str(tmp_path))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    qtbot.addWidget(dialog)
    dialog.show()
    tree = dialog.findChild(QTreeView, "treeView")
    model, root = tree.model(), tree.rootIndex()
    qtbot.waitUntil(lambda: model.rowCount(tree.rootIndex()) > 0, timeout=GENEROUS_MS)
    root = tree.rootIndex()
    types = {model.index(r, 0, root).data(): model.index(r, 2, root).data() for r in range(model.rowCount(root))}
    assert types["runs"] == "文件夹"
