"""Plan the cluster, proven: each rank's planned peak against its measured one, on CPU ranks (gloo).

    PYTHONPATH=. python3 benchmarks/fit_cluster.py [--worlds 2,4] [--models gpt2,mlp,tied] [--strategies ddp,fsdp]
    PYTHONPATH=. python3 benchmarks/fit_cluster.py --eight-b     # the 8B plan's time and RAM, DeepSpeed's formula

For each model (a tiny GPT-2 from its transformers config, an MLP of blocks, a model whose output
layer shares the embedding's weight: tests/core/measure/test_fit_cluster.py's), strategy and
world size, ``plan_cluster`` plans one rank (fake tensors, the engine's own layout) and then runs
the step on that many CPU ranks, each reading its own process's peak (fit_cluster_proof's
docstring says how the shared RAM is kept out of the figure). The table: plan, measured and
measured/plan per rank; the target is every ratio within 0.85-1.15 (docs/cluster-planning.md).

``--eight-b``: the Llama-3-8B config (benchmarks/configs) planned for 8 H100s, FSDP, bf16,
AdamW, 1x4096 per rank, in a fresh process whose CPU time and peak RSS are read from the
kernel (target: 60 s, 2 GiB); then every model's per-rank model states (parameters, gradients,
optimizer state) beside DeepSpeed's documented ZeRO-3 formula,
``estimate_zero3_model_states_mem_needs_all_live`` without offload:
``4 * largest_layer_params + 18 * total_params / total_gpus`` bytes per GPU
(deepspeed/runtime/zero/stage3.py; https://deepspeed.readthedocs.io/en/latest/memory.html).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from inspector.core.files import load_model, parse_inputs  # noqa: E402
from inspector.core.measure.fit import FitRequest  # noqa: E402
from inspector.core.measure.fit_cluster import ClusterRequest, plan_cluster  # noqa: E402
from inspector.core.measure.fit_cluster_proof import ModelSource  # noqa: E402
from inspector.core.units import format_bytes  # noqa: E402
from tests.core.measure.test_fit_cluster import gpt2_folder, models_file  # noqa: E402

EIGHT_B = REPO / "benchmarks/configs/llama-3-8b"


def specs(root: Path) -> dict[str, tuple[str, str | None]]:
    models = models_file(root)
    return {"gpt2": (str(gpt2_folder(root)), "4,128:int64"), "mlp": (f"{models}:mlp", None),
            "tied": (f"{models}:tied", None)}  # fmt: skip


def proof_table(models: list[str], strategies: list[str], worlds: list[int]) -> bool:
    root = Path(tempfile.mkdtemp(prefix="fit-cluster-"))
    known = specs(root)
    print(f"{'model':<6} {'strategy':<8} {'ranks':>5} {'rank':>4} {'plan':>11} {'measured':>11} {'ratio':>6}  seconds")
    within = True
    for name in models:
        spec, inputs = known[name]
        loaded = load_model(spec)
        for strategy in strategies:
            for world in worlds:
                request = FitRequest(device="cpu", optimizer="adamw", inputs=parse_inputs(inputs) if inputs else None)
                start = time.perf_counter()
                result = plan_cluster(loaded, ClusterRequest(request, world, strategy, source=ModelSource.of(spec)))
                took = time.perf_counter() - start
                planned = result.rank.estimated_peak_bytes
                if not result.measured:
                    print(f"{name:<6} {strategy:<8} {world:>5} {'-':>4} {format_bytes(planned):>11} {'-':>11} {'-':>6}  "
                          f"{took:.0f}  ({result.measured_reason})")  # fmt: skip
                    within = False
                for rank, (measured, ratio) in enumerate(zip(result.measured, result.ratios())):
                    within &= 0.85 <= ratio <= 1.15
                    print(f"{name:<6} {strategy:<8} {world:>5} {rank:>4} {format_bytes(planned):>11} "
                          f"{format_bytes(measured):>11} {ratio:>6.3f}  {took:.0f}")  # fmt: skip
    print(f"every rank within 15 %: {'yes' if within else 'NO'}")
    return within


def eight_b() -> None:
    argv = [sys.executable, "-m", "inspector", "fit", str(EIGHT_B), "--gpu", "H100", "--gpus", "8", "--strategy", "fsdp",
            "--dtype", "bfloat16", "--optimizer", "adamw", "--input-shape", "1,4096:int64", "--json"]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"Llama-3-8B config, 8x H100, FSDP, bf16, AdamW, 1x4096 per rank: {cpu:.1f} s of CPU ({wall:.1f} s wall on "
          f"this machine as loaded), peak RSS {after.ru_maxrss / 1024:.0f} MiB (targets 60 s, 2 GiB)")  # fmt: skip
    import json

    rank = json.loads(done.stdout)["rank_plan"]
    for key in ("parameters_bytes", "gradients_bytes", "optimizer_state_bytes", "activations_bytes",
                "estimated_peak_bytes", "later_step_peak_bytes", "reserved_peak_bytes"):  # fmt: skip
        print(f"  {key:<24} {format_bytes(rank[key])}")


def deepspeed_zero3(module, gpus: int) -> int:
    """DeepSpeed's estimate_zero3_model_states_mem_needs_all_live, no offload: bytes per GPU."""
    total = sum({p.data_ptr() if p.device.type != "meta" else id(p): p.numel() for p in module.parameters()}.values())
    largest = max(sum(p.numel() for p in m.parameters(recurse=False)) for m in module.modules())
    return 4 * largest + int(18 * total / gpus)


def model_states_table() -> None:
    root = Path(tempfile.mkdtemp(prefix="fit-cluster-"))
    rows = [(name, spec, inputs, world) for name, (spec, inputs) in specs(root).items() for world in (2, 4)]
    rows.append(("llama-3-8b", str(EIGHT_B), "1,4096:int64", 8))
    print(f"\n{'model':<11} {'ranks':>5} {'ours: params+grads+state (bf16 mixed, fp32 shards)':>52} {'DeepSpeed ZeRO-3':>17} {'ours/DS':>8}")
    for name, spec, inputs, world in rows:
        loaded = load_model(spec)
        request = FitRequest(device="cpu", optimizer="adamw", amp="bfloat16", measure=False,
                             inputs=parse_inputs(inputs) if inputs else None)  # fmt: skip
        rank = plan_cluster(loaded, ClusterRequest(request, world, "fsdp")).rank
        ours = rank.parameters_bytes + rank.gradients_bytes + rank.optimizer_state_bytes
        theirs = deepspeed_zero3(loaded.module, world)
        print(f"{name:<11} {world:>5} {format_bytes(ours):>52} {format_bytes(theirs):>17} {ours / theirs:>8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="gpt2,mlp,tied")
    parser.add_argument("--strategies", default="ddp,fsdp")
    parser.add_argument("--worlds", default="2,4")
    parser.add_argument("--eight-b", action="store_true", help="the 8B plan's time and RAM, and DeepSpeed's formula")
    args = parser.parse_args()
    if args.eight_b:
        eight_b()
        model_states_table()
        return 0
    ok = proof_table(args.models.split(","), args.strategies.split(","), [int(w) for w in args.worlds.split(",")])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
