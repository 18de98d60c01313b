"""What each column of the parameter tree says about a row, with no Qt: the column titles, a
cell's text and tooltip, the sort key per column, the text the filter field matches (and the
pattern it matches with), and the widest texts a column must fit.

``parameter_model`` answers Qt's ``data()`` from these; tests read them without a
QApplication. Rows are ``parameter_tree`` nodes.
"""

from __future__ import annotations

from typing import Any, Callable

from inspector.core.placement.tensor_rows import size_text
from inspector.core.report.modules import format_flops
from inspector.core.units import format_bytes, format_ms
from inspector.gui.panels.parameter_tree import Node, PlacementTree, module_path

KIND_LABELS = {
    "parameter": "parameter",
    "buffer": "buffer",
    "grad": "gradient",
    "optimizer_state": "optimizer state",
}


class Columns:
    """The tree's columns by index, in the model's own order (the panel shows them in another)."""

    HEADERS = ("Name", "Kind", "Shape", "Dtype", "Device", "Size", "Grad", "Time", "% of forward", "Output shape", "FLOPs")
    NAME, KIND, SHAPE, DTYPE, DEVICE, SIZE, GRAD, TIME, SHARE, OUTPUT, FLOPS = range(11)
    #: The per-module columns: empty (and hidden by the panel) until a per-module run.
    MODULE_COLUMNS = (TIME, SHARE, OUTPUT, FLOPS)


C = Columns

#: Header tooltips: what a column means where its title cannot say it all.
HEADER_TIPS = {
    1: "What the row holds: a parameter, buffer, gradient or optimizer state; "
    "\"module (N)\" = a module and the N tensors under it.",
    6: "Grad, for a parameter: \"yes\" = requires_grad (training updates it), \"no\" = frozen; "
    "\"· has .grad\" = a backward pass left a gradient in it now (its .grad row is listed too). "
    "Gradients appear after a training step (Tools › Run one training step).",
    5: "Memory really allocated; tied tensors (shared storage) are counted once in the totals.",
}


def right_aligned(node: Node, column: int) -> bool:
    """Figures read right-aligned: sizes, and a module's time, share and FLOPs once measured."""
    return column == C.SIZE or (column in C.MODULE_COLUMNS and column != C.OUTPUT and node.stats is not None)


def cell_text(tree: PlacementTree, node: Node, column: int) -> str | None:
    """What the cell at ``column`` of ``node``'s row shows (None: nothing there)."""
    if column in C.MODULE_COLUMNS:
        return timing_text(node.stats, column)
    row = node.row
    if row is None:
        return module_text(node, column)
    if column == C.NAME:
        return node.name
    if column == C.KIND:
        return KIND_LABELS.get(row.kind, row.kind)
    if column == C.SHAPE:
        return "×".join(map(str, row.shape)) if row.shape else "scalar"
    if column == C.DTYPE:
        return row.dtype
    if column == C.DEVICE:
        return row.device
    if column == C.SIZE:
        return f"(tied) {size_text(row)}" if row.shares_with else size_text(row)
    if column == C.GRAD:
        if row.kind != "parameter":
            return ""
        trains = "yes" if row.requires_grad else "no"
        return f"{trains} · has .grad" if row.name in tree.with_grad else trains
    return None


def module_text(node: Any, column: int) -> str:
    """A module row's cell: its name, tensor count, dtypes, devices and bytes (tied once)."""
    if column == C.NAME:
        return node.name
    if column == C.KIND:  # (short: the Kind column stays narrow at 1024 px)
        return f"module ({node.count:,})"
    if column == C.DTYPE:
        return ", ".join(node.dtypes)
    if column == C.DEVICE:
        return ", ".join(node.devices)
    if column == C.SIZE:
        return format_bytes(node.bytes)
    return ""


def timing_text(stats: Any, column: int) -> str | None:
    """A per-module column's cell (None before a per-module run, and on tensor rows)."""
    if stats is None:
        return None
    if column == C.TIME:
        return format_ms(stats.median_ms)
    if column == C.SHARE:
        return f"{100 * stats.share:.1f} %"
    if column == C.OUTPUT:
        return shapes_text(stats.output_shapes)
    if column == C.FLOPS:
        return format_flops(stats.flops) if stats.flops else "0"
    return None


def tooltip_text(node: Node, column: int) -> str | None:
    """The cell's tooltip as plain text (the Qt model escapes it): a tensor's name, kind, size
    and storage on every cell; a module's path and totals on its name; timings in detail."""
    if column in C.MODULE_COLUMNS:
        return timing_tip(node.stats) if node.stats is not None else None
    row = node.row
    if row is None:
        if column != C.NAME:
            return None
        return f"{module_path(node) or '(model)'} — {node.count:,} tensors, {format_bytes(node.bytes)}"
    tip = f"{row.name} — {KIND_LABELS.get(row.kind, row.kind)}, {row.elements:,} elements on {row.device}"
    tip += storage_tip(row)
    if row.shares_with:
        tip += f"\nshares its storage with {row.shares_with} (counted once in the totals)"
    return tip


def timing_tip(stats: Any) -> str:
    speed = f", {format_flops(stats.flops_per_s, '/s')}" if stats.flops_per_s else ""
    calls = f", called {stats.calls}× per forward" if stats.calls != 1 else ""
    return (
        f"{stats.name or '(model)'} ({stats.type}) on {stats.device}{calls}\n"
        f"median {format_ms(stats.median_ms)} with its children, "
        f"{format_ms(stats.self_ms)} itself\n"
        f"{format_flops(stats.flops)}{speed}\n"
        f"outputs {format_bytes(stats.activation_bytes)} of new tensors; "
        f"parameters {format_bytes(stats.parameters_bytes)}"
    )


def storage_tip(row: Any) -> str:
    """"" for a dense tensor; otherwise a line saying what its storage holds."""
    storage = getattr(row, "storage", "dense")
    if storage == "meta":
        return f"\non the meta device: nothing allocated; {format_bytes(row.dense_bytes)} once materialised"
    if storage == "quantized":
        return f"\nquantized: {format_bytes(row.bytes)} of integer storage"
    if storage != "dense":
        return (f"\n{storage.replace('_', ' ')}: {format_bytes(row.bytes)} of indices and values "
                f"({format_bytes(row.dense_bytes)} if dense)")  # fmt: skip
    return ""


def shapes_text(shapes: Any) -> str:
    return ", ".join("×".join(map(str, s)) or "scalar" for s in shapes) or "—"


def sort_key(tree: PlacementTree, column: int) -> Callable[[Node], Any] | None:
    """How ``column`` orders rows: sizes and timings as numbers, names without case, the rest by
    their text; a row with nothing to show (key None) goes last. None: the model's own order."""
    if column < 0 or column >= len(C.HEADERS):
        return None
    figures = {
        C.TIME: lambda s: s.median_ms,
        C.SHARE: lambda s: s.share,
        C.FLOPS: lambda s: s.flops,
        C.OUTPUT: lambda s: shapes_text(s.output_shapes),
    }
    if column in figures:
        pick = figures[column]
        return lambda node: pick(node.stats) if node.stats is not None else None
    if column == C.SIZE:
        return lambda node: node.row.bytes if node.row is not None else node.bytes
    if column == C.NAME:
        return lambda node: node.name.lower()
    return lambda node: cell_text(tree, node, column) or None


def filter_text(node: Node) -> str:
    """The text the filter field matches: a tensor's full name, kind, dtype and device; a
    module's full path (so a filter by device or dtype keeps only the tensors that match)."""
    row = node.row
    if row is None:
        return module_path(node)
    return f"{row.name} {KIND_LABELS.get(row.kind, row.kind)} {row.kind} {row.dtype} {row.device}"


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


def widest_texts(placement: Any, largest_module: int, has_grads: bool) -> dict[int, list[str]]:
    """The few texts each sized column must fit (Size, Device, Dtype, Shape, Kind, Grad): picked
    from the placement without formatting every row, so sizing a 10,000-tensor model is cheap."""
    rows = placement.tensors
    shapes = ["×".join(map(str, s)) if s else "scalar" for s in widest_shapes({r.shape for r in rows})]
    kinds = {KIND_LABELS.get(kind, kind) for kind in {r.kind for r in rows}}
    return {
        C.SIZE: ["888.8 MiB"] + (["(tied) 888.8 MiB"] if any(r.shares_with for r in rows) else []),
        C.DEVICE: [", ".join(placement.devices) or "cpu"],
        C.DTYPE: [", ".join(placement.totals.by_dtype) or "float32"],
        C.SHAPE: shapes,
        C.KIND: [*kinds, f"module ({largest_module:,})"],
        C.GRAD: ["yes · has .grad" if has_grads else "yes"],
    }


def widest_shapes(shapes: Any) -> list[Any]:
    """The distinct shapes whose text is longest (digits and dimensions), without their text."""
    lengths = {shape: sum(len(str(d)) + 1 for d in shape) if shape else 6 for shape in shapes}
    longest = max(lengths.values(), default=0)
    return [shape for shape, length in lengths.items() if length == longest][:3]
