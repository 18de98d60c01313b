"""How long "will it fit?" takes on models of many small tensors, before and after.

    PYTHONPATH=. python3 benchmarks/fit_scale.py [--sizes 1000,5000,10000] [--before 71e6cf8]

Each model is ``Sequential`` of N/2 ``Linear(2, 2)`` (N tensors), Adam, train step, input 4x2,
on the CPU. For each size the estimate (fake step) and the proof (one real step, counted by
torch.profiler) are timed for this checkout's ``inspector/core/measure/fit.py`` (with its
``fit_step.py`` and ``fit_proof.py``) and, with ``--before COMMIT``, for that commit's
single-file ``fit.py`` (loaded from ``git show``; it must import only what this checkout still
has: 71e6cf8, the version that ran the estimate under MemTracker, predates the core's
sub-packages), alternating which goes first. The machine may be shared:
compare the two columns of one run, not figures across runs. The estimates of both must be
equal (printed).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
from torch import nn

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from inspector.core.measure import fit as current  # noqa: E402
from inspector.core.measure import fit_estimate, fit_proof, fit_step  # noqa: E402
from inspector.core.files.models import LoadedModel  # noqa: E402


def load_fit_at(commit: str) -> ModuleType:
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:inspector/core/measure/fit.py"],
                            capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "fit_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("fit_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fit_before"] = module
    spec.loader.exec_module(module)
    return module


def time_one(fit: ModuleType, loaded: LoadedModel) -> tuple[float, float, Any, Any]:
    request = fit.FitRequest(device="cpu", optimizer="adam", mode="train-step")
    cpu = torch.device("cpu")
    if fit is current:
        templates = fit_step.input_templates(loaded, None)
    else:  # a single-file fit.py from before the split
        templates = fit._input_templates(loaded, None)
    start = time.perf_counter()
    trace = fit_estimate.estimate_step if fit is current else fit._estimate  # the traced step since fit.py's split
    estimate = trace(loaded, device=cpu, dtype=torch.float32, request=request, templates=templates)
    estimated = time.perf_counter() - start
    start = time.perf_counter()
    if fit is current:
        measured, _ = fit_proof.measure_peak(loaded, cpu, torch.float32, request.optimizer, request.mode, templates)
    else:
        measured, _ = fit._measure(loaded, cpu, torch.float32, request, templates)
    proved = time.perf_counter() - start
    return estimated, proved, estimate, measured


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--before", default=None, help="a commit whose fit.py to time too (e.g. 71e6cf8)")
    args = parser.parse_args()
    impls: list[tuple[str, ModuleType]] = [("after", current)]
    if args.before:
        impls.append((f"before ({args.before})", load_fit_at(args.before)))
    from torch._subclasses.fake_tensor import FakeTensorMode

    FakeTensorMode()  # its first use imports torch._dynamo (~2 s once): not the model's cost
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; Adam, train step, input 4x2, cpu\n")
    print("| tensors | version | estimate s | proof s | total s | estimated peak | measured peak |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for i, n in enumerate(int(s) for s in args.sizes.split(",")):
        torch.manual_seed(0)
        loaded = LoadedModel(spec=f"{n}", module=nn.Sequential(*[nn.Linear(2, 2) for _ in range(n // 2)]),
                             example_input=torch.randn(4, 2))
        order = impls if i % 2 == 0 else impls[::-1]
        for name, fit in order:
            estimated, proved, estimate, measured = time_one(fit, loaded)
            print(f"| {n:,} | {name} | {estimated:.1f} | {proved:.1f} | {estimated + proved:.1f} | "
                  f"{estimate.peak:,} | {measured:,} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
