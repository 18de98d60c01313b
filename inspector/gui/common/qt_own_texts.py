"""Qt's own texts that Qt's catalogue lacks, translated in ours.

The window loads Qt's catalogue (``qtbase_<lang>.qm``, shipped with PySide6, found at
``QLibraryInfo``'s TranslationsPath) for the standard dialogs' buttons and the file dialogs.
Qt 6.11's file dialog labels two of its fields with new source texts (accelerators added:
"&Look in:", "Files of &type:"), which the bundled catalogue does not have yet, so a Chinese
file dialog said "Look in:" and "Files of type:". They are marked here under Qt's own context,
"QFileDialog", so they are in our catalogue too; ours is installed after Qt's, so it is asked
first (``i18n.apply_language``), and answers only these.

Found by walking a non-native QFileDialog (open and save) in Chinese, its labels, buttons,
tooltips, headers and menus: every other text it shows is in Qt's catalogue.
``tests/gui/common/test_qt_dialogs_language.py`` walks it again, so a Qt that adds more is caught.
"""

from __future__ import annotations


from PySide6.QtCore import QCoreApplication

from inspector.gui.common.marks import QT_TRANSLATE_NOOP

# (plain comments here: lupdate would hand a "#:" comment to the translators as a note)
QT_OWN_MISSING = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)


def folder_type() -> str:
    """The file dialog's Type column for a folder, as Qt's ``QAbstractFileIconProvider::type``
    asks for it (with its disambiguation, which ``QT_TRANSLATE_NOOP`` cannot carry: the call
    itself marks it). Qt's catalogue lacks it, so a Chinese file dialog said "Folder" beside
    its Chinese columns (issue 45 item 7); ours has it."""
    return QCoreApplication.translate("QAbstractFileIconProvider", "Folder", "All other platforms")
