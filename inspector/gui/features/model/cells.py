"""What each column of the parameter tree says about a row, with no Qt: the column titles, a
cell's text and tooltip, the sort key per column, the text the filter field matches (and the
pattern it matches with), and the widest texts a column must fit.

``parameter_model`` answers Qt's ``data()`` from these; tests read them without a
QApplication. Rows are ``parameter_tree`` nodes.

The words are marked for translation (context "ParameterCells") with a local
``QT_TRANSLATE_NOOP``, which pyside6-lupdate knows by name: no Qt here. Each function that
makes a text takes ``tr``, which turns a marked text (or one of core's) into the words shown:
the Qt model passes its translation; the default keeps the English text. A sentence with a
value in it is one marked text with ``%1``… (``_fill``), so a translation may reorder it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable

from inspector.core.files import escape_control
from inspector.core.placement import size_text
from inspector.core.report import format_flops
from inspector.core.units import format_bytes, format_ms
from inspector.gui.features.model.tree import ModuleNode, Node, PlacementTree, module_path

if TYPE_CHECKING:
    from inspector.core.measure import Attribution, ModuleStats
    from inspector.core.placement import Placement, TensorRow

#: A tensor's shape, as ``TensorRow.shape`` holds it.
Shape = tuple[int, ...]


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 -- the name pyside6-lupdate looks for
    """Marks ``text`` for translation in ``context``; the Qt model translates it when shown."""
    return text


#: Turns a marked text of this module (or a text of core's) into the words shown.
Tr = Callable[[str], str]


def english(text: str) -> str:
    """The ``tr`` without a translation: the text as written."""
    return text


def _fill(text: str, *args: object) -> str:
    """Qt's ``%1``… placeholders replaced in order (``i18n.fill``, which needs Qt), each
    value's control characters as escapes (a name's U+202E never reverses the words around it)."""
    for number in range(len(args), 0, -1):  # %10 before %1
        text = text.replace(f"%{number}", escape_control(str(args[number - 1]), keep_newlines=True))
    return text


KIND_LABELS = {
    "parameter": QT_TRANSLATE_NOOP("ParameterCells", "parameter"),
    "buffer": QT_TRANSLATE_NOOP("ParameterCells", "buffer"),
    "grad": QT_TRANSLATE_NOOP("ParameterCells", "gradient"),
    "optimizer_state": QT_TRANSLATE_NOOP("ParameterCells", "optimizer state"),
}
SCALAR = QT_TRANSLATE_NOOP("ParameterCells", "scalar")  # the shape of a 0-d tensor


def kind_text(kind: str, tr: Tr = english) -> str:
    """A tensor row's kind in words ("gradient"); an unknown kind as it is."""
    label = KIND_LABELS.get(kind)
    return tr(label) if label else kind


class Columns:
    """The tree's columns by index, in the model's own order (the panel shows them in another)."""

    HEADERS = (
        QT_TRANSLATE_NOOP("ParameterCells", "Name"),
        QT_TRANSLATE_NOOP("ParameterCells", "Kind"),
        QT_TRANSLATE_NOOP("ParameterCells", "Shape"),
        QT_TRANSLATE_NOOP("ParameterCells", "Dtype"),
        QT_TRANSLATE_NOOP("ParameterCells", "Device"),
        QT_TRANSLATE_NOOP("ParameterCells", "Size"),
        QT_TRANSLATE_NOOP("ParameterCells", "Grad"),
        QT_TRANSLATE_NOOP("ParameterCells", "Time"),
        QT_TRANSLATE_NOOP("ParameterCells", "% of forward"),
        QT_TRANSLATE_NOOP("ParameterCells", "Output shape"),
        "FLOPs",  # a unit: the same in every language
    )
    NAME, KIND, SHAPE, DTYPE, DEVICE, SIZE, GRAD, TIME, SHARE, OUTPUT, FLOPS = range(11)
    #: The per-module columns: empty (and hidden by the panel) until a per-module run.
    MODULE_COLUMNS = (TIME, SHARE, OUTPUT, FLOPS)


C = Columns

#: Header tooltips: what a column means where its title cannot say it all.
HEADER_TIPS = {
    1: QT_TRANSLATE_NOOP(
        "ParameterCells",
        "What the row holds: a parameter, buffer, gradient or optimizer state; "
        "\"module (N)\" = a module and the N tensors under it.",
    ),
    6: QT_TRANSLATE_NOOP(
        "ParameterCells",
        "Grad, for a parameter: \"yes\" = requires_grad (training updates it), \"no\" = frozen; "
        "\"· has .grad\" = a backward pass left a gradient in it now (its .grad row is listed too). "
        "Gradients appear after a training step (Tools › Run one training step).",
    ),
    5: QT_TRANSLATE_NOOP(
        "ParameterCells",
        "Memory really allocated; tensors sharing a storage (tied weights, views) are counted once in the totals.",
    ),
}


def timing_header_tip(attribution: Attribution, tr: Tr = english) -> str:
    """The Time and % of forward titles' tooltip after a per-module run: what the figures
    are, and why they are rough when they are (``Attribution.warnings``, core's texts)."""
    tip = tr(QT_TRANSLATE_NOOP(
        "ParameterCells",
        "Time: the module's call with its children (median of the per-module run), the hooks' own cost taken out; "
        "% of forward: that time over the model's own in the same run (the model's row 100 %, "
        "a module's never more than its parent's).",
    ))  # fmt: skip
    warnings = tuple(getattr(attribution, "warnings", ()))
    if warnings:
        heading = tr(QT_TRANSLATE_NOOP("ParameterCells", "⚠ Per-module figures not reliable:"))
        tip += "\n\n" + heading + "".join("\n• " + tr(w) for w in warnings)
    return tip


def right_aligned(node: Node, column: int) -> bool:
    """Figures read right-aligned: sizes, and a module's time, share and FLOPs once measured."""
    return column == C.SIZE or (column in C.MODULE_COLUMNS and column != C.OUTPUT and node.stats is not None)


def cell_text(tree: PlacementTree, node: Node, column: int, tr: Tr = english) -> str | None:
    """What the cell at ``column`` of ``node``'s row shows (None: nothing there)."""
    if column in C.MODULE_COLUMNS:
        return timing_text(node.stats, column, tr)
    if isinstance(node, ModuleNode):  # a module has no row
        return module_text(node, column, tr)
    row = node.row
    if column == C.NAME:
        return node.name
    if column == C.KIND:
        return kind_text(row.kind, tr)
    if column == C.SHAPE:
        return "×".join(map(str, row.shape)) if row.shape else tr(SCALAR)
    if column == C.DTYPE:
        return row.dtype
    if column == C.DEVICE:
        return row.device
    if column == C.SIZE:
        if row.shares_with:
            return (view_text if getattr(row, "is_view", False) else tied_text)(tr(size_text(row)), tr)
        return tr(size_text(row))
    if column == C.GRAD:
        if row.kind != "parameter":
            return ""
        return grad_text(row.requires_grad, row.name in tree.with_grad, tr)
    return None


def tied_text(size: str, tr: Tr = english) -> str:
    """The Size cell of a tensor sharing another's storage."""
    return _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "(tied) %1")), size)


def view_text(size: str, tr: Tr = english) -> str:
    """The Size cell of a tensor viewing another's storage (``.view``, ``.t()``, a slice)."""
    return _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "(view) %1")), size)


def grad_text(trains: bool, has_grad: bool, tr: Tr = english) -> str:
    """A parameter's Grad cell: whether training updates it, and whether it holds a gradient now."""
    if has_grad:
        if trains:
            return tr(QT_TRANSLATE_NOOP("ParameterCells", "yes · has .grad"))
        return tr(QT_TRANSLATE_NOOP("ParameterCells", "no · has .grad"))
    return tr(QT_TRANSLATE_NOOP("ParameterCells", "yes")) if trains else tr(QT_TRANSLATE_NOOP("ParameterCells", "no"))


def module_kind_text(count: int, tr: Tr = english) -> str:
    """A module row's Kind cell (short: the Kind column stays narrow at 1024 px)."""
    return _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "module (%1)")), f"{count:,}")


def module_text(node: ModuleNode, column: int, tr: Tr = english) -> str:
    """A module row's cell: its name, tensor count, dtypes, devices and bytes (tied once)."""
    if column == C.NAME:
        return node.name
    if column == C.KIND:
        return module_kind_text(node.count, tr)
    if column == C.DTYPE:
        return ", ".join(node.dtypes)
    if column == C.DEVICE:
        return ", ".join(node.devices)
    if column == C.SIZE:
        return format_bytes(node.bytes)
    return ""


def timing_text(stats: ModuleStats | None, column: int, tr: Tr = english) -> str | None:
    """A per-module column's cell (None before a per-module run, and on tensor rows)."""
    if stats is None:
        return None
    if column == C.TIME:
        return format_ms(stats.median_ms)
    if column == C.SHARE:
        return f"{100 * stats.share:.1f} %"
    if column == C.OUTPUT:
        return shapes_text(stats.output_shapes, tr)
    if column == C.FLOPS:
        return format_flops(stats.flops) if stats.flops else "0"
    return None


def tooltip_text(node: Node, column: int, tr: Tr = english) -> str | None:
    """The cell's tooltip as plain text (the Qt model escapes it): a tensor's name, kind, size
    and storage on every cell; a module's path and totals on its name; timings in detail."""
    if column in C.MODULE_COLUMNS:
        return timing_tip(node.stats, tr) if node.stats is not None else None
    if isinstance(node, ModuleNode):  # a module has no row
        if column != C.NAME:
            return None
        path = module_path(node) or tr(QT_TRANSLATE_NOOP("ParameterCells", "(model)"))
        tip = tr(QT_TRANSLATE_NOOP("ParameterCells", "%1 — %2 tensors, %3"))
        return _fill(tip, path, f"{node.count:,}", format_bytes(node.bytes))
    row = node.row
    tip = _fill(
        tr(QT_TRANSLATE_NOOP("ParameterCells", "%1 — %2, %3 elements on %4")),
        row.name, kind_text(row.kind, tr), f"{row.elements:,}", row.device,
    )  # fmt: skip
    tip += storage_tip(row, tr)
    if row.shares_with and getattr(row, "is_view", False):
        shares = tr(QT_TRANSLATE_NOOP("ParameterCells", "a view of %1's storage (counted once in the totals, there)"))
        tip += "\n" + _fill(shares, row.shares_with)
    elif row.shares_with:
        shares = tr(QT_TRANSLATE_NOOP("ParameterCells", "shares its storage with %1 (counted once in the totals)"))
        tip += "\n" + _fill(shares, row.shares_with)
    elif getattr(row, "counted_bytes", row.bytes) != row.bytes and row.storage == "dense":
        # Views of it, or a slice of a bigger storage: the totals count the whole allocation.
        whole = tr(QT_TRANSLATE_NOOP("ParameterCells", "its storage holds %1 (what the totals count, once)"))
        tip += "\n" + _fill(whole, format_bytes(row.counted_bytes))
    return tip


def timing_tip(stats: ModuleStats, tr: Tr = english) -> str:
    name = stats.name or tr(QT_TRANSLATE_NOOP("ParameterCells", "(model)"))
    if stats.calls != 1:
        where = _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "%1 (%2) on %3, called %4× per forward")),
                      name, stats.type, stats.device, stats.calls)  # fmt: skip
    else:
        where = _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "%1 (%2) on %3")), name, stats.type, stats.device)
    median = _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "median %1 with its children, %2 itself")),
                   format_ms(stats.median_ms), format_ms(stats.self_ms))  # fmt: skip
    speed = f", {format_flops(stats.flops_per_s, '/s')}" if stats.flops_per_s else ""
    memory = _fill(tr(QT_TRANSLATE_NOOP("ParameterCells", "outputs %1 of new tensors; parameters %2")),
                   format_bytes(stats.activation_bytes), format_bytes(stats.parameters_bytes))  # fmt: skip
    return f"{where}\n{median}\n{format_flops(stats.flops)}{speed}\n{memory}"


def storage_tip(row: TensorRow, tr: Tr = english) -> str:
    """"" for a dense tensor; otherwise a line saying what its storage holds."""
    storage = getattr(row, "storage", "dense")
    if storage == "meta":
        text = tr(QT_TRANSLATE_NOOP("ParameterCells", "on the meta device: nothing allocated; %1 once materialised"))
        return "\n" + _fill(text, format_bytes(row.dense_bytes))
    if storage == "quantized":
        text = tr(QT_TRANSLATE_NOOP("ParameterCells", "quantized: %1 of integer storage"))
        return "\n" + _fill(text, format_bytes(row.bytes))
    if storage != "dense":  # a sparse layout, named as PyTorch names it
        text = tr(QT_TRANSLATE_NOOP("ParameterCells", "%1: %2 of indices and values (%3 if dense)"))
        return "\n" + _fill(text, storage.replace("_", " "), format_bytes(row.bytes), format_bytes(row.dense_bytes))
    return ""


def shapes_text(shapes: Iterable[Shape], tr: Tr = english) -> str:
    return ", ".join("×".join(map(str, s)) or tr(SCALAR) for s in shapes) or "—"


def sort_key(tree: PlacementTree, column: int, tr: Tr = english) -> Callable[[Node], Any] | None:
    """How ``column`` orders rows: sizes and timings as numbers, names without case, the rest by
    their text as shown (``tr``); a row with nothing to show (key None) goes last. None: the
    model's own order."""
    if column < 0 or column >= len(C.HEADERS):
        return None
    figures: dict[int, Callable[[ModuleStats], object]] = {
        C.TIME: lambda s: s.median_ms,
        C.SHARE: lambda s: s.share,
        C.FLOPS: lambda s: s.flops,
        C.OUTPUT: lambda s: shapes_text(s.output_shapes, tr),
    }
    if column in figures:
        pick = figures[column]
        return lambda node: pick(node.stats) if node.stats is not None else None
    if column == C.SIZE:
        return lambda node: node.bytes if isinstance(node, ModuleNode) else node.row.bytes
    if column == C.NAME:
        return lambda node: node.name.lower()
    return lambda node: cell_text(tree, node, column, tr) or None


def filter_text(node: Node, tr: Tr = english) -> str:
    """The text the filter field matches: a tensor's full name, kind (in English, and in the
    words shown when they differ), dtype and device; a module's full path (so a filter by
    device or dtype keeps only the tensors that match)."""
    row = node.row
    if row is None:
        return module_path(node)
    text = f"{row.name} {kind_text(row.kind)} {row.kind} {row.dtype} {row.device}"
    shown = kind_text(row.kind, tr)
    return text if shown == kind_text(row.kind) else f"{text} {shown}"


#: The item-data role whose text the filter field matches (``filter_text``): Qt's
#: ``Qt.ItemDataRole.UserRole + 1`` (256 + 1), written as a number to keep this module Qt-free.
FILTER_ROLE = 256 + 1


def filter_pattern(text: str) -> str:
    """Every word of ``text`` must appear (in any order, any case): ``cuda float16 weight``.

    A regular expression for Qt's (PCRE2) engine and for Python's ``re`` alike."""
    words = text.split()
    return "".join(f"(?=.*{_escape(w)})" for w in words) + ".*" if words else ""


def _escape(word: str) -> str:
    """``QRegularExpression.escape``, without Qt: all but [A-Za-z0-9_] behind a backslash, NUL as
    ``\\0`` (both engines read a backslashed non-alphanumeric as itself)."""
    return "".join(
        c if c == "_" or (c.isascii() and c.isalnum()) else "\\0" if c == "\0" else "\\" + c for c in word
    )


def widest_texts(placement: Placement, largest_module: int, has_grads: bool, tr: Tr = english) -> dict[int, list[str]]:
    """The few texts each sized column must fit (Size, Device, Dtype, Shape, Kind, Grad), in
    the words shown (``tr``): picked from the placement without formatting every row, so
    sizing a 10,000-tensor model is cheap."""
    rows = placement.tensors
    shapes = ["×".join(map(str, s)) if s else tr(SCALAR) for s in widest_shapes({r.shape for r in rows})]
    kinds = {kind_text(kind, tr) for kind in {r.kind for r in rows}}
    grads = [grad_text(True, True, tr), grad_text(False, True, tr)] if has_grads else []
    return {
        C.SIZE: ["888.8 MiB"]
        + ([tied_text("888.8 MiB", tr)] if any(r.shares_with and not r.is_view for r in rows) else [])
        + ([view_text("888.8 MiB", tr)] if any(r.is_view for r in rows) else []),
        C.DEVICE: [", ".join(placement.devices) or "cpu"],
        C.DTYPE: [", ".join(placement.totals.by_dtype) or "float32"],
        C.SHAPE: shapes,
        C.KIND: [*kinds, module_kind_text(largest_module, tr)],
        C.GRAD: [*grads, grad_text(True, False, tr), grad_text(False, False, tr)],
    }


def widest_shapes(shapes: Iterable[Shape]) -> list[Shape]:
    """The distinct shapes whose text is longest (digits and dimensions), without their text."""
    lengths = {shape: sum(len(str(d)) + 1 for d in shape) if shape else 6 for shape in shapes}
    longest = max(lengths.values(), default=0)
    return [shape for shape, length in lengths.items() if length == longest][:3]
