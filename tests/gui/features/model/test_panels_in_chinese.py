"""The panels and dialogs in Simplified Chinese, and back in English, without reloading.

The tests read the window in Chinese through the shipped catalogue
(``resources/i18n/inspector_zh_CN.qm``, built by ``tools/update_translations.py``). Switching back to English proves that every part sets
its texts again on a change of language (``retranslate``), not only when it is built.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QTableView, QTableWidget, QTreeView

from inspector.core.errors import Failure
from inspector.core.files.presets import PRESETS
from inspector.core.vocabulary import BenchMode
from inspector.gui.features.model import cells
from tests.gui.helpers import tree_rows, widget
from tests.gui import doors
from inspector.gui.features.fit.flow import FitFlow





@pytest.fixture
def speak(qapp):
    """``speak("zh_CN")``: install a language and let every widget hear of it; English after."""
    from inspector.gui.common import i18n

    def switch(language: str) -> None:
        assert i18n.apply_language(language)
        qapp.processEvents()  # the LanguageChange events Qt posts to each window

    yield switch
    switch(i18n.ENGLISH)


def _headers(model) -> list[str]:
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]


# ----------------------------------------------------------------- marked where core has no Qt


def test_every_preset_label_and_description_is_marked_for_translation():
    from inspector.gui.common.dialogs import PRESET_TEXTS

    for preset in PRESETS:
        assert preset.label in PRESET_TEXTS and preset.description in PRESET_TEXTS


def test_every_benchmark_mode_label_is_marked_and_the_data_stays_the_enum_value():
    from inspector.gui.features.moves.action_bar import MODE_CHOICES, MODE_LABELS

    assert {mode.label for mode in BenchMode} == set(MODE_LABELS)
    assert [value for _label, value in MODE_CHOICES] == [str(mode) for mode in BenchMode]


def test_the_parameter_cells_say_every_word_through_tr():
    import torch
    from torch import nn

    from inspector.core.placement.tensor_rows import snapshot
    from inspector.gui.features.model.tree import PlacementTree

    def tr(text: str) -> str:
        return f"«{text}»"

    model = nn.Sequential(nn.Linear(2, 2))
    model.register_buffer("scale", torch.tensor(1.0))
    tree = PlacementTree(snapshot(model))
    layer = tree.root.children[0]
    weight = layer.children[0]
    scale = next(c for c in tree.root.children if c.name == "scale")
    assert cells.cell_text(tree, weight, cells.Columns.KIND, tr) == "«parameter»"
    assert cells.cell_text(tree, weight, cells.Columns.GRAD, tr) == "«yes»"
    assert cells.cell_text(tree, scale, cells.Columns.SHAPE, tr) == "«scalar»"
    assert cells.cell_text(tree, layer, cells.Columns.KIND, tr) == "«module (2)»"
    assert cells.tooltip_text(weight, cells.Columns.NAME, tr).startswith("«0.weight — ")
    assert cells.tooltip_text(layer, cells.Columns.NAME, tr).startswith("«0 — 2 tensors")
    widest = cells.widest_texts(snapshot(model), tree.largest_module(), False, tr)
    assert "«module (2)»" in widest[cells.Columns.KIND] and "«yes»" in widest[cells.Columns.GRAD]
    # The filter matches the kind as shown and in English.
    assert "«parameter»" in cells.filter_text(weight, tr) and " parameter " in cells.filter_text(weight, tr)
    assert cells.filter_text(weight) == cells.filter_text(weight, cells.english)


# ----------------------------------------------------------------- the window, both ways


def test_the_panels_speak_chinese_and_english_again_with_the_model_kept(window, speak):
    bar = doors.bar(window)
    state = doors.model(window)
    speak("zh_CN")

    assert bar.benchmarkButton.text() == "基准测试"
    assert bar.moveGroup.title() == "移动模型" and bar.measureGroup.title() == "测量延迟"
    assert bar.dtypeCombo.itemText(0) == "保持数据类型" and bar.dtypeCombo.itemText(1) == "float32"
    assert [bar.modeCombo.itemText(i) for i in range(bar.modeCombo.count())] == ["前向传播", "训练步"]
    assert [bar.modeCombo.itemData(i) for i in range(bar.modeCombo.count())] == ["forward", "train-step"]
    assert bar.cancelButton.toolTip() == "没有可取消的操作：没有正在进行的移动或基准测试"
    assert bar.perModuleCheck.text() == "逐模块" and bar.pinnedCheck.text() == "锁页"

    assert _headers(widget(window, QTableView, "historyView").model())[:3] == ["时间", "调用", "用时"]
    assert _headers(widget(window, QTableView, "deviceTable").model())[0] == "设备"
    tree = widget(window, QTreeView, "parameterView").model()
    assert _headers(tree)[:2] == ["名称", "类别"]
    assert {row["类别"] for row in _tree_rows(tree, "类别", "模块").values()} == {"参数"}
    assert "个张量" in widget(window, QLabel, "parameterTotals").text()
    assert widget(window, QPushButton, "copyCodeButton").text() == "复制"
    doors.banner(window).show_failure(Failure("oom", "CUDA out of memory."), "move")
    assert doors.banner(window).title.text() == "内存不足 — 移动"
    assert doors.banner(window).details_button.text() == "详细信息"

    speak("en")
    assert bar.benchmarkButton.text() == "Benchmark" and bar.moveGroup.title() == "Move the model"
    assert bar.dtypeCombo.itemText(0) == "keep dtype"
    assert [bar.modeCombo.itemText(i) for i in range(bar.modeCombo.count())] == ["forward", "train step"]
    assert bar.cancelButton.toolTip() == "Nothing to cancel: no move or benchmark is running"
    assert _headers(widget(window, QTableView, "historyView").model())[:3] == ["Time", "Call", "Duration"]
    assert _headers(widget(window, QTableView, "deviceTable").model())[0] == "Device"
    assert {row["Kind"] for row in tree_rows(tree).values()} == {"parameter"}
    assert "4</b> tensors" in widget(window, QLabel, "parameterTotals").text()
    assert doors.banner(window).title.text() == "Out of memory — move"
    assert doors.model(window) is state  # the same model, never reloaded


def _tree_rows(model, kind_header: str, module_word: str) -> dict[str, dict[str, str]]:
    """``helpers.tree_rows`` for headers in another language."""
    headers = _headers(model)
    rows: dict[str, dict[str, str]] = {}

    def walk(parent, prefix: str) -> None:
        for r in range(model.rowCount(parent)):
            row = {h: model.index(r, c, parent).data() for c, h in enumerate(headers)}
            if str(row[kind_header]).startswith(module_word):
                walk(model.index(r, 0, parent), f"{prefix}{row[headers[0]]}.")
            else:
                rows[f"{prefix}{row[headers[0]]}"] = row

    from PySide6.QtCore import QModelIndex

    walk(QModelIndex(), "")
    return rows


def test_the_disabled_reasons_are_said_in_the_language_installed(qapp, speak):
    from inspector.gui.features.moves.bar_reasons import ActionState, disabled_reasons, pinned_blocker

    speak("zh_CN")
    reasons = disabled_reasons(ActionState(busy_task="export", has_model=True))
    assert reasons["cancelButton"] == "正在写入报告，无法取消"
    assert reasons["benchmarkButton"] == "现在不行：正在写入报告"
    loading = disabled_reasons(ActionState(busy_task="load", has_model=True))  # a load can be cancelled
    assert loading["cancelButton"] is None
    assert loading["benchmarkButton"] == "现在不行：正在加载模型（“取消”可停止）"
    assert pinned_blocker("cuda:0", ["cuda:1"]) == "锁页只能加快主机到 GPU 的复制；模型已在 cuda:1 上"
    speak("en")
    assert disabled_reasons(ActionState(busy_task="export", has_model=True))["cancelButton"] == (
        "the report is being written cannot be cancelled"
    )


def test_the_open_dialog_shows_the_presets_in_chinese(window, speak):
    speak("zh_CN")
    dialog = window.make_open_model_dialog()
    try:
        combo = widget(dialog, QComboBox, "modelPresetCombo")
        labels = [combo.itemText(i) for i in range(combo.count())]
        assert labels[0] == "选择预设…" and "带 BatchNorm 的 CNN" in labels
        assert dialog.windowTitle() == "打开模型"
        speak("en")
        assert combo.itemText(0) == "Choose a preset…" and "CNN with BatchNorm" in [
            combo.itemText(i) for i in range(combo.count())
        ]
        assert dialog.windowTitle() == "Open model"
    finally:
        dialog.deleteLater()


def test_the_fit_dialog_left_open_follows_the_language(qtbot, window, speak):
    dialog = doors.part(window, FitFlow).show()
    table = widget(dialog, QTableWidget, "fitTable")
    qtbot.mouseClick(widget(dialog, QPushButton, "fitEstimateButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: doors.busy(window) is None and bool(table.item(0, 1) and table.item(0, 1).text()),
                    timeout=60_000)  # fmt: skip
    fits = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())].index("Fits")
    assert table.item(0, fits).text() == "yes"

    speak("zh_CN")
    assert dialog.windowTitle() == "放得下吗？"
    assert table.horizontalHeaderItem(0).text() == "设备" and table.item(0, fits).text() == "是"
    assert dialog.status.text().startswith("一次训练步")
    assert "优化器 Adam，" in dialog.status.text()  # as the list names it, not the CLI's adam
    assert widget(dialog, QPushButton, "fitEstimateButton").text() == "估算"

    speak("en")
    assert dialog.windowTitle() == "Will it fit?" and table.item(0, fits).text() == "yes"
    assert dialog.status.text().startswith("One train step in") and " with optimizer Adam, " in dialog.status.text()
