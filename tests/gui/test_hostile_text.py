"""Text from files is shown as plain text in every widget: markup stays visible as characters.

A hostile model names its modules, or fills its error messages, with HTML; were it rendered,
``<a href>`` would become a link and ``<img>`` would fetch an image. The tests read what Qt
would paint: a label's text format, a tooltip's text after Qt's own rich-text guess.
"""

from __future__ import annotations

import textwrap

import torch
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QFrame, QLabel, QMessageBox, QTableView, QTreeView
from torch import nn

from tests.gui.helpers import table_rows, widget

HOSTILE = "<b>bold</b><img src='x'><a href='https://evil'>click</a>\x1b[31m"  # no dots: not in module names


def shown_as_plain(label: QLabel) -> bool:
    return label.textFormat() == Qt.TextFormat.PlainText or (
        label.textFormat() == Qt.TextFormat.AutoText and not GuiQt.mightBeRichText(label.text())
    )


def tooltip_shows_literally(tooltip: str, text: str) -> bool:
    """Qt renders a tooltip as rich text iff mightBeRichText: then it must be the escaped text."""
    if not GuiQt.mightBeRichText(tooltip):
        return text in tooltip
    return GuiQt.convertFromPlainText(text).removeprefix("<p>").removesuffix("</p>") in tooltip


def write_factory(tmp_path, body: str):
    path = tmp_path / "hostile_model.py"
    path.write_text(textwrap.dedent(body))
    return f"{path}:make"


def test_hostile_module_names_are_plain_in_the_tree_and_its_tooltips(qtbot, make_window, tmp_path):
    spec = write_factory(
        tmp_path,
        f"""
        from torch import nn

        def make():
            model = nn.Sequential()
            model.add_module({HOSTILE!r}, nn.Linear(2, 2))
            return model
        """,
    )
    window = make_window(spec)
    model = widget(window, QTreeView, "parameterView").model()
    module_index = model.index(0, 0)
    assert module_index.data() == HOSTILE  # the name itself, unchanged
    tensor_index = model.index(0, 0, module_index)
    tooltip = tensor_index.data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip_shows_literally(tooltip, f"{HOSTILE}.weight")
    assert "<img src='x'>" not in tooltip  # never live markup
    for name in ("statusModel", "statusDevice", "statusBusy"):
        assert shown_as_plain(getattr(window, name))


def test_hostile_error_message_is_plain_in_the_banner_and_history(qtbot, make_window, tmp_path):
    spec = write_factory(
        tmp_path,
        f"""
        def make():
            raise RuntimeError({HOSTILE!r})
        """,
    )
    window = make_window("example")
    history_model = widget(window, QTableView, "historyView").model()
    before = history_model.rowCount()
    window.open_model(spec)
    qtbot.waitUntil(lambda: history_model.rowCount() > before and window.busy_task is None, timeout=30_000)

    banner = widget(window, QFrame, "errorBanner")
    assert banner.isVisibleTo(window)
    assert HOSTILE.replace("\x1b[31m", "") in banner.message.text()
    assert shown_as_plain(banner.message) and shown_as_plain(banner.title)

    row = history_model.rowCount() - 1
    result_column = [history_model.headerData(c, Qt.Orientation.Horizontal) for c in range(history_model.columnCount())].index("Result")
    tooltip = history_model.index(row, result_column).data(Qt.ItemDataRole.ToolTipRole)
    assert "<img src='x'>" not in tooltip
    assert "&lt;img" in tooltip and "&lt;a" in tooltip  # escaped by Qt's plain-text conversion
    assert table_rows(history_model)[-1]["Result"].startswith("failed")


def test_a_pt2_with_a_pickled_constant_asks_for_trust_in_the_window(qtbot, make_window, tmp_path):
    """The window's promise matches the CLI's: the payload does not run until the user trusts it."""
    import json
    import pickle
    import zipfile

    clean = tmp_path / "clean.pt2"
    torch.export.save(torch.export.export(nn.Linear(3, 2), (torch.randn(2, 3),)), str(clean))
    marker = tmp_path / "created-by-payload"
    path = tmp_path / "hostile.pt2"
    with zipfile.ZipFile(clean) as source, zipfile.ZipFile(path, "w") as target:
        top = source.namelist()[0].partition("/")[0]
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("model_constants_config.json"):
                config = json.loads(data)
                config["config"]["q"] = {"path_name": "opaque_obj_q/c", "is_param": False, "use_pickle": True, "tensor_meta": None}
                data = json.dumps(config).encode()
            target.writestr(info.filename, data)
        target.writestr(f"{top}/data/constants/opaque_obj_q/c", pickle.dumps(_Touch(marker)))

    window = make_window("example")
    window.open_model(str(path))
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "trustDialog") is not None, timeout=30_000)
    dialog = window.findChild(QMessageBox, "trustDialog")
    assert "constant q" in dialog.informativeText()
    qtbot.mouseClick(dialog.button(QMessageBox.StandardButton.No), Qt.MouseButton.LeftButton)
    assert not marker.exists()
    assert window.model_state.info.spec == "example"


class _Touch:
    def __init__(self, path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))
