"""Small dialogs of the window: open a model, preferences, trust a file, about.

Their texts are translated (the dialog's class as context; "Dialogs" for the message boxes);
the two dialogs that are widgets set them again on a change of language. The presets' labels
and descriptions come from ``core.files.presets`` (no Qt there): they are marked here
(``PRESET_TEXTS``, context "Presets") and translated where shown.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from inspector.core.files import DANGEROUS_SHOWN, PRESETS, Preset, dangerous_first, described, is_dangerous
from inspector.gui.common.i18n import Retranslates, core_text, fill, translate
from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.plain_text import shown, shown_tip
from inspector.gui.common.sample_rate import MAX_SAMPLE_HZ, MIN_SAMPLE_HZ
from inspector.gui.common.vocabulary_words import spec_text

#: The presets' labels and descriptions (``core.files.presets.PRESETS``), marked for
#: translation; shown through ``translate("Presets", text)``. A test keeps them in step.
PRESET_TEXTS = (
    QT_TRANSLATE_NOOP("Presets", "The tutorial's example (Linear 3→2→1)"),
    QT_TRANSLATE_NOOP("Presets", "brings its own (64, 3) input"),
    QT_TRANSLATE_NOOP("Presets", "CNN with BatchNorm"),
    QT_TRANSLATE_NOOP("Presets", "8 RGB images of 32×32"),
    QT_TRANSLATE_NOOP("Presets", "Transformer (torch.nn.Transformer, two inputs)"),
    QT_TRANSLATE_NOOP("Presets", "src and tgt: (sequence, batch, d_model=512)"),
    QT_TRANSLATE_NOOP("Presets", "MLP on 28×28 images"),
    QT_TRANSLATE_NOOP("Presets", "64 flattened images"),
    QT_TRANSLATE_NOOP("Presets", "Token model (Embedding + LSTM, int64 ids)"),
    QT_TRANSLATE_NOOP("Presets", "8 sequences of 64 token ids below the embedding's 1,000"),
)


def model_file_filters() -> str:
    """The file dialog's filters, named in the language now installed (the patterns stay)."""
    return ";;".join((
        fill(translate("OpenModelDialog", "PyTorch models (%1)"), "*.pt *.pth *.pt2 *.ckpt *.bin *.safetensors *.ptl"),
        fill(translate("OpenModelDialog", "Python factories (%1)"), "*.py"),
        fill(translate("OpenModelDialog", "All files (%1)"), "*"),
    ))  # fmt: skip


class OpenModelDialog(Retranslates, QDialog):
    """A model spec: typed, browsed for, picked from the presets or the recent ones; and the
    input it takes. ``spec``/``architecture``/``inputs`` prefill it (the last failed load, to
    fix, or the current model); ``needs_architecture`` marks the Architecture field."""

    def __init__(
        self,
        recent: list[str],
        parent: QWidget | None = None,
        *,
        spec: str = "",
        architecture: str = "",
        inputs: str = "",
        needs_architecture: bool = False,
        start_folder: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("openModelDialog")
        self.setMinimumWidth(560)
        self.start_folder = start_folder
        self.browsed_path = ""

        self.preset_combo = QComboBox(self)
        self.preset_combo.setObjectName("modelPresetCombo")
        self.preset_combo.addItem("", None)
        for preset in PRESETS:
            self.preset_combo.addItem(preset.label, preset)
        self.preset_combo.activated.connect(self._preset_chosen)

        self.spec_edit = QLineEdit(self)
        self.spec_edit.setObjectName("modelSpecEdit")
        self.browse_button = browse = QPushButton(self)
        browse.clicked.connect(self._browse)
        spec_row = QHBoxLayout()
        spec_row.addWidget(self.spec_edit, 1)
        spec_row.addWidget(browse)

        self.architecture_edit = QLineEdit(self)
        self.architecture_edit.setObjectName("architectureEdit")

        self.inputs_edit = QLineEdit(self)
        self.inputs_edit.setObjectName("modelInputEdit")

        self.recent_list = QListWidget(self)
        self.recent_list.setObjectName("recentModelsList")
        for recent_spec in recent:  # shown escaped and elided (plain_text); the spec itself is the item's data
            item = QListWidgetItem(shown(spec_text(recent_spec)), self.recent_list)  # the example in words (示例)
            item.setData(Qt.ItemDataRole.UserRole, recent_spec)
            item.setToolTip(shown_tip(spec_text(recent_spec)))
        self.recent_list.currentItemChanged.connect(
            lambda item, _previous: self.spec_edit.setText(item.data(Qt.ItemDataRole.UserRole)) if item else None
        )
        self.recent_list.itemDoubleClicked.connect(lambda _item: self.accept())

        self.form_labels = [QLabel(self) for _ in range(4)]
        form = QFormLayout()
        form.addRow(self.form_labels[0], self.preset_combo)
        form.addRow(self.form_labels[1], spec_row)
        form.addRow(self.form_labels[2], self.architecture_edit)
        form.addRow(self.form_labels[3], self.inputs_edit)
        self.architecture_hint = QLabel(self)
        self.architecture_hint.setObjectName("architectureHint")
        self.architecture_hint.setWordWrap(True)
        self.architecture_hint.setStyleSheet("QLabel#architectureHint { color: #b71c1c; }")
        self.architecture_hint.setVisible(needs_architecture)
        form.addRow("", self.architecture_hint)
        self.trust_hint = hint = QLabel(self)
        hint.setWordWrap(True)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._open_button = buttons.button(QDialogButtonBox.StandardButton.Open)
        self.spec_edit.textChanged.connect(lambda text: self._open_button.setEnabled(bool(text.strip())))
        self._open_button.setEnabled(False)
        self.spec_edit.setText(spec)
        self.architecture_edit.setText(architecture)
        self.inputs_edit.setText(inputs)
        if needs_architecture:
            self.architecture_edit.setStyleSheet("QLineEdit#architectureEdit { border: 2px solid #c62828; }")
            self.architecture_edit.setFocus(Qt.FocusReason.OtherFocusReason)

        self.recent_label = QLabel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.recent_label)
        layout.addWidget(self.recent_list, 1)
        layout.addWidget(hint)
        layout.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(translate("OpenModelDialog", "Open model"))
        self.preset_combo.setItemText(0, translate("OpenModelDialog", "Choose a preset…"))
        for index, preset in enumerate(PRESETS, start=1):
            self.preset_combo.setItemText(index, translate("Presets", preset.label))
            inputs = preset.inputs or translate("OpenModelDialog", "its own")
            tip = fill(translate("OpenModelDialog", "%1 · input %2: %3"),
                       preset.spec, inputs, translate("Presets", preset.description))  # fmt: skip
            self.preset_combo.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        self.preset_combo.setToolTip(translate("OpenModelDialog", "Fills the model spec and its input shape"))
        self.spec_edit.setPlaceholderText(
            translate("OpenModelDialog", "example, path/to/model.pt, package.module:factory or file.py:factory")
        )
        self.browse_button.setText(translate("OpenModelDialog", "Browse…"))
        self.architecture_edit.setPlaceholderText(
            translate("OpenModelDialog", "only for state dicts / .safetensors: package.module:factory")
        )
        self.inputs_edit.setPlaceholderText(
            translate("OpenModelDialog", "the model's own; else e.g. 1,3,224,224 or 10,32,512; 20,32,512")
        )
        self.inputs_edit.setToolTip(
            translate("OpenModelDialog", "Fills the window's input-shape field once the model is loaded")
        )
        words = (
            translate("OpenModelDialog", "Preset"),
            translate("OpenModelDialog", "Model"),
            translate("OpenModelDialog", "Architecture"),
            translate("OpenModelDialog", "Input shape"),
        )
        for label, text in zip(self.form_labels, words):
            label.setText(text)
        self.architecture_hint.setText(translate(
            "OpenModelDialog",
            "This file holds only weights: name the model they belong to here "
            "(package.module:factory or path/to/model.py:Net).",
        ))  # fmt: skip
        self.trust_hint.setText(translate(
            "OpenModelDialog",
            "A file that needs to run code to load (a whole pickled module) is refused unless "
            "you confirm that you trust it.",
        ))  # fmt: skip
        self.recent_label.setText(translate("OpenModelDialog", "Recent models"))

    def spec(self) -> str:
        return self.spec_edit.text().strip()

    def architecture(self) -> str | None:
        return self.architecture_edit.text().strip() or None

    def inputs(self) -> str:
        return self.inputs_edit.text().strip()

    def _preset_chosen(self, index: int) -> None:
        preset = self.preset_combo.itemData(index)
        if isinstance(preset, Preset):
            self.spec_edit.setText(preset.spec)
            self.architecture_edit.clear()
            self.inputs_edit.setText(preset.inputs)

    def _browse(self) -> None:
        start = os.path.dirname(self.spec()) if os.path.sep in self.spec() else self.start_folder
        title = translate("OpenModelDialog", "Open model file")
        path, _ = QFileDialog.getOpenFileName(self, title, start, model_file_filters())
        if not path:
            return
        self.browsed_path = path
        if path.endswith(".py"):
            # A Python file is a factory spec: the user still names the function.
            self.spec_edit.setText(f"{path}:")
            self.spec_edit.setFocus(Qt.FocusReason.OtherFocusReason)
            self.spec_edit.setCursorPosition(len(self.spec_edit.text()))
        else:
            self.spec_edit.setText(path)


class PreferencesDialog(Retranslates, QDialog):
    def __init__(self, sample_hz: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.rate_spin = QSpinBox(self)
        self.rate_spin.setObjectName("sampleRateSpin")
        self.rate_spin.setRange(MIN_SAMPLE_HZ, MAX_SAMPLE_HZ)
        self.rate_spin.setSuffix(" Hz")
        self.rate_spin.setValue(round(sample_hz))
        self.rate_label = QLabel(self)
        form = QFormLayout()
        form.addRow(self.rate_label, self.rate_spin)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        self.setWindowTitle(translate("PreferencesDialog", "Preferences"))
        self.rate_label.setText(translate("PreferencesDialog", "Memory sampling rate"))
        self.rate_spin.setToolTip(
            translate("PreferencesDialog", "How often device memory is read for the table and the memory plot")
        )

    def sample_hz(self) -> int:
        return self.rate_spin.value()


# The names the trust question lists in its text (those that reach the system are never
# left out for classes); the rest are under Show Details, which lists every one.
TRUST_NAMES_SHOWN = 8


def trust_names(wanted: Sequence[str]) -> tuple[list[str], list[str]]:
    """The names the trust question shows in its text, and all of them for its details: each
    said for what it does (``posix.system — runs a shell command``), those that reach the
    system first, in the window's language."""
    ordered = dangerous_first(wanted)
    dangerous = [item for item in ordered if is_dangerous(item)][:DANGEROUS_SHOWN]
    others = [item for item in ordered if not is_dangerous(item)]
    text = dangerous + others[: max(0, TRUST_NAMES_SHOWN - len(dangerous))]
    return [core_text(described(item)) for item in text], [core_text(described(item)) for item in ordered]


def ask_trust(parent: QWidget, path: str, wanted: Sequence[str], on_trust: Callable[[], None]) -> QMessageBox:
    """Ask, window-modal and without blocking, whether to load a file that needs to run code;
    ``on_trust()`` runs if the user says yes. File names are escaped: never rich text."""
    listed, every = trust_names(wanted)
    more = len(every) - len(listed)
    shown = ", ".join(listed)
    if more:
        shown = fill(translate("Dialogs", "%1 and %2 more (Show Details lists them all)"), shown, more)
    box = QMessageBox(parent)
    box.setObjectName("trustDialog")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Dialogs", "Trust this file?"))
    # Rich text: the translations are escaped, the names in them too.
    needs = html.escape(translate("Dialogs", "%1 needs to run code to load."))
    box.setText(fill(needs, f"<b>{html.escape(Path(path).name)}</b>"))
    paragraphs = (
        fill(html.escape(translate("Dialogs", "It asks for: %1.")), html.escape(shown)),
        html.escape(translate("Dialogs", "Loading it runs that code with your permissions. Only trust files you "
                                         "made yourself or got from a source you trust.")),
        html.escape(translate("Dialogs", "Load this file anyway?")),
    )  # fmt: skip
    box.setInformativeText("<br><br>".join(paragraphs))
    asks = translate("Dialogs", "It asks for:")
    box.setDetailedText(f"{path}\n\n{asks}\n" + "\n".join(f"  {item}" for item in every))
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.Yes).setText(translate("Dialogs", "Trust and load"))
    box.button(QMessageBox.StandardButton.No).setText(translate("Dialogs", "Don't load"))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def answered() -> None:
        if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
            on_trust()

    box.finished.connect(lambda _result: answered())
    box.open()  # window-modal and asynchronous: the event loop keeps running
    return box


def about_html(lines: Sequence[str]) -> str:
    """The About box's text: what the app is, then the version lines (escaped)."""
    body = "<br>".join(html.escape(line) for line in lines)
    what = html.escape(translate("Dialogs", "%1: where every tensor of a PyTorch model lives, what a move costs, "
                                            "and how fast the model runs on each device."))  # fmt: skip
    return f"<p>{fill(what, '<b>Torch Device Inspector</b>')}</p><p style='font-family:monospace'>{body}</p>"


def show_about(parent: QWidget, text: str) -> None:
    QMessageBox.about(parent, translate("Dialogs", "About Torch Device Inspector"), text)


def confirm_train_step(parent: QWidget) -> bool:
    """Whether the user wants one real training step (it changes the model's weights)."""
    answer = QMessageBox.question(
        parent,
        translate("Dialogs", "Run one training step?"),
        translate(
            "Dialogs",
            "This runs one real forward, backward and optimizer step on your model: its weights "
            "change, and its gradients and optimizer state appear in the tree.\n\n"
            "The loss is the sum of the outputs; the input is the model's own example input, or "
            "the input shape you entered.",
        ),
        QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Ok
