"""Why a real step's process peak (``process_peak``) differs from the estimate: which memory
the estimate does not count, found by one more real step, watched operator by operator.

The estimate counts the storages of tensors live at once. The process also holds memory no
tensor owns: what a kernel allocates for itself inside an operator (oneDNN's convolutions
copy their activations into its blocked layout, nChw16c, and back, inside
``aten.convolution`` and its backward), buffers Python code makes between operators (NumPy's),
and memory freed during the step that the C allocator keeps (glibc raises its mmap threshold
after a large free, so later tensors come from its heap, whose freed pages stay resident).

The diagnosis step runs under ``OperatorMemory``: before and after every aten operator it
reads the process's RSS and peak, and it hands freed memory back to the system after each one
(``malloc_trim``), so each stretch's allocations fault fresh pages in and show; it attributes
to each operator, and to each stretch of Python code between two, how far the RSS rose beyond
the tensors that stretch created. The measured peak less this step's peak is what the
allocator kept.

Costs: one more real step, run only when the gap is worth explaining (over 15 % and over
1 MiB), with two reads of ``/proc/self/status``, a write to ``clear_refs`` and a
``malloc_trim`` per operator (tens of microseconds each).
"""

from __future__ import annotations

from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from inspector.core.measure.process_peak import hand_back_freed_memory, read_rss, reset_peak
from inspector.core.messages import Text, joined
from inspector.core.placement.storage_counter import StorageCounter
from inspector.core.units import format_bytes

#: A gap is explained when the two differ by more than this share of the estimate...
GAP_SHARE = 0.15
#: ...and by more than this: below it, the process's own noise (Python objects, the autograd
#: graph, page granularity) is the same size as the step.
GAP_FLOOR = 1 << 20
#: A stretch is named when it rose at least this far beyond its tensors (and 10 % of the gap).
_NAMED_FLOOR = 256 << 10
_NAMED_AT_MOST = 3
# Operators oneDNN runs on the CPU with its own buffers (its blocked-layout copies).
_ONEDNN_OPERATORS = ("convolution", "mkldnn")


def worth_explaining(estimated: int, measured: int) -> bool:
    gap = abs(measured - estimated)
    return gap > GAP_FLOOR and gap > GAP_SHARE * max(estimated, 1)


class OperatorMemory(TorchDispatchMode):
    """Enter after ``counter`` (so it sees each operator first): the process's peak over the
    step above ``baseline`` (``peak``), and per stretch the RSS rise beyond its tensors
    (``outside``, keyed by (operator, inside it or Python code after it): the largest)."""

    def __init__(self, counter: StorageCounter, baseline: int, *, trim: bool = True) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # torch leaves it unannotated
        self.counter = counter
        self.baseline = baseline
        self.trim = trim
        self.peak = 0
        self.outside: dict[tuple[str, bool], int] = {}
        # The copy, the optimizer and the inputs were made before the first operator.
        self._rss, self._tensors, self._last = baseline, 0, ""

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        rss, high = read_rss()
        self._note(self._last or "", False, high - self._rss, self.counter.current - self._tensors, high)
        reset_peak()
        tensors = self.counter.current
        out = func(*args, **(kwargs or {}))
        after, high = read_rss()
        name = str(getattr(func, "__name__", func))
        name = f"aten.{name}" if getattr(func, "namespace", "") == "aten" else name
        self._note(name, True, high - rss, self.counter.current - tensors, high)
        if self.trim:
            hand_back_freed_memory()
            after, _ = read_rss()
        reset_peak()
        self._rss, self._tensors, self._last = after, self.counter.current, name
        return out

    def finish(self) -> None:
        """The stretch after the last operator (the step's end)."""
        _, high = read_rss()
        self._note(self._last, False, high - self._rss, self.counter.current - self._tensors, high)

    def _note(self, label: str, inside: bool, rise: int, tensors_added: int, high: int) -> None:
        self.peak = max(self.peak, high - self.baseline)
        beyond = rise - max(0, tensors_added)
        key = (label, inside)
        if beyond > self.outside.get(key, 0):
            self.outside[key] = beyond


def explain(estimated: int, measured: int, watched: OperatorMemory | None, trimmed: bool) -> Text:
    """The finding: how far apart the two are, and which memory the estimate does not count."""
    gap = measured - estimated
    percent = f"{100 * gap / max(estimated, 1):+.0f} %"
    if gap < 0:
        return Text("fit.gap_below", gap=format_bytes(-gap), percent=percent)
    parts: list[str] = []
    if watched is not None and trimmed:
        kept = measured - watched.peak
        if kept > max(_NAMED_FLOOR, gap // 10):
            parts.append(Text("fit.gap_kept_by_allocator", size=format_bytes(kept), peak=format_bytes(watched.peak)))
    if watched is not None:
        named = sorted(watched.outside.items(), key=lambda item: -item[1])
        for (label, inside), size in named[:_NAMED_AT_MOST]:
            if size < max(_NAMED_FLOOR, gap // 10):
                break
            parts.append(_stretch_text(label, inside, size))
    if not parts:
        parts.append(Text("fit.gap_unattributed"))
    return Text("fit.gap_above", gap=format_bytes(gap), percent=percent, parts=joined(parts, "list.semicolon"))


def _stretch_text(label: str, inside: bool, size: int) -> Text:
    if not inside:
        if not label:
            return Text("fit.gap_before_first", size=format_bytes(size))
        return Text("fit.gap_python", size=format_bytes(size), op=label)
    if torch.backends.mkldnn.is_available() and torch.backends.mkldnn.enabled and any(
        word in label for word in _ONEDNN_OPERATORS
    ):
        return Text("fit.gap_onednn", size=format_bytes(size), op=label)
    return Text("fit.gap_inside", size=format_bytes(size), op=label)
