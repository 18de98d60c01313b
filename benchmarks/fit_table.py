"""Estimate vs measured peak of one step: the table of the "will it fit?" proof.

    PYTHONPATH=. python3 benchmarks/fit_table.py [--device cpu|cuda:0] [--small]

For the example Net, an MLP and a Transformer, in float32 and bfloat16, forward and
train-step (Adam): the estimate (FakeTensorMode + MemTracker, nothing allocated) next to one
real step's measured peak (CUDA: torch.cuda.max_memory_allocated; CPU: the process's peak
RSS over the step, baseline removed), and their ratio; below the table, each CPU gap over
15 % with what the estimate does not count. gpu_check.py calls ``table()`` on cuda:0 and
wants every ratio within 15 %.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.measure.fit import FitRequest, FitResult, estimate_fit  # noqa: E402
from inspector.core.files.models import LoadedModel, example_model  # noqa: E402
from inspector.core.units import format_bytes  # noqa: E402


def cases(small: bool) -> list[tuple[str, LoadedModel, tuple[tuple[tuple[int, ...], None], ...] | None]]:
    width = 512 if small else 4096
    mlp = nn.Sequential(nn.Linear(width // 4, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width // 4))
    d_model = 64 if small else 512
    tr = nn.Transformer(d_model=d_model, nhead=4 if small else 8, num_encoder_layers=2 if small else 6,
                        num_decoder_layers=2 if small else 6, dim_feedforward=4 * d_model)
    batch = 16 if small else 32
    return [
        ("example", example_model(), None),
        ("MLP", LoadedModel(spec="mlp", module=mlp), (((64 if small else 256, width // 4), None),)),
        ("Transformer", LoadedModel(spec="transformer", module=tr),
         (((10, batch, d_model), None), ((20, batch, d_model), None))),
    ]


def table(device: str, *, small: bool = False) -> list[tuple[str, FitResult]]:
    rows: list[tuple[str, FitResult]] = []
    for name, loaded, inputs in cases(small):
        for dtype in ("float32", "bfloat16"):
            for mode in ("forward", "train-step"):
                optimizer = "adam" if mode == "train-step" else "none"
                request = FitRequest(device=device, dtype=dtype, optimizer=optimizer, mode=mode, inputs=inputs)
                rows.append((name, estimate_fit(loaded, request)))
    return rows


def print_table(rows: list[tuple[str, FitResult]]) -> None:
    print("| model | dtype | mode | optimizer | estimated peak | measured peak | measured / estimated |")
    print("|---|---|---|---|---:|---:|---:|")
    for name, r in rows:
        ratio = f"{r.ratio:.3f}" if r.ratio is not None else f"— ({r.measured_reason})"
        measured = f" ({r.measured_peak_bytes:,} B)" if r.measured_peak_bytes is not None else ""
        print(f"| {name} | {r.dtype} | {r.mode} | {r.optimizer} | {format_bytes(r.estimated_peak_bytes)} "
              f"({r.estimated_peak_bytes:,} B) | {format_bytes(r.measured_peak_bytes)}{measured} | {ratio} |")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:0" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--small", action="store_true", help="smaller MLP and Transformer (a loaded CPU)")
    args = parser.parse_args()
    start = time.perf_counter()
    rows = table(args.device, small=args.small)
    print(f"torch {torch.__version__}, device {args.device}, {time.perf_counter() - start:.1f} s\n")
    print_table(rows)
    for name, r in rows:
        if r.measured_gap:
            print(f"\n{name}, {r.dtype}, {r.mode}: {r.measured_gap}")
    outside = [(n, r) for n, r in rows if r.ratio is None or not 0.85 <= r.ratio <= 1.15]
    print(f"\n{len(rows) - len(outside)} of {len(rows)} within 15 %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
