"""What the static trust check adds to opening a file: its time against PyTorch's own load.

    PYTHONPATH=. python3 benchmarks/trust_check_cost.py

Prints, for a scripted nn.Transformer and an exported 300-layer MLP (dynamic batch), the
best-of-N time of ``torchscript_risks`` / ``exported_program_risks`` and of
``torch.jit.load`` / ``torch.export.load`` on the same file, and their ratio. The check
runs before every untrusted load, so it should stay a small fraction of the load.
"""

from __future__ import annotations

import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import torch
from torch import nn

from inspector.core.files.trust import exported_program_risks, torchscript_risks


def best(call: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    warnings.simplefilter("ignore")
    folder = Path(tempfile.mkdtemp())
    scripted, exported = folder / "transformer.pt", folder / "mlp.pt2"
    torch.jit.script(nn.Transformer().eval()).save(str(scripted))
    mlp = nn.Sequential(*[nn.Linear(64, 64) for _ in range(300)]).eval()
    program = torch.export.export(mlp, (torch.randn(2, 64),), dynamic_shapes=({0: torch.export.Dim("b")},))
    torch.export.save(program, str(exported))
    cases = [
        ("scripted nn.Transformer", lambda: torchscript_risks(scripted), lambda: torch.jit.load(str(scripted))),
        ("exported 300-layer MLP", lambda: exported_program_risks(exported), lambda: torch.export.load(str(exported))),
    ]
    for name, check, load in cases:
        # Alternate check and load so a busy machine slows both alike.
        check_s = min(best(check, 3), best(check, 3))
        load_s = best(load, 3)
        check_s = min(check_s, best(check, 3))
        print(f"{name}: static check {check_s * 1e3:.1f} ms, PyTorch load {load_s * 1e3:.1f} ms, ratio {check_s / load_s:.3f}")


if __name__ == "__main__":
    main()
