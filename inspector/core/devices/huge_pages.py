"""Transparent huge pages for PyTorch's large CPU tensors, asked for before torch allocates.

A move keeps the originals until it succeeds (the price of an exact rollback), so its copies
land in memory the process has not touched yet, where a plain ``Module.to`` reuses each
original it frees. With 4 KiB pages, a float64 cast of a 400 MiB model then takes ~100,000
more page faults than the plain call, and measured 1.5-2x its time (``benchmarks/
move_overhead.py``). PyTorch's CPU allocator has a switch for this: with
``THP_MEM_ALLOC_ENABLE=1`` it aligns tensors of 2 MiB or more to 2 MiB and asks the kernel
for huge pages there (``c10/core/alloc_cpu.cpp``), 512x fewer faults for plain and
transactional moves alike. The allocator reads the variable once, at its first large
allocation, so the app's entry points set it first thing; a user's own value (``=0`` to
turn it off) is kept. Memory cost: a large tensor's last huge page may be partly unused.
"""

from __future__ import annotations

import os
from pathlib import Path

from inspector.core.devices import host_files
from inspector.core.messages import Text

ENV = "THP_MEM_ALLOC_ENABLE"
_KERNEL_SETTING = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def prefer_huge_pages() -> None:
    """Ask torch's CPU allocator for huge pages, unless the user's environment says otherwise."""
    os.environ.setdefault(ENV, "1")


def kernel_mode(setting: Path | None = None) -> str | None:
    """The kernel's THP mode (``always``, ``madvise`` or ``never``); None where there is none."""
    try:
        text = host_files.read_text(setting or _KERNEL_SETTING)
    except OSError:  # not Linux, or a kernel without THP
        return None
    for word in text.split():
        if word.startswith("[") and word.endswith("]"):
            return word[1:-1]
    return None


def huge_pages_state() -> str:
    """One line for benchmarks and reports: whether large CPU tensors get huge pages (a
    ``Text``: a report in another language says it in that language)."""
    mode = kernel_mode()
    value = os.environ.get(ENV, "")
    if mode is None:
        return Text("device.huge_pages_unavailable")
    if mode == "never":
        return Text("device.huge_pages_kernel_never")
    # torch reads only "1" as on ("0" off; anything else: a warning, and off). The value
    # itself is never echoed: it is the user's text, and this line goes into reports.
    if value != "1" and mode != "always":
        why = {"": Text("device.huge_pages_not_set", variable=ENV), "0": f"{ENV}=0"}.get(value) or Text("device.huge_pages_neither", variable=ENV)
        return Text("device.huge_pages_off", why=why)
    return Text("device.huge_pages_on", mode=mode)
