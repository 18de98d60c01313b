"""The cuBLAS workspace PyTorch allocates on the GPU planned for, by its architecture.

PyTorch's rule (aten/src/ATen/cuda/CublasHandlePool.cpp, ``parseChosenWorkspaceSize``, with
``CUBLAS_WORKSPACE_CONFIG`` unset): ``:4096:8`` = 32 MiB on compute capability 9.0 (Hopper:
H100, H200), ``:4096:2:16:8`` = 8 MiB + 128 KiB on every other card. One workspace per cuBLAS
handle and stream, allocated through the caching allocator. The presets' compute capabilities
are NVIDIA's (https://developer.nvidia.com/cuda-gpus); a capacity that names no card gets the
larger, said as such (an RTX 4090, Ada 8.9, was told "Hopper"; issue 45 item 4).
"""

from __future__ import annotations

from inspector.core.messages import Text
from inspector.core.units import format_bytes

HOPPER_BYTES = 4096 * 1024 * 8  # ":4096:8"
OTHER_BYTES = 4096 * 1024 * 2 + 16 * 1024 * 8  # ":4096:2:16:8"
#: Preset name -> (compute capability, architecture), as NVIDIA lists them.
ARCHITECTURES: dict[str, tuple[tuple[int, int], str]] = {
    "RTX 3090": ((8, 6), "Ampere"),
    "RTX 4090": ((8, 9), "Ada Lovelace"),
    "RTX 5090": ((12, 0), "Blackwell"),
    "A100-40GB": ((8, 0), "Ampere"),
    "A100-80GB": ((8, 0), "Ampere"),
    "H100-80GB": ((9, 0), "Hopper"),
    "H200": ((9, 0), "Hopper"),
    "L4": ((8, 9), "Ada Lovelace"),
    "T4": ((7, 5), "Turing"),
    "A10G": ((8, 6), "Ampere"),
}


def workspace_bytes(gpu: str | None) -> int:
    """One workspace's bytes on the preset ``gpu``; the larger (Hopper's) for a card not known."""
    known = ARCHITECTURES.get(gpu or "")
    if known is None:
        return HOPPER_BYTES
    return HOPPER_BYTES if known[0] == (9, 0) else OTHER_BYTES


def allowance(gpu: str | None, handles: int) -> Text:
    """The allowance's words: the size, and the rule that gives it for ``gpu``."""
    size = format_bytes(workspace_bytes(gpu))
    known = ARCHITECTURES.get(gpu or "")
    if known is None:
        return Text("fit.allowance_cublas", count=handles, size=size)
    (major, minor), architecture = known
    rule = "4096 KiB x 8" if (major, minor) == (9, 0) else "4096 KiB x 2 + 16 KiB x 8"
    return Text("fit.allowance_cublas_for", count=handles, size=size, gpu=gpu, architecture=architecture,
                capability=f"{major}.{minor}", rule=rule)  # fmt: skip
