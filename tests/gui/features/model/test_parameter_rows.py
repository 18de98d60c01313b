"""The parameter tree's rows, texts, sort orders and filter, read without Qt.

These import only the Qt-free halves of the panel (``parameter_tree``, ``parameter_cells``):
no QApplication, no widget. The last test proves the halves load where PySide6 cannot.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap

import torch
from torch import nn

from inspector.core.measure.attribution import Attribution, ModuleStats
from inspector.core.placement.tensor_rows import snapshot
from inspector.gui.features.model.cells import (
    Columns,
    cell_text,
    filter_pattern,
    filter_text,
    sort_key,
    tooltip_text,
    widest_texts,
)
from inspector.gui.features.model.tree import PlacementTree, module_path


class Block(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.fc(x))


class TiedLM(nn.Module):
    """An embedding and a head that share one weight, two blocks between them."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(100, 8)
        self.blocks = nn.Sequential(Block(8), Block(8))
        self.head = nn.Linear(8, 100, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.blocks(self.embed(tokens)))


def _tree(model: nn.Module, optimizer: torch.optim.Optimizer | None = None) -> PlacementTree:
    return PlacementTree(snapshot(model, optimizer))


def _child(node, name: str):
    return next(c for c in node.children if c.name == name)


def _texts(tree: PlacementTree, node, column: int) -> list:
    return [cell_text(tree, c, column) for c in node.children]


def test_rows_group_under_their_modules_in_the_models_order():
    model = TiedLM()
    model(torch.tensor([[1, 2]])).sum().backward()
    tree = _tree(model)
    assert [c.name for c in tree.root.children] == ["embed", "blocks", "head"]
    blocks = _child(tree.root, "blocks")
    assert [c.name for c in blocks.children] == ["0", "1"]
    block = _child(blocks, "1")
    assert [c.name for c in block.children] == ["fc", "norm"]
    fc = _child(block, "fc")
    # A gradient sits beside its parameter, in the parameter's module, not in a "weight" module.
    assert _texts(tree, fc, Columns.NAME) == ["weight", "bias", "weight.grad", "bias.grad"]
    assert _texts(tree, fc, Columns.KIND) == ["parameter", "parameter", "gradient", "gradient"]
    assert _texts(tree, fc, Columns.GRAD) == ["yes · has .grad", "yes · has .grad", "", ""]
    assert module_path(fc) == "blocks.1.fc" and module_path(tree.root) == ""
    assert cell_text(tree, fc, Columns.KIND) == "module (4)"
    assert cell_text(tree, fc.children[0], Columns.SHAPE) == "8×8"
    assert tooltip_text(fc, Columns.NAME).startswith("blocks.1.fc — 4 tensors")


def test_optimizer_state_goes_under_its_parameters_module():
    model = nn.Sequential(nn.Linear(2, 2))
    optimizer = torch.optim.Adam(model.parameters())
    model(torch.ones(1, 2)).sum().backward()
    optimizer.step()
    tree = _tree(model, optimizer)
    layer = _child(tree.root, "0")
    kinds = {cell_text(tree, c, Columns.KIND) for c in layer.children}
    assert kinds == {"parameter", "gradient", "optimizer state"}
    assert "weight.exp_avg" in _texts(tree, layer, Columns.NAME)


def test_a_tied_weight_is_listed_under_each_name_and_counted_once():
    tree = _tree(TiedLM())
    embed, head = _child(tree.root, "embed"), _child(tree.root, "head")
    weight_bytes = 100 * 8 * 4
    assert cell_text(tree, embed.children[0], Columns.SIZE) == "3.1 KiB"
    # The head's weight is the embedding's: shown, marked, and not counted again.
    assert cell_text(tree, head.children[0], Columns.SIZE) == "(tied) 3.1 KiB"
    assert "shares its storage with embed.weight" in tooltip_text(head.children[0], Columns.SIZE)
    assert (head.count, head.bytes) == (0, 0)
    assert cell_text(tree, head, Columns.SIZE) == "0 B"
    block_bytes = 2 * (8 * 8 + 8 + 8 + 8) * 4
    assert tree.root.bytes == weight_bytes + block_bytes
    assert tree.root.count == 1 + 2 * 4
    assert widest_texts(snapshot(TiedLM()), tree.largest_module(), False)[Columns.SIZE] == [
        "888.8 MiB", "(tied) 888.8 MiB"
    ]  # fmt: skip


def test_sizes_read_plainly_and_modules_sum_their_tensors():
    with torch.device("meta"):
        lazy = nn.Linear(100, 100, bias=False)
    model = nn.ModuleDict({"small": nn.Linear(3, 2), "big": nn.Linear(64, 64), "lazy": lazy})
    tree = _tree(model)
    small, big = _child(tree.root, "small"), _child(tree.root, "big")
    assert _texts(tree, small, Columns.SIZE) == ["24 B", "8 B"]
    assert cell_text(tree, small, Columns.SIZE) == "32 B"
    assert cell_text(tree, big, Columns.SIZE) == "16.2 KiB"
    assert cell_text(tree, _child(tree.root, "lazy").children[0], Columns.SIZE) == "0 B (would be 39.1 KiB)"
    # Sizes sort as numbers (16.2 KiB above 32 B, whatever their text says), modules too.
    tree.sort(sort_key(tree, Columns.SIZE), descending=True)
    assert [c.name for c in tree.root.children] == ["big", "small", "lazy"]
    tree.sort(sort_key(tree, -1), descending=False)  # no column: the model's own order
    assert [c.name for c in tree.root.children] == ["small", "big", "lazy"]


def _stats(name: str, ms: float, flops: int) -> ModuleStats:
    return ModuleStats(
        name=name, type="Linear", device="cpu", depth=name.count(".") + 1, is_leaf=True, calls=1,
        output_shapes=((1, 8),), median_ms=ms, self_ms=ms, share=ms / 10, flops=flops,
        flops_per_s=None, activation_bytes=32, parameters_bytes=288,
    )  # fmt: skip


def _attribution(*stats: ModuleStats, order: tuple[str, ...] = ()) -> Attribution:
    return Attribution(device="cpu", dtype="float32", input_shapes=((1, 8),), samples=5, modules=stats,
                       total_flops=0, forward_with_hooks_ms=1.0, forward_without_hooks_ms=1.0,
                       module_order=order)  # fmt: skip


def test_time_and_flops_sort_as_numbers_and_unmeasured_rows_go_last():
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.Linear(8, 8))
    tree = _tree(model)
    order = ("", "0", "1", "2", "3")
    # "0" is slow and heavy, "2" slower and light, "3" was not measured; the ReLU has no tensors.
    tree.attach(_attribution(_stats("0", 9.5, 4_000_000), _stats("1", 0.25, 0), _stats("2", 10.5, 100), order=order))
    names = [c.name for c in tree.root.children]
    assert names == ["0", "1", "2", "3"]  # the ReLU got its own row, where the model defines it
    relu = _child(tree.root, "1")
    assert cell_text(tree, relu, Columns.TIME) == "250.0 µs" and cell_text(tree, relu, Columns.FLOPS) == "0"
    assert cell_text(tree, relu, Columns.SHARE) == "2.5 %"
    assert cell_text(tree, _child(tree.root, "0"), Columns.FLOPS) == "4.00 MFLOP"
    assert cell_text(tree, _child(tree.root, "3"), Columns.TIME) is None
    assert cell_text(tree, _child(tree.root, "0").children[0], Columns.TIME) is None  # a tensor row

    for descending, expected in ((True, ["2", "0", "1", "3"]), (False, ["1", "0", "2", "3"])):
        tree.sort(sort_key(tree, Columns.TIME), descending=descending)
        assert [c.name for c in tree.root.children] == expected
    for descending, expected in ((True, ["0", "2", "1", "3"]), (False, ["1", "2", "0", "3"])):
        tree.sort(sort_key(tree, Columns.FLOPS), descending=descending)
        assert [c.name for c in tree.root.children] == expected
    # Text sorting would put "10.500 ms" before "9.500 ms".
    assert cell_text(tree, _child(tree.root, "2"), Columns.TIME) == "10.500 ms"
    # A module's tensors keep their order (they have no time): still weight, then bias.
    assert _texts(tree, _child(tree.root, "2"), Columns.NAME) == ["weight", "bias"]


def _matching(tree: PlacementTree, text: str) -> list[str]:
    pattern = filter_pattern(text)
    return [leaf.row.name for leaf in tree.leaves if re.search(pattern, filter_text(leaf), re.IGNORECASE)]


def test_the_filter_keeps_rows_holding_every_word_in_any_order_and_case():
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2).double())
    tree = _tree(model)
    assert _matching(tree, "BIAS") == ["0.bias", "1.bias"]
    assert _matching(tree, "float64 bias") == _matching(tree, "Bias  FLOAT64") == ["1.bias"]
    assert _matching(tree, "buffer running") == ["1.running_mean", "1.running_var"]
    assert _matching(tree, "cpu weight") == ["0.weight", "1.weight"]
    assert _matching(tree, "cuda") == []
    assert filter_pattern("   ") == ""  # empty: every row
    assert filter_text(_child(tree.root, "1")) == "1"  # a module matches by its path


def test_the_filter_takes_typed_characters_literally():
    model = nn.ModuleDict({"a": nn.ModuleList([nn.Linear(1, 1) for _ in range(12)])})
    tree = _tree(model)
    # "." is a dot, not any character: "a.1." is layer 1, not 10 or 11.
    assert _matching(tree, "a.1.") == ["a.1.weight", "a.1.bias"]
    assert _matching(tree, "a.1") == ["a.1.weight", "a.1.bias", "a.10.weight", "a.10.bias", "a.11.weight", "a.11.bias"]
    for text in ("(", "[a", "*", "a+", "\\", "$", "^a"):
        assert _matching(tree, text) == [], text


def test_the_qt_free_modules_load_where_pyside6_cannot():
    code = textwrap.dedent(
        """
        import sys
        sys.modules.update(dict.fromkeys(("PySide6", "shiboken6", "pyqtgraph")))  # import fails
        import inspector.gui.features.model.cells, inspector.gui.features.model.tree
        print(sorted(m for m in sys.modules if m.startswith("inspector.gui")))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = set(ast.literal_eval(done.stdout))
    assert {"inspector.gui.features.model.cells", "inspector.gui.features.model.tree"} <= loaded
    assert not loaded & {"inspector.gui.features.model.item_model", "inspector.gui.features.model.panel"}
