"""The parameter panel's rows as a plain tree: modules nest by their dotted path, tensors hang
under their module. No Qt here: ``parameter_model`` puts a ``QAbstractItemModel`` over it,
and tests build it without a QApplication.

Built, re-sorted and re-counted in O(tensors) (a model of 100,000 tensors makes 100,000
``TensorLeaf``\\ s and no widget). The texts each column shows are ``parameter_cells``'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from inspector.core import gc_pause

if TYPE_CHECKING:
    from inspector.core.measure import Attribution, ModuleStats
    from inspector.core.placement import Placement, TensorRow

#: A child added under a module comes back as what it was (a module or a tensor).
_Child = TypeVar("_Child", "ModuleNode", "TensorLeaf")


class ModuleNode:
    """A module: its children (modules and tensors) and what they hold in total."""

    __slots__ = ("name", "parent", "index", "seq", "children", "count", "bytes", "devices", "dtypes", "stats")
    row: None = None  # a module has no TensorRow

    def __init__(self, name: str, parent: "ModuleNode | None") -> None:
        self.name = name
        self.parent = parent
        self.index = 0  # position among the parent's children
        self.seq = 0  # position in the model's own order (sorting by no column restores it)
        self.stats: ModuleStats | None = None  # after a per-module run
        self.children: list[ModuleNode | TensorLeaf] = []
        self.count = 0
        self.bytes = 0
        self.devices: dict[str, None] = {}  # ordered sets
        self.dtypes: dict[str, None] = {}

    def add(self, child: _Child) -> _Child:
        child.index = child.seq = len(self.children)
        self.children.append(child)
        return child


class TensorLeaf:
    """One tensor row. Kept small: a model of 100,000 tensors makes 100,000 of these."""

    __slots__ = ("name", "parent", "index", "seq", "row")
    children: tuple[()] = ()
    stats: None = None

    def __init__(self, name: str, parent: ModuleNode, row: TensorRow) -> None:
        self.name = name
        self.parent = parent
        self.index = 0
        self.seq = 0
        self.row = row


Node = ModuleNode | TensorLeaf


def tree_parent(row: TensorRow) -> str:
    """The module a row belongs under. Gradients go with their parameter's module."""
    if row.kind == "grad":
        return row.name.removesuffix(".grad").rpartition(".")[0]
    return row.module


def module_path(node: Node | None) -> str:
    """The dotted path of a module node ("" for the model itself)."""
    parts = []
    while node is not None and node.parent is not None:
        parts.append(node.name)
        node = node.parent
    return ".".join(reversed(parts))


class PlacementTree:
    """The node tree of a placement: modules nest by their dotted path. Built in O(tensors)."""

    def __init__(self, placement: Placement) -> None:
        self.root = ModuleNode("", None)
        self.leaves: list[TensorLeaf] = []
        self.modules: list[ModuleNode] = []  # creation order: every parent before its children
        by_path: dict[str, ModuleNode] = {"": self.root}
        self.by_path = by_path
        with gc_pause.paused():
            for row in placement.tensors:
                path = tree_parent(row)
                parent = by_path.get(path)
                if parent is None:
                    parent = self._module(path, by_path)
                leaf_name = row.name[len(path) + 1 :] if path else row.name
                self.leaves.append(parent.add(TensorLeaf(leaf_name, parent, row)))
            self.names = tuple(r.name for r in placement.tensors)
            self._note_grads(placement)
            self.aggregate()

    def _module(self, path: str, by_path: dict[str, ModuleNode]) -> ModuleNode:
        parent_path, _, name = path.rpartition(".")
        parent = by_path.get(parent_path)
        if parent is None:
            parent = self._module(parent_path, by_path)
        node = by_path[path] = parent.add(ModuleNode(name, parent))
        self.modules.append(node)
        return node

    def largest_module(self) -> int:
        """The most tensors one module row counts (its Kind cell says "module (N)")."""
        return max((node.count for node in self.modules), default=0)

    def find(self, name: str) -> TensorLeaf | None:
        """The leaf of the tensor called ``name``, or None."""
        for leaf in self.leaves:
            if leaf.row.name == name:
                return leaf
        return None

    def attach(self, attribution: Attribution) -> None:
        """Per-module figures onto the module rows; a module without tensors (a ReLU, a
        Dropout) gets a row of its own, so its time shows too."""
        for node in (self.root, *self.modules):
            node.stats = None
        added = False
        for stats in attribution.modules:
            module = self.by_path.get(stats.name)
            if module is None:
                module = self._module(stats.name, self.by_path)
                added = True
            module.stats = stats
        if added:
            self._reorder(getattr(attribution, "module_order", ()))

    def _reorder(self, module_order: Sequence[str]) -> None:
        """Put added modules where the model defines them: a module's own tensors first (as
        ``named_parameters`` lists them), then its submodules in ``named_modules`` order."""
        rank = {name: i for i, name in enumerate(module_order)}
        path_of = {id(node): path for path, node in self.by_path.items()}
        last = len(rank)

        def key(child: Node) -> tuple[int, int, int]:
            if isinstance(child, TensorLeaf):
                return (0, child.seq, 0)
            return (1, rank.get(path_of.get(id(child), ""), last), child.seq)

        for node in (self.root, *self.modules):
            node.children.sort(key=key)
            for i, child in enumerate(node.children):
                child.index = child.seq = i

    def sort(self, key: Callable[[Node], Any] | None, descending: bool) -> None:
        """Order every module's children by ``key(node)`` (None sorts last either way);
        ``key`` None restores the model's own order."""
        nodes = [self.root, *self.modules]
        for node in nodes:
            children = node.children
            if key is None:
                children.sort(key=lambda c: c.seq)
            else:
                keyed = [(key(c), c) for c in children]
                present = sorted((kc for kc in keyed if kc[0] is not None), key=lambda kc: kc[0], reverse=descending)
                node.children = [c for _, c in present] + [c for k, c in keyed if k is None]
            for i, child in enumerate(node.children):
                child.index = i

    def update_rows(self, placement: Placement) -> None:
        """Same tensors, new facts (after a move): swap the rows in, keep the nodes."""
        for leaf, row in zip(self.leaves, placement.tensors):
            leaf.row = row
        self._note_grads(placement)
        self.aggregate()

    def _note_grads(self, placement: Placement) -> None:
        """Parameters that hold a gradient now (their "<name>.grad" row exists)."""
        self.with_grad = {r.name.removesuffix(".grad") for r in placement.tensors if r.kind == "grad"}

    def aggregate(self) -> None:
        """Count, bytes, devices and dtypes per module (shared storage counted once)."""
        for node in (self.root, *self.modules):
            node.count = node.bytes = 0
            node.devices, node.dtypes = {}, {}
        for leaf in self.leaves:
            row, parent = leaf.row, leaf.parent
            parent.devices[row.device] = None
            parent.dtypes[row.dtype] = None
            if row.shares_with is None:  # shared memory counts once, on its first tensor
                parent.count += 1
                parent.bytes += row.counted_bytes
        for node in reversed(self.modules):  # children before parents
            above = node.parent
            assert above is not None  # only the root has none, and it is not in self.modules
            above.count += node.count
            above.bytes += node.bytes
            above.devices.update(node.devices)
            above.dtypes.update(node.dtypes)
