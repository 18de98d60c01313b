"""Every CUDA path of the core and the headless CLI, with the figures they print.

Run on a machine with a CUDA GPU (no Qt needed):

    PYTHONPATH=. python3 benchmarks/gpu_check.py [--out DIR]

The app's pure-Python runtime dependencies that a bare CUDA machine may lack (safetensors,
prometheus_client) travel as wheels: ``pip download --only-binary=:all: --python-version 3.12
-d shared/wheels safetensors prometheus_client`` here, then ``pip install --no-index
shared/wheels/*.whl`` there before the run.

Checks (each prints PASS/FAIL and its figures): device discovery against torch's own
readings; moves with .to(), .cuda() and .cpu() (and a bf16 cast) keeping every tensor
bitwise equal; a move that runs out of GPU memory on purpose and rolls back; latency (each
sample timed by CUDA events) next to torch.utils.benchmark for the example Net and a 256 MiB
MLP, float32 and bfloat16 (the ratios printed, target within 5 %); host->GPU GB/s next to a raw tensor.to("cuda") of the same bytes,
pageable and pinned; an LSTM whose move to and cast on the GPU are cancelled at every tensor
(cuDNN's flat weights: rolled back, the forward bitwise as before); the CLI's devices /
inspect / bench commands; bench --memory-snapshot read back with torch.cuda._memory_viz,
--trace, devices --prometheus, and a torchrun run; sparse and complex sizes on the GPU, and a
failed run leaving an earlier report intact; "will it fit?": the estimated peak of one step
next to the measured one (example, MLP, Transformer; float32 and bfloat16; forward and
train-step), each within 15 %; per-module attribution on cuda:0 (FLOPs equal
FlopCounterMode's, the hooks' overhead printed); the remote session's agent driven through a
local pipe with Qt made unimportable in it (list devices, move to cuda:0, benchmark, an
out-of-memory move rolled back in the agent).

Memory that shows the model (issue 13): after a move to cuda:0 the session's record of the
model's own bytes drops to 0 on the CPU and equals the model's bytes on the GPU, next to the
allocator's allocated/reserved and NVML's other-processes figure (``check_model_memory``).

The LSTM check's logic and the latency comparison also run on the CPU
(``lstm_rollback("cpu")``, ``latency_vs_timer("cpu", ...)``, which the test suite runs), so
they are known to be sane before a GPU machine is lent.
The agent's logic runs on the CPU too (``agent_pipe("cpu")``, a slow-marked test).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import torch
from torch import nn

if TYPE_CHECKING:
    from latency_fidelity import Fidelity

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.devices import discovery as devices  # noqa: E402
from inspector.core.devices.inventory import discover_devices  # noqa: E402
from inspector.core.placement import tensor_rows as placement
from inspector.core.files.models import LoadedModel, example_model  # noqa: E402
from inspector.core.moves import seam  # noqa: E402
from inspector.core.moves.request import MoveRequest  # noqa: E402
from inspector.core.moves.transaction import move_model  # noqa: E402
from inspector.core.measure.timing import measure_latency  # noqa: E402

GiB = 1024**3
RESULTS: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, figures: str = "") -> None:
    RESULTS.append((name, ok, figures))
    print(f"[{'PASS' if ok else 'FAIL'}] {name}" + (f": {figures}" if figures else ""), flush=True)


def mlp(mib: int, width: int = 4096) -> nn.Module:
    """An MLP of about `mib` MiB float32, with a BatchNorm so buffers travel too."""
    per_layer = width * width * 4
    layers = max(1, mib * 2**20 // per_layer)
    mods: list[nn.Module] = [nn.BatchNorm1d(width)]
    for _ in range(layers):
        mods += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*mods)


def state(module: nn.Module) -> dict[str, torch.Tensor]:
    return {k: v.detach().to("cpu", copy=True) for k, v in module.state_dict().items()}


def same_state(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and torch.equal(a[k], b[k]) for k in a)


def check_discovery() -> None:
    inv = discover_devices()
    print(json.dumps(inv.to_dict(), indent=1)[:3000])
    gpus = [d for d in inv.devices if d.type == "cuda"]
    check("discovery lists every CUDA device", len(gpus) == torch.cuda.device_count(), f"{[d.name for d in gpus]}")
    keep = torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda:0")
    r = devices.memory_reading("cuda:0")
    free, total = torch.cuda.mem_get_info(0)
    alloc = torch.cuda.memory_allocated(0)
    check(
        "memory reading matches torch.cuda (allocated exact, used within 64 MiB)",
        r.allocated == alloc and r.total == total and abs(r.used - (total - free)) < 64 * 2**20,
        f"allocated {r.allocated} vs {alloc}, used {r.used} vs {total - free}, total {total}",
    )
    del keep


def check_methods() -> None:
    loaded = example_model()
    loaded.module(loaded.example_input).sum().backward()
    before = state(loaded.module)
    for request, want in [
        (MoveRequest("to", device="cuda:0"), "cuda:0"),
        (MoveRequest("cpu"), "cpu"),
        (MoveRequest("cuda"), "cuda:0"),
        (MoveRequest("to", device="cuda:0", dtype="bfloat16"), "cuda:0"),
        (MoveRequest("to", device="cpu", dtype="float32"), "cpu"),
    ]:
        res = move_model(loaded, request)
        where = {r.device for r in placement.snapshot(loaded).tensors if r.kind != "optimizer_state"}
        check(f"{res.call}", res.ok and where == {want}, f"{res.seconds * 1e3:.3f} ms, {res.bytes} B, devices now {where}")
    # fp32 -> bf16 -> fp32 is lossy by design, so compare a pure device round trip instead:
    loaded2 = example_model()
    s0 = state(loaded2.module)
    move_model(loaded2, MoveRequest("cuda"))
    move_model(loaded2, MoveRequest("cpu"))
    check("cuda() then cpu() keeps values bitwise", same_state(s0, state(loaded2.module)))
    del before


def check_oom_rollback() -> None:
    model = mlp(2048)  # ~2 GiB
    loaded = LoadedModel("mlp-2GiB", model, torch.optim.SGD(model.parameters(), lr=0.01), torch.randn(8, 4096), "factory")
    before = state(model)
    params_before = [id(p) for p in model.parameters()]
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info(0)
    hog = torch.empty(free - GiB, dtype=torch.uint8, device="cuda:0")  # leave ~1 GiB: the move needs 2
    alloc_with_hog = torch.cuda.memory_allocated(0)
    res = move_model(loaded, MoveRequest("to", device="cuda:0"))
    where = {r.device for r in placement.snapshot(loaded).tensors}
    ok = (
        not res.ok
        and res.error is not None
        and res.error.kind == "oom"
        and where == {"cpu"}
        and same_state(before, state(model))
        and [id(p) for p in model.parameters()] == params_before
        and torch.cuda.memory_allocated(0) == alloc_with_hog
    )
    check("out-of-memory move rolls back", ok, f"error: {res.error.message if res.error else None}; devices {where}")
    del hog
    torch.cuda.empty_cache()
    loaded.optimizer.zero_grad()
    model(torch.randn(8, 4096)).sum().backward()
    weight = model[1].weight
    before_step = weight.detach().clone()
    loaded.optimizer.step()
    check("optimizer still steps after the rollback", not torch.equal(before_step, weight.detach()))


def lstm_rollback(device: str) -> list[tuple[str, bool, str]]:
    """Cancel an LSTM's moves at every tensor; after each, it must be exactly as before.

    Two moves, each cancelled before tensor k for every k: onto ``device`` (from the CPU),
    then, once there, a float64 cast on ``device``. On CUDA the LSTM's weights live in one
    cuDNN buffer (``flatten_parameters``): the rollback must leave them there, so the
    forward runs without "weights are not part of single contiguous chunk" and gives the
    bitwise same output. Returns (name, ok, figures) per check.
    """
    import warnings

    torch.manual_seed(0)
    model = nn.LSTM(8, 16, num_layers=2)
    x = torch.randn(5, 3, 8)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    model(x)[0].square().mean().backward()
    opt.step()
    model(x)[0].square().mean().backward()  # grads left in place
    loaded = LoadedModel("lstm", model, opt, x, "factory")
    results: list[tuple[str, bool, str]] = []
    previous = seam.CHECK_INTERVAL_S
    seam.CHECK_INTERVAL_S = 0.0  # a cancel check before every tensor
    try:
        for label, request in (
            (f"to {device}", MoveRequest("to", device)),
            (f"float64 cast on {device}", MoveRequest("to", device, "float64")),
        ):
            if label.startswith("float64"):
                assert move_model(loaded, MoveRequest("to", device)).ok
            params = list(model.parameters())
            flat = list(model._flat_weights)
            with torch.no_grad():
                expected = model(loaded.example_input)[0].clone()
            pointers = [p.data_ptr() for p in params]
            if device.startswith("cuda"):
                torch.cuda.synchronize()
            allocated = torch.cuda.memory_allocated() if device.startswith("cuda") else 0
            count = len(params) * 2  # parameters and their grads
            failures = []
            for k in range(count):
                asked: list[int] = []
                res = move_model(loaded, request, should_cancel=lambda: asked.append(1) or len(asked) == k + 1)
                with warnings.catch_warnings():
                    warnings.simplefilter("error")  # the "not contiguous" warning fails the check
                    with torch.no_grad():
                        got = model(loaded.example_input)[0]
                same = (
                    res.error is not None
                    and res.error.kind == "cancelled"
                    and list(model.parameters()) == params
                    and all(a is b for a, b in zip(model.parameters(), params))
                    and all(a is b for a, b in zip(model._flat_weights, flat))
                    and [p.data_ptr() for p in params] == pointers
                    and got.dtype == expected.dtype
                    and torch.equal(got, expected)
                )
                del got, res
                if device.startswith("cuda"):
                    torch.cuda.synchronize()
                    same = same and torch.cuda.memory_allocated() == allocated
                if not same:
                    failures.append(k)
            results.append(
                (
                    f"LSTM {label} cancelled at each of {count} tensors rolls back exactly",
                    not failures,
                    f"failed at k={failures}" if failures else f"{count} rollbacks, forward bitwise equal each time",
                )
            )
        opt.zero_grad()
        model(loaded.example_input)[0].square().mean().backward()
        before = model.weight_ih_l0.detach().clone()
        opt.step()
        results.append(("LSTM optimizer still steps after the rollbacks", not torch.equal(before, model.weight_ih_l0.detach()), ""))
    finally:
        seam.CHECK_INTERVAL_S = previous
    return results


def check_lstm_rollback() -> None:
    for name, ok, figures in lstm_rollback("cuda:0"):
        check(name, ok, figures)


def latency_vs_timer(device: str, *, min_time: float = 1.0, rounds: int = 5, dtypes: tuple[str, ...] = ("float32", "bfloat16"),
                     mlp_mib: int = 256, width: int = 4096) -> list[tuple[str, Fidelity, str]]:
    """Our timing against ``torch.utils.benchmark.Timer``'s for the example Net and a large MLP
    on ``device``: (label, the ratios over alternating rounds, what timed our samples).
    ``Fidelity.blocks`` compares like with like (both as medians of block means),
    ``Fidelity.median`` our median of single calls with the Timer's figure (see
    latency_fidelity.py for why both).

    The reference is ``Timer("model(x)")`` with the same input and ``num_threads``, under
    ``torch.inference_mode()`` in eval mode, ``blocked_autorange`` (on CUDA its clock
    synchronises at block boundaries only, never around each call). Ours times every sample
    with device events on CUDA/XPU. Runs on the CPU too (the test suite does, briefly), so its
    logic is known to be sane before a GPU machine is lent.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from latency_fidelity import compare

    out = []
    for label, make in (
        ("example Net", lambda: example_model()),
        (f"MLP {mlp_mib} MiB", lambda: LoadedModel(f"mlp-{mlp_mib}MiB", mlp(mlp_mib, width), None, torch.randn(64, width), "factory")),
    ):
        loaded = make()
        for dtype in dtypes:
            move_model(loaded, MoveRequest("to", device=device, dtype=dtype))
            timer = measure_latency(loaded, runs=3).timer
            fidelity = compare(loaded, min_time, rounds, per_call=False)
            out.append((f"{label} {dtype}", fidelity, timer))
        del loaded
        if device.startswith("cuda"):
            torch.cuda.empty_cache()
    return out


def check_latency() -> None:
    """Issue 13: per-sample CUDA events agree with torch.utils.benchmark within 5 %, tiny and large."""
    for label, fidelity, timer in latency_vs_timer("cuda:0"):
        # Both must hold: the same statistic on both sides, and the figure the app shows.
        for what, ratio in (("as block means", fidelity.blocks), ("our median", fidelity.median)):
            check(
                f"latency {label} on cuda:0 ({timer}) vs torch.utils.benchmark within 5 % ({what})",
                abs(ratio - 1) <= 0.05,
                f"median ratio ours / Timer {ratio:.4f} ({(ratio - 1) * 100:+.2f} %; tail {fidelity.tail:.4f}; "
                f"block ratio's 95 % interval {fidelity.blocks_ci[0]:.4f}-{fidelity.blocks_ci[1]:.4f})",
            )


def check_bandwidth() -> None:
    """Our move against raw copies of the same bytes: the same tensors one by one, and one flat tensor."""
    model = mlp(1024)  # ~1 GiB float32 in 16 Linear layers
    tensors = [t.detach() for t in list(model.parameters()) + list(model.buffers())]
    nbytes = sum(t.numel() * t.element_size() for t in tensors)
    flat = torch.empty(nbytes // 4, dtype=torch.float32).uniform_()

    def best_gbps(copy) -> float:
        best = float("inf")
        for _ in range(3):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            out = copy()
            torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t0)
            del out
            torch.cuda.empty_cache()
        return nbytes / best / 1e9

    pinned_tensors = [t.pin_memory() for t in tensors]
    raw = {
        False: best_gbps(lambda: [t.to("cuda:0") for t in tensors]),
        # Pin then copy, as our pinned move does (pinning is part of its cost).
        True: best_gbps(lambda: [t.pin_memory().to("cuda:0", non_blocking=True) for t in tensors]),
    }
    already_pinned = best_gbps(lambda: [t.to("cuda:0", non_blocking=True) for t in pinned_tensors])
    flat_pageable = best_gbps(lambda: flat.to("cuda:0"))
    flat_pinned_src = flat.pin_memory()
    flat_pinned = best_gbps(lambda: flat_pinned_src.to("cuda:0", non_blocking=True))
    print(f"raw copies of {nbytes / GiB:.2f} GiB: per tensor pageable {raw[False]:.2f} GB/s, pin+copy {raw[True]:.2f} GB/s, "
          f"copy of already pinned {already_pinned:.2f} GB/s; one flat tensor pageable {flat_pageable:.2f} GB/s, pinned {flat_pinned:.2f} GB/s")
    # Ours against a raw copy of exactly the tensors the move will copy (after the first
    # round they are the ones .cpu() brought back), timed in the same round.
    for pinned in (False, True):
        ours, raws = [], []
        for _ in range(5):
            current = [t.detach() for t in list(model.parameters()) + list(model.buffers())]
            if pinned:
                raws.append(best_gbps(lambda cur=current: [t.pin_memory().to("cuda:0", non_blocking=True) for t in cur]))
            else:
                raws.append(best_gbps(lambda cur=current: [t.to("cuda:0") for t in cur]))
            del current
            loaded = LoadedModel("mlp-1GiB", model, None, None, "factory")
            res = move_model(loaded, MoveRequest("to", device="cuda:0", pinned=pinned))
            ours.append(res.gbps or 0.0)
            move_model(loaded, MoveRequest("cpu"))
            torch.cuda.empty_cache()
        if pinned:
            # What Module.to itself costs on this path, without our transaction and hook.
            plain = []
            for _ in range(3):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                with torch.no_grad():
                    for t in list(model.parameters()) + list(model.buffers()):
                        t.data = t.data.pin_memory()
                    model.to("cuda:0", non_blocking=True)
                torch.cuda.synchronize()
                plain.append(nbytes / (time.perf_counter() - t0) / 1e9)
                model.cpu()
                torch.cuda.empty_cache()
            print(f"plain pin-all-then-Module.to(non_blocking=True): best {max(plain):.2f} GB/s")
            check_cuda_pinned(model, nbytes)
        best, ref = max(ours), max(raws)
        label = "pinned (pin + copy)" if pinned else "pageable"
        check(
            f"host->GPU move bandwidth, {label}: ours vs raw tensor.to of the same tensors",
            best >= 0.9 * ref,
            f"move best {best:.2f} GB/s (median {sorted(ours)[2]:.2f}) vs raw best {ref:.2f} GB/s "
            f"(median {sorted(raws)[2]:.2f}): {best / ref:.1%}",
        )


def check_cuda_pinned(model: nn.Module, nbytes: int) -> None:
    """``model.cuda()`` on our pinned path must not be slower than a plain ``model.cuda()``:
    its per-tensor copy blocks, so the seam copies each pinned tensor non-blocking instead."""
    loaded = LoadedModel("mlp-1GiB", model, None, None, "factory")
    ours, plain = [], []
    for i in range(6):
        for which in (("ours", "plain") if i % 2 == 0 else ("plain", "ours")):
            if which == "ours":
                res = move_model(loaded, MoveRequest("cuda", "cuda:0", pinned=True))
                ours.append(res.gbps or 0.0)
                move_model(loaded, MoveRequest("cpu"))
            else:
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                model.cuda()
                torch.cuda.synchronize()
                plain.append(nbytes / (time.perf_counter() - t0) / 1e9)
                model.cpu()
            torch.cuda.empty_cache()
    o, p = sorted(ours)[3], sorted(plain)[3]
    check("model.cuda() pinned (ours) vs a plain model.cuda()", o >= 0.9 * p,
          f"median {o:.2f} GB/s vs {p:.2f} GB/s: {o / p:.1%}")


def check_cli(out_dir: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    py = [sys.executable, "-m", "inspector"]
    for args in (["devices"], ["inspect", "--to", "cuda", "--dtype", "bfloat16"], ["inspect", "--method", "cuda", "--json"],
                 ["fit", "--device", "cuda", "--dtype", "bfloat16", "--optimizer", "adamw"],
                 ["bench", "--device", "cuda:0", "--per-module", "--runs", "20"]):
        p = subprocess.run(py + args, capture_output=True, text=True, env=env, timeout=300)
        print("$ torch-device-inspector", " ".join(args), "\n" + p.stdout[-2500:] + p.stderr[-1000:])
        check(f"CLI {' '.join(args)}", p.returncode == 0)
    report = out_dir / "gpu_report.json"
    p = subprocess.run(
        py + ["bench", "--device", "cpu", "--device", "cuda:0", "--runs", "100", "--output", str(report)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    print(p.stdout + p.stderr[-1500:])
    check("CLI bench cpu + cuda:0 writes a report", p.returncode == 0 and report.exists())
    p = subprocess.run(
        py + ["bench", "--device", "cuda:0", "--dtype", "bfloat16", "--mode", "train-step", "--runs", "50", "--output", str(out_dir / "gpu_report.md")],
        capture_output=True, text=True, env=env, timeout=300,
    )
    print(p.stdout + p.stderr[-1500:])
    check("CLI bench train-step bf16 on cuda:0", p.returncode == 0)


def check_fit() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fit_table import print_table, table

    rows = table("cuda:0")
    print_table(rows)
    for name, r in rows:
        ratio = r.ratio
        check(
            f"fit {name} {r.dtype} {r.mode}: estimated peak within 15 % of measured",
            ratio is not None and 0.85 <= ratio <= 1.15,
            f"estimated {r.estimated_peak_bytes:,} B, measured {r.measured_peak_bytes} B, "
            f"ratio {ratio if ratio is None else round(ratio, 3)} ({r.measured_reason})",
        )


def check_attribution() -> None:
    from torch.utils.flop_counter import FlopCounterMode

    from inspector.core.measure.attribution import measure_attribution

    layers = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 1024)).cuda()
    loaded = LoadedModel(spec="mlp", module=layers, example_input=torch.randn(512, 4096, device="cuda"))
    plain = measure_latency(loaded, runs=100)
    result = measure_attribution(loaded, runs=100)
    with torch.inference_mode(), FlopCounterMode(display=False) as counter:
        layers(loaded.example_input)
    leaf = result.leaf_self_ms / result.forward_without_hooks_ms
    check(
        "per-module attribution on cuda:0 (FLOPs = FlopCounterMode's)",
        result.total_flops == counter.get_total_flops(),
        f"plain benchmark {plain.median_ms:.4f} ms; interleaved plain {result.forward_without_hooks_ms:.4f} ms, "
        f"with hooks {result.forward_with_hooks_ms:.4f} ms (overhead {result.overhead_ratio:.3f}x), "
        f"leaf self-time sum / plain {leaf:.3f}",
    )


class _Masked(nn.Module):
    """A sparse buffer and a complex64 parameter: sizes that must not be read densely."""

    def __init__(self) -> None:
        super().__init__()
        mask = torch.zeros(1000, 1000)
        mask[0, :10] = 1
        self.register_buffer("mask", mask.to_sparse())
        self.w = nn.Parameter(torch.randn(4, 4, dtype=torch.complex64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.w


def check_sizes() -> None:
    """Issue 9 item 9 on a GPU: sparse and complex tensors moved to cuda:0 keep honest sizes."""
    loaded = LoadedModel("masked", _Masked(), None, torch.randn(2, 4, dtype=torch.complex64), "factory")
    res = move_model(loaded, MoveRequest("to", device="cuda:0"))
    p = placement.snapshot(loaded)
    rows = {r.name: r for r in p.tensors}
    ok = (
        res.ok
        and rows["mask"].device == "cuda:0"
        and (rows["mask"].storage, rows["mask"].bytes) == ("sparse_coo", 200)
        and (rows["w"].dtype, rows["w"].bytes) == ("complex64", 128)
        and p.totals.by_device == {"cuda:0": 328}
    )
    check("sparse buffer + complex64 parameter moved to cuda:0 keep real sizes", ok,
          f"move ok={res.ok} {res.error.message if res.error else ''}; totals {p.totals}")  # fmt: skip
    result = measure_latency(loaded, runs=20)
    check("a complex64 model times as complex64 on cuda:0", result.dtype == "complex64", f"median {result.median_ms:.4f} ms")


def check_failed_run_keeps_report(out_dir: Path) -> None:
    """Issue 9 item 6 on a GPU machine: a run that measures nothing leaves the report alone."""
    good = out_dir / "good.json"
    good.write_bytes(b'{"kept": true}\n')
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    absent = f"cuda:{torch.cuda.device_count()}"
    p = subprocess.run([sys.executable, "-m", "inspector", "bench", "--device", absent, "--runs", "3", "--output", str(good)],
                       capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    errors = [line for line in p.stderr.splitlines() if line.startswith("error:")]
    check(f"bench --device {absent} exits 1 and leaves good.json intact",
          p.returncode == 1 and len(errors) == 1 and good.read_bytes() == b'{"kept": true}\n', p.stderr[-400:])  # fmt: skip


def check_formats(out_dir: Path) -> None:
    """Issue 15: memory snapshot (read back by torch's own memory_viz reader), trace, Prometheus,
    and two torchrun ranks on cuda:0/cuda:1 (or one rank per GPU present, at most 2)."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    py = [sys.executable, "-m", "inspector"]
    snap, trace = out_dir / "memory_snapshot.pickle", out_dir / "trace.json"
    p = subprocess.run(
        py + ["bench", "--device", "cuda:0", "--runs", "50", "--memory-snapshot", str(snap), "--trace", str(trace)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    print(p.stdout + p.stderr[-1500:])
    check("CLI bench --memory-snapshot writes the pickle", p.returncode == 0 and snap.exists(), f"{snap.stat().st_size if snap.exists() else 0} bytes")
    if snap.exists():
        # memory_viz's own reader: its CLI unpickles the file and summarises the segments,
        # and trace_plot renders the same HTML pytorch.org/memory_viz shows.
        stats = subprocess.run([sys.executable, "-m", "torch.cuda._memory_viz", "stats", str(snap)], capture_output=True, text=True, timeout=300)
        print("$ python -m torch.cuda._memory_viz stats", snap, "\n" + stats.stdout[-2000:] + stats.stderr[-1000:])
        check("memory_viz stats reads the snapshot", stats.returncode == 0 and "segment" in stats.stdout.lower())
        html = out_dir / "memory_snapshot.html"
        plot = subprocess.run([sys.executable, "-m", "torch.cuda._memory_viz", "trace_plot", str(snap), "-o", str(html)], capture_output=True, text=True, timeout=300)
        check("memory_viz trace_plot renders it", plot.returncode == 0 and html.exists(), plot.stderr[-300:])
        import pickle

        with open(snap, "rb") as fh:
            data = pickle.load(fh)
        traces = sum(len(t) for t in data.get("device_traces", []))
        check("snapshot holds the recorded allocations", traces > 0, f"{len(data.get('segments', []))} segments, {traces} trace events")
    if trace.exists():
        data = json.loads(trace.read_text())
        events = data["traceEvents"]
        samples = sorted((e for e in events if e.get("ph") == "X" and e["name"].startswith("sample ")), key=lambda e: e["ts"])
        check("trace has one event per sample", len(samples) == 50, f"{len(samples)} sample events")
        # Issue 34: on CUDA the samples are device time spread over their chunk's host start
        # and end (no per-call host start): they must not overlap, and every event has a cat.
        overlaps = sum(1 for a, b in zip(samples, samples[1:]) if a["ts"] + a["dur"] > b["ts"] + 0.01)
        check("trace: CUDA samples in order, none overlapping, a category and a base time on every event",
              overlaps == 0 and all("cat" in e for e in events) and isinstance(data.get("baseTimeNanoseconds"), int),
              f"{overlaps} overlaps, base {data.get('baseTimeNanoseconds')}")
    pair = subprocess.run(py + ["bench", "example", "--against", "example", "--device", "cuda:0", "--repeat", "3", "--json"],
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip
    rows = json.loads(pair.stdout).get("latency", []) if pair.returncode == 0 else []
    check("bench --against on cuda:0: identical models turn about, 3 rounds, no claimed difference",
          # (a verdict naming B faster or slower would be a false claim: 5 % of reruns by design)
          len(rows) == 1 and rows[0].get("ratio_low") is not None and not str(rows[0]["verdict"]).startswith("B "),
          f"B/A {rows[0]['ratio']:.3f} [{rows[0]['ratio_low']:.3f}-{rows[0]['ratio_high']:.3f}]" if rows and rows[0].get("ratio_low")
          else pair.stderr[-500:])  # fmt: skip
    p = subprocess.run(py + ["devices", "--prometheus"], capture_output=True, text=True, env=env, timeout=120)
    print(p.stdout[-2000:])
    check("devices --prometheus lists cuda:0 with dcgm-exporter's UUID label",
          p.returncode == 0 and 'torch_device="cuda:0"' in p.stdout and 'UUID="GPU-' in p.stdout)
    nproc = min(2, torch.cuda.device_count())
    report = out_dir / "ranks_report.json"
    p = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", str(nproc), "-m", "inspector",
         "bench", "--runs", "50", "--output", str(report)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    print(p.stdout + p.stderr[-1500:])
    ranks = json.loads(report.read_text()).get("ranks", []) if report.exists() else []
    check(
        f"torchrun {nproc} ranks: one report, each rank on cuda:LOCAL_RANK",
        p.returncode == 0 and [r["device"] for r in ranks] == [f"cuda:{i}" for i in range(nproc)],
        ", ".join(f"rank {r['rank']} {r['device']} median {r['latency'][0]['median_ms']:.4f} ms" for r in ranks if r.get("latency")),
    )

def check_model_memory(device: str = "cuda:0") -> None:
    """The memory plot's first curves on a GPU: the model's bytes per device, with the
    allocator's and NVML's figures beside them (no Qt: the timeline the plot draws)."""
    from inspector.core.measure.memory_log import MemoryTimeline
    from inspector.core.devices.other_processes import OtherProcessesMemory
    from inspector.core.session import Session

    timeline = MemoryTimeline()
    session = Session(timeline)
    session.adopt(LoadedModel("mlp", mlp(256)))
    model_bytes = sum(p.numel() * p.element_size() for p in session.require_model().module.parameters())
    result = session.move(MoveRequest("to", device))
    torch.cuda.synchronize()
    cpu = timeline.model_series("cpu")["total"]
    gpu = timeline.model_series(device)["total"]
    reading = OtherProcessesMemory().annotate([devices.memory_reading(device)])[0]
    allocated = torch.cuda.memory_allocated(torch.device(device))
    check(
        "model bytes per device follow a move to the GPU",
        result.ok and cpu[-1] == 0 and gpu[-1] == model_bytes and allocated >= model_bytes,
        f"model {model_bytes / 2**20:.1f} MiB: cpu {cpu[0] / 2**20:.1f} -> {cpu[-1] / 2**20:.1f} MiB, "
        f"{device} {gpu[0] / 2**20:.1f} -> {gpu[-1] / 2**20:.1f} MiB; allocator allocated "
        f"{reading.allocated / 2**20 if reading.allocated is not None else float('nan'):.1f} MiB, reserved "
        f"{reading.reserved / 2**20 if reading.reserved is not None else float('nan'):.1f} MiB, driver used "
        f"{reading.used / 2**30 if reading.used is not None else float('nan'):.2f} GiB, other processes (NVML) "
        + (f"{reading.other_processes / 2**30:.2f} GiB" if reading.other_processes is not None else "unknown"),
    )
    del session  # the model goes with it: the GPU's memory back for the next check
    torch.cuda.empty_cache()


def check_train_step_then_move() -> None:
    """Issue 12 item 5: a real training step leaves grads and momentum; a move to cuda:0 takes
    the grads along but leaves the optimizer's state on the CPU, and the finding says so."""
    from inspector.core.files.models import load_model
    from inspector.core.moves.request import MoveRequest
    from inspector.core.moves.transaction import move_model
    from inspector.core.placement.tensor_rows import snapshot
    from inspector.core.measure.training import train_step

    loaded = load_model("example")
    step = train_step(loaded)
    result = move_model(loaded, MoveRequest("to", device="cuda:0"))
    placement = snapshot(loaded)
    kinds = {(r.kind, r.device) for r in placement.tensors}
    finding = next((w for w in placement.warnings if w.code == "optimizer_state_elsewhere"), None)
    check(
        "train step, then .to('cuda:0'): grads move, optimizer state stays on cpu, finding names it",
        result.ok and ("grad", "cuda:0") in kinds and ("optimizer_state", "cpu") in kinds and finding is not None
        and "stayed on cpu while the model is on cuda:0" in finding.message,
        f"loss {step.loss:.4g}; {finding.message[:90] if finding else 'no finding'}",
    )
    loaded.optimizer.load_state_dict(loaded.optimizer.state_dict())  # the fix the finding gives
    after = snapshot(loaded)
    check("the finding's fix puts the state on cuda:0", not after.warnings and train_step(loaded).device == "cuda:0")


# ---------------------------------------------------------------- the agent over a pipe

#: The agent as the window starts it, but with PySide6 and pyqtgraph unimportable: a GPU
#: server has no Qt, and nothing the agent runs may need it.
AGENT_WITHOUT_QT = (
    "import sys; sys.modules.update(PySide6=None, shiboken6=None, pyqtgraph=None); "
    "from inspector.cli import main; sys.exit(main(['agent']))"
)
_HOG: list[torch.Tensor] = []


def agent_model() -> tuple[nn.Module, torch.Tensor]:
    """The agent's benchmark model: an MLP of ~64 MiB with an example input."""
    return mlp(64, width=1024), torch.randn(64, 1024)


def agent_oom_model() -> nn.Module:
    """Runs in the agent: a ~2 GiB MLP, and a hog that leaves ~1 GiB free on cuda:0, so the
    agent's move of the model there runs out of memory half-way."""
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info(0)
    _HOG.append(torch.empty(max(0, free - GiB), dtype=torch.uint8, device="cuda:0"))
    return mlp(2048)


def agent_pipe(device: str, *, oom: bool = True, runs: int = 200) -> list[tuple[str, bool, str]]:
    """Drive ``python -m inspector agent`` (Qt unimportable) through a local pipe on ``device``."""
    from inspector.core.remote.client import AgentConnection
    from inspector.core.remote.session import RemoteSession
    from inspector.core.session import BenchmarkRequest, LoadRequest

    here = Path(__file__).resolve()
    env = {**os.environ, "PYTHONPATH": str(here.parents[1])}
    results: list[tuple[str, bool, str]] = []
    started = time.perf_counter()
    connection = AgentConnection.open([sys.executable, "-c", AGENT_WITHOUT_QT], env=env)
    remote = RemoteSession(connection)
    try:
        info = connection.info
        results.append(("agent starts without Qt and says hello", info is not None,
                        f"{time.perf_counter() - started:.1f} s; torch {info.torch if info else '?'} on {info.host if info else '?'}"))
        inventory = remote.devices()
        results.append((f"agent lists {device}", device in inventory.ids(), f"{inventory.ids()}"))
        remote.load(LoadRequest(f"{here}:agent_model"))
        steps: list[float] = []
        move = remote.move(MoveRequest("to", device=device), progress=lambda done, total: steps.append(done))
        state = remote.state()  # the session face: a move's result, then the state after it
        results.append((f"agent moves the model to {device}", move.ok and state.placement.devices == (device,),
                        f"{move.bytes / 2**20:.0f} MiB in {move.seconds * 1000:.1f} ms ({move.gbps or 0:.2f} GB/s), {len(steps)} progress events"))
        samples: list[int] = []
        latency = remote.measure(BenchmarkRequest(runs=runs), on_sample=lambda i, ms: samples.append(i))
        results.append((f"agent benchmarks on {device}", latency.device == device and len(samples) == runs,
                        f"median {latency.median_ms:.4f} ms, p95 {latency.p95_ms:.4f} ms, {len(samples)} samples streamed"))
        if oom:
            remote.load(LoadRequest(f"{here}:agent_oom_model"))
            move = remote.move(MoveRequest("to", device=device))
            state = remote.state()
            results.append(("agent's out-of-memory move rolls back", not move.ok and move.error is not None
                            and move.error.kind == "oom" and state.placement.devices == ("cpu",),
                            f"error: {move.error.message if move.error else None}; devices {state.placement.devices}"))
            remote.load(LoadRequest("example"))  # the next check's model (the hog stays in the agent)
        report = remote.report(with_memory=False)
        results.append(("agent's report holds the move and the latency", bool(report.moves) and bool(report.latency), ""))
    finally:
        status = connection.close(timeout=10)
    results.append(("agent exits 0 when its stdin closes", status == 0, f"status {status}"))
    return results


def check_agent() -> None:
    for name, ok, figures in agent_pipe("cuda:0"):
        check(name, ok, figures)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: nothing to check here")
        return 1
    print(f"torch {torch.__version__} CUDA {torch.version.cuda} on {torch.cuda.get_device_name(0)}")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for step in (
        check_discovery,
        check_methods,
        check_oom_rollback,
        check_lstm_rollback,
        check_latency,
        check_bandwidth,
        check_fit,
        check_attribution,
        check_model_memory,
        lambda: check_cli(out_dir),
        lambda: check_formats(out_dir),
        check_sizes,
        lambda: check_failed_run_keeps_report(out_dir),
        check_train_step_then_move,
        check_agent,
    ):
        try:
            step()
        except Exception as exc:  # noqa: BLE001 -- keep going: one broken path must not hide the others
            import traceback

            traceback.print_exc()
            check(getattr(step, "__name__", "step"), False, f"raised {type(exc).__name__}: {exc}")
    failed = [n for n, ok, _ in RESULTS if not ok]
    print(f"\n{len(RESULTS) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
