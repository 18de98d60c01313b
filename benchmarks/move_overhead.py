"""What a transactional move costs next to a plain ``Module.to`` of the same model.

Two shapes (target, docs/performance.md: ours <= 1.10x plain on both):

  small: 2,500 x Linear(16, 16)   = 5,000 tensors, 1.3 MiB
  large:    24 x Linear(2048, 2048) =     48 tensors, 384 MiB
  (medium: 2,500 x Linear(128, 128) = 5,000 tensors, 161 MiB, on request)

Each sample is a round trip float32 -> float64 -> float32 on the CPU: ``move_model`` twice
(with a progress callback and a cancel check, as the window and the CLI pass them) against
``model.to(torch.float64); model.to(torch.float32)``. Samples alternate which goes first;
the figures are the ratio of medians and the median of the per-sample ratios (each pair ran
back to back), with the latter's 95 % interval (order statistics). Also printed:

- the receipts' ``seconds`` against our wall time (the receipt is the user's call, without
  the snapshot, the rollback log's release and our callbacks);
- a floor for any transaction: plain ``Module.to`` while a list holds the originals'
  storages (the memory a rollback needs), then freeing them, both timed; the storages are
  taken before the clock starts, so the figure is the price of holding, not of our log
  (fresh memory has to be faulted in where plain ``Module.to`` reuses each original it
  frees, and the frees come after);
- the least any per-tensor seam costs, in the same samples: ``Module.to`` with its conversion
  function wrapped as ``move_model`` wraps it (the root's ``_apply``; the collector paused, as
  in a move), the wrapper (a) only calling it (what seeing each tensor costs, which progress
  and cancel need) and (b) also keeping each original's storage and dtype (the least a
  rollback must keep), then letting them go. No snapshot, no checks, no memory readings:
  a lower bound for any move that reports progress and can roll back, written in Python.
  Plain runs as a user runs it, with the collector on (its young collections cost it a few
  per cent on the small shape), so (a) can come out below 1.0x;
- ``peak_bytes``: the model plus its copies, held together for a moment.

With CUDA (``--cuda``, default when present): host -> GPU moves of the large model in GB/s,
ours against a raw ``tensor.to("cuda")`` of the same tensors (target >= 90 %).

    PYTHONPATH=. python benchmarks/move_overhead.py [--samples 6] [--shape small|large|both]

The large shape's floor is page faults (fresh pages for copies made while the originals are
held). The app asks torch's CPU allocator for transparent huge pages first thing
(``inspector/core/devices/huge_pages.py``), so this script does too, for plain and ours alike;
``--no-huge-pages`` measures without them (4 KiB pages, as a bare ``import torch`` gets).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inspector.core.devices.huge_pages import ENV, huge_pages_state, prefer_huge_pages  # noqa: E402

# As inspector.cli.main does, before torch allocates anything large.
if "--no-huge-pages" in sys.argv:
    os.environ[ENV] = "0"
else:
    prefer_huge_pages()

import torch  # noqa: E402
from torch import nn  # noqa: E402

from inspector.core import gc_pause  # noqa: E402
from inspector.core.moves import rollback  # noqa: E402
from inspector.core.moves.seam import Seam  # noqa: E402
from inspector.core.files.models import LoadedModel  # noqa: E402
from inspector.core.moves.price import preview_move  # noqa: E402
from inspector.core.moves.request import MoveRequest  # noqa: E402
from inspector.core.moves.transaction import move_model  # noqa: E402
from inspector.core.measure.spread import median_interval  # noqa: E402
from inspector.core.units import format_bytes  # noqa: E402

SHAPES = {"small": (2500, 16), "medium": (2500, 128), "large": (24, 2048)}
TO64 = MoveRequest("to", dtype="float64")
TO32 = MoveRequest("to", dtype="float32")


def build(shape: str) -> nn.Module:
    count, width = SHAPES[shape]
    torch.manual_seed(0)
    with torch.no_grad():
        return nn.Sequential(*[nn.Linear(width, width) for _ in range(count)])


class Callbacks:
    """What the window passes: a progress sink and a cancel flag."""

    def __init__(self) -> None:
        self.cancel = threading.Event()
        self.last = (0, 0)

    def progress(self, done: int, total: int) -> None:
        self.last = (done, total)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall seconds, and this process's CPU seconds (steadier on a machine others load);
    a function that times itself returns its own pair."""
    start, cpu = time.perf_counter(), time.process_time()
    own = fn()
    if isinstance(own, tuple):
        return own
    return time.perf_counter() - start, time.process_time() - cpu


def compare(shape: str, samples: int) -> float:
    model = build(shape)
    loaded = LoadedModel(spec=shape, module=model)
    calls = Callbacks()
    receipts: list[float] = []

    def ours() -> None:
        seconds = 0.0
        for request in (TO64, TO32):
            result = move_model(loaded, request, progress=calls.progress, should_cancel=calls.cancel.is_set)
            assert result.ok, result.error
            seconds += result.seconds
        receipts.append(seconds)

    def plain() -> None:
        model.to(torch.float64)
        model.to(torch.float32)

    params = list(model.parameters())

    def held() -> tuple[float, float]:
        wall = used = 0.0
        for dtype in (torch.float64, torch.float32):
            originals = list(map(torch.Tensor.untyped_storage, params))  # before the clock
            start, cpu = time.perf_counter(), time.process_time()
            model.to(dtype)
            del originals
            wall += time.perf_counter() - start
            used += time.process_time() - cpu
        return wall, used

    def seam(keep: bool) -> Callable[[], None]:
        @gc_pause.paused()
        def run() -> None:
            for dtype in (torch.float64, torch.float32):
                kept: list[tuple[torch.Tensor, torch.UntypedStorage, torch.dtype]] = []
                through_seam(model, dtype, kept if keep else None)
                del kept

        return run

    runs: list[tuple[str, Callable[[], object]]] = [
        ("ours", ours), ("plain", plain), ("held", held), ("seam", seam(False)), ("seam+keep", seam(True)),
    ]
    for _, fn in runs:  # warm-up
        fn()
    receipts.clear()
    times: dict[str, list[float]] = {name: [] for name, _ in runs}
    cpu: dict[str, list[float]] = {name: [] for name, _ in runs}
    for i in range(samples):
        order = runs if i % 2 == 0 else runs[::-1]
        for name, fn in order:
            wall, used = timed(fn)
            times[name].append(wall)
            cpu[name].append(used)
    med = {name: statistics.median(values) for name, values in times.items()}
    cpu_med = {name: statistics.median(values) for name, values in cpu.items()}
    ratio = med["ours"] / med["plain"]
    preview = preview_move(loaded, TO64)
    count, width = SHAPES[shape]
    tensors = 2 * count
    size = sum(t.nbytes for t in model.parameters())
    print(f"{shape}: {count} x Linear({width}, {width}) = {tensors} tensors, {format_bytes(size)} float32")
    print(f"  round trip float32 -> float64 -> float32, median of {samples}:")
    print(f"    plain Module.to            {med['plain'] * 1e3:9.2f} ms")
    print(f"    move_model (wall)          {med['ours'] * 1e3:9.2f} ms   ratio {ratio:.3f}x  (target <= 1.10x)")
    print(f"    move_model (receipts)      {statistics.median(receipts) * 1e3:9.2f} ms   "
          f"ratio {statistics.median(receipts) / med['plain']:.3f}x")
    print(f"    Module.to, originals held  {med['held'] * 1e3:9.2f} ms   ratio {med['held'] / med['plain']:.3f}x  "
          f"(the floor of any transaction)")
    print(f"    ours / that floor          {med['ours'] / med['held']:.3f}x")
    print(f"    Module.to through a seam   {med['seam'] * 1e3:9.2f} ms   ratio {med['seam'] / med['plain']:.3f}x  "
          f"(seeing each tensor, nothing kept)")
    print(f"    the seam keeping storages  {med['seam+keep'] * 1e3:9.2f} ms   ratio {med['seam+keep'] / med['plain']:.3f}x  "
          f"(the least a rollback keeps: a lower bound)")
    # Each sample's ours and plain ran back to back: their ratio cancels the machine's
    # drift (on this VM a plain round trip ranges 105-140 ms within one run).
    paired = [o / p for o, p in zip(times["ours"], times["plain"])]
    paired_cpu = [o / p for o, p in zip(cpu["ours"], cpu["plain"])]
    paired_keep = [o / p for o, p in zip(times["seam+keep"], times["plain"])]
    for label, ratios in (("wall", paired), ("CPU time", paired_cpu), ("wall, seam keeping storages", paired_keep)):
        interval = median_interval(ratios)
        span = f"{interval[0]:.3f}-{interval[1]:.3f}x" if interval else "too few samples"
        print(f"    paired ({label}): median of per-sample ratios {statistics.median(ratios):.3f}x, "
              f"95 % interval {span}")
    print("  the same in CPU time of this process (steadier when others load the machine):")
    print(f"    plain {cpu_med['plain'] * 1e3:.2f} ms, move_model {cpu_med['ours'] * 1e3:.2f} ms "
          f"(ratio {cpu_med['ours'] / cpu_med['plain']:.3f}x), originals held {cpu_med['held'] * 1e3:.2f} ms "
          f"(ratio {cpu_med['held'] / cpu_med['plain']:.3f}x)")
    best = {name: min(values) for name, values in cpu.items()}
    print(f"    best of {samples}: plain {best['plain'] * 1e3:.2f} ms, move_model {best['ours'] * 1e3:.2f} ms "
          f"(ratio {best['ours'] / best['plain']:.3f}x), originals held {best['held'] * 1e3:.2f} ms "
          f"(ratio {best['held'] / best['plain']:.3f}x)")
    print(f"  peak of the float64 cast: {format_bytes(preview.peak_bytes['cpu'])} on cpu "
          f"(model {format_bytes(preview.model_bytes['cpu'])} + copies {format_bytes(preview.copy_bytes['cpu'])})")
    return ratio


class _ReferenceSeam(Seam):
    """``move_model``'s seam, installed the same way, with a wrapper that only converts
    (``kept`` None) or also keeps each converted original's storage and dtype there (from
    which a rollback rebuilds it). No log, no check, no progress."""

    def __init__(self, kept: list[tuple[torch.Tensor, torch.UntypedStorage, torch.dtype]] | None):
        super().__init__(rollback.ConversionLog(swap=False), 0, None, None, pin=False)
        self.kept = kept

    def wrap(self, fn: Callable[[torch.Tensor], torch.Tensor]) -> Callable[[torch.Tensor], torch.Tensor]:
        if self.kept is None:
            return lambda t: fn(t)
        keep = self.kept.append

        def converted(t: torch.Tensor) -> torch.Tensor:
            result = fn(t)
            if result is not t:
                keep((t, t.untyped_storage(), t.dtype))
            return result

        return converted


def through_seam(
    model: nn.Module, dtype: torch.dtype, kept: list[tuple[torch.Tensor, torch.UntypedStorage, torch.dtype]] | None
) -> None:
    """``model.to(dtype)`` through ``_ReferenceSeam``, where ``move_model`` wraps the conversion."""
    with _ReferenceSeam(kept).install(model):
        model.to(dtype)


def cuda_bandwidth(samples: int) -> None:
    """Host -> GPU of the large model: ours against raw copies of the same tensors, alternating.

    pageable: ``move_model(to cuda:0)`` vs ``[t.to("cuda:0") for t in tensors]``;
    pinned: ``move_model(to cuda:0, pinned)`` vs ``[t.pin_memory().to("cuda:0", non_blocking=True)]``
    (pinning is part of both); and ``model.cuda()`` on the pinned path vs a plain ``model.cuda()``.
    """
    model = build("large")
    loaded = LoadedModel(spec="large", module=model)
    nbytes = sum(t.nbytes for t in model.parameters())

    def timed_copy(copy: Callable[[], object]) -> float:
        torch.cuda.synchronize()
        start = time.perf_counter()
        out = copy()
        torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        del out
        torch.cuda.empty_cache()
        return nbytes / seconds / 1e9

    def raw(pinned: bool) -> float:
        tensors = [t.detach() for t in model.parameters()]  # the tensors the next move copies
        if pinned:
            return timed_copy(lambda: [t.pin_memory().to("cuda:0", non_blocking=True) for t in tensors])
        return timed_copy(lambda: [t.to("cuda:0") for t in tensors])

    def ours(request: MoveRequest) -> float:
        result = move_model(loaded, request)
        assert result.ok, result.error
        assert move_model(loaded, MoveRequest("cpu")).ok
        torch.cuda.empty_cache()
        return result.gbps or 0.0

    def plain_cuda() -> float:
        gbps = timed_copy(lambda: model.cuda())
        model.cpu()
        torch.cuda.empty_cache()
        return gbps

    pairs = {
        "pageable": (lambda: ours(MoveRequest("to", "cuda:0")), lambda: raw(False), "raw tensor.to"),
        "pinned": (lambda: ours(MoveRequest("to", "cuda:0", pinned=True)), lambda: raw(True), "raw pin+to(non_blocking)"),
        "cuda() pinned": (lambda: ours(MoveRequest("cuda", "cuda:0", pinned=True)), plain_cuda, "plain model.cuda()"),
    }
    print(f"cuda: host -> GPU of {format_bytes(nbytes)} in 48 tensors, median of {samples}, alternating order:")
    for label, (mine, reference, reference_name) in pairs.items():
        mine(), reference()  # warm-up
        got: dict[str, list[float]] = {"ours": [], "ref": []}
        for i in range(samples):
            order = [("ours", mine), ("ref", reference)]
            for name, fn in order if i % 2 == 0 else order[::-1]:
                got[name].append(fn())
        o, r = statistics.median(got["ours"]), statistics.median(got["ref"])
        print(f"  {label:14s} move_model {o:6.2f} GB/s vs {reference_name} {r:6.2f} GB/s: {o / r:.1%} (target >= 90 %)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--shape", choices=["small", "medium", "large", "both"], default="both",
                        help="both: small and large, the two the target names; medium (2,500 x "
                        "Linear(128, 128), 64 KiB a weight: as many tensors as small, each too "
                        "small for huge pages) is there to measure on request")
    parser.add_argument("--cuda", action=argparse.BooleanOptionalAction, default=torch.cuda.is_available())
    parser.add_argument("--no-huge-pages", action="store_true",
                        help="4 KiB pages for CPU tensors (the app asks for huge pages; read before torch imports)")
    args = parser.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; {huge_pages_state()}")
    shapes = ["small", "large"] if args.shape == "both" else [args.shape]
    for shape in shapes:
        compare(shape, args.samples)
    if args.cuda:
        cuda_bandwidth(args.samples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
