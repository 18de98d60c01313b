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
from tests.gui import doors

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
    shown = HOSTILE.replace("\x1b", "\\x1b")  # the name's markup as it is; its ESC as an escape
    assert module_index.data() == shown
    tensor_index = model.index(0, 0, module_index)
    tooltip = tensor_index.data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip_shows_literally(tooltip, f"{shown}.weight")
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
    qtbot.waitUntil(lambda: history_model.rowCount() > before and doors.busy(window) is None, timeout=30_000)

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
    assert doors.model(window).info.spec == "example"


class _Touch:
    def __init__(self, path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


# ------------------------------------------------------------------ bidi, newlines, &, length (issue 32, item 14)

RLO = "\u202e"
LONG = "k" * 100_000
#: The class a hostile factory builds: a bidi override and a newline before the window's own words.
EVIL_CLASS = f"Net{RLO}\nevil"
EVIL_MODULES = (f"head{RLO}gnp_exe", "first\nsecond", "R&D", LONG)


def _hostile_factory(tmp_path) -> str:
    folder = tmp_path / "R&D"
    folder.mkdir()
    return write_factory(
        folder,
        f"""
        import torch
        from torch import nn

        def make():
            model = type({EVIL_CLASS!r}, (nn.Sequential,), {{}})()
            for name in {EVIL_MODULES!r}:
                model.add_module(name, nn.Linear(2, 2))
            return model, torch.randn(1, 2)
        """,
    )


def _escaped_everywhere(text: str) -> bool:
    """No control character Qt would obey: each one shows as its escape."""
    return all(ch.isprintable() for ch in text)


def test_names_with_bidi_newlines_and_huge_lengths_are_escaped_and_elided(qtbot, make_window, tmp_path):
    from inspector.gui.common.plain_text import SHOWN_LIMIT, TIP_LIMIT

    spec = _hostile_factory(tmp_path)
    window = make_window(spec)
    assert doors.model(window).info.spec == spec

    # The tree: each module's row says its name with the override and the newline as escapes.
    model = widget(window, QTreeView, "parameterView").model()
    names = [model.index(row, 0).data() for row in range(model.rowCount())]
    assert names[:3] == ["head\\u202egnp_exe", "first\\nsecond", "R&D"]
    huge = names[3]
    assert len(huge) <= SHOWN_LIMIT and huge.startswith("kkk") and "…" in huge
    tip = model.index(3, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert _escaped_everywhere(tip.replace("\n", "")) and len(tip) < TIP_LIMIT + TIP_LIMIT // 50 + 200
    assert max(len(line) for line in tip.splitlines()) <= 100  # a tooltip as wide as a screen at most
    leaf = model.index(0, 0, model.index(0, 0))
    assert leaf.data() == "weight"
    assert "head\\u202egnp_exe.weight" in leaf.data(Qt.ItemDataRole.ToolTipRole)

    # The status bar and the panel's title: the window's own words stay in their place and order.
    status = window.statusModel.text()
    assert status == "Model: Net\\u202e\\nevil (factory)"
    title = window.model_box.title()
    assert _escaped_everywhere(title) and title.startswith("Model — Net\\u202e\\nevil (")
    assert title.endswith(":make)") and "R&D" in title
    assert _escaped_everywhere(window.windowTitle())


def test_the_recent_models_menu_escapes_elides_and_shows_ampersands(qtbot, window, tmp_path):
    from inspector.gui.common.plain_text import SHOWN_LIMIT

    # As long as a spec the settings keep (4,096 characters): as wide as 4,000 characters before.
    for spec in ("R&D.pt", f"evil\nline{RLO}tp.exe", "/models/" + "k" * 3_990 + ".pt"):
        window.add_recent_model(spec)
    actions = window.recentMenu.actions()
    texts = [a.text() for a in actions[:3]]
    assert texts[2] == "R&&D.pt" and actions[2].iconText() == "R&D.pt"  # Qt shows "R&D.pt", no mnemonic
    assert texts[1] == "evil\\nline\\u202etp.exe"
    long_text = texts[0]
    assert len(long_text) <= SHOWN_LIMIT and long_text.startswith("/models/kkk") and long_text.endswith("kk.pt")
    assert window.recentMenu.sizeHint().width() < 1200
    assert window.recentMenu.toolTipsVisible() and "\\u202e" in actions[1].toolTip()
    # Picking an item opens the spec itself, not the text shown.
    opened = []
    window.recent.chosen.connect(opened.append)
    actions[2].trigger()
    actions[1].trigger()
    assert opened == ["R&D.pt", f"evil\nline{RLO}tp.exe"]


def test_a_name_in_a_core_message_cannot_reverse_the_banner_words(qtbot, make_window, tmp_path):
    """A factory raising with a bidi override: the banner shows the escape, the history too."""
    spec = write_factory(
        tmp_path,
        f"""
        def make():
            raise RuntimeError("bad {RLO}gnp.exe\\nnext line")
        """,
    )
    window = make_window("example")
    history_model = widget(window, QTableView, "historyView").model()
    before = history_model.rowCount()
    window.open_model(spec)
    qtbot.waitUntil(lambda: history_model.rowCount() > before and doors.busy(window) is None, timeout=30_000)
    banner = widget(window, QFrame, "errorBanner")
    assert RLO not in banner.message.text() and "\\u202e" in banner.message.text()
    row = table_rows(history_model)[-1]
    assert _escaped_everywhere(row["Result"]) and _escaped_everywhere(row["Call"])


def test_a_remote_agents_device_names_are_escaped_in_the_devices_panel(qtbot):
    # a remote agent names its devices: its words reach the table and its tooltip escaped
    from dataclasses import replace

    from inspector.core.devices.inventory import DeviceInventory, discover_devices
    from inspector.gui.features.devices.panel import DevicesPanel

    cpu = discover_devices().devices[0]
    hostile = replace(cpu, name="GPU\u202egnp.exe\nfake line " + "x" * 5000)
    panel = DevicesPanel()
    qtbot.addWidget(panel)
    panel.set_inventory(DeviceInventory((hostile,)))
    model = panel.model
    name = model.data(model.index(0, 1), Qt.ItemDataRole.DisplayRole)
    tip = model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)
    assert "\u202e" not in name and "\n" not in name and "\\u202e" in name and len(name) <= 130
    assert "\u202e" not in tip and "\\u202egnp.exe\\nfake line" in tip and max(map(len, tip.splitlines())) <= 200
