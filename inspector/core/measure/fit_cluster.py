"""Plan the cluster: what each rank of a DDP or FSDP2 run holds for one training step, before
renting the GPUs, then proven on this machine's CPU ranks (gloo) where the model fits in RAM.

One rank's step is traced as ``fit`` traces one card's (fake tensors, no data), its copy laid
out first by the engine itself in a process group that moves nothing (``fit_shard``): DDP's
replica and buckets, FSDP2's shards, all-gathers and reduce-scatters. Every rank of these
layouts holds the same (DDP's replicas; FSDP2 pads its shards evenly), so the plan is one
rank's; the proof reads every rank. ``--min-gpus``: the smallest count whose ranks fit, by
traced plans (doubling, then halving the gap).

Costs: one traced step per count or batch tried; the proof starts ``world`` interpreters that
each load the model and run two real steps (``fit_cluster_proof``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.files.models import LoadedModel
from inspector.core.measure import fit_cluster_proof as proof
from inspector.core.measure.fit import FitRequest, estimate_fit
from inspector.core.measure.fit_cluster_plan import ClusterPlan, GpuSearch, RankPeak
from inspector.core.measure.fit_result import FitResult
from inspector.core.measure.fit_shard import blocks_of, check_layout, ddp_buckets, fake_world, make_mesh, shard
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: The largest count ``--min-gpus`` tries: past it, "none up to this many".
MOST_GPUS = 4096


@dataclass(frozen=True)
class ClusterRequest:
    """``fit``: one rank's step (its device: a GPU named per rank, or the CPU; its input: the
    rank's micro-batch). ``gpus``: the world size; ``strategy``: ddp, fsdp or fsdp-hybrid
    (``shard_size`` ranks per shard group, default all); ``reshard_after_forward``: FSDP2's
    choice for each block. ``min_gpus``: search the smallest world that fits (``gpus`` ignored).
    ``source``: where the ranks load the model from for the proof (None: no proof)."""

    fit: FitRequest
    gpus: int
    strategy: str
    shard_size: int | None = None
    reshard_after_forward: bool = True
    min_gpus: bool = False
    source: proof.ModelSource | None = None

    @property
    def device(self) -> str:
        """The device each rank is planned on (a task's and the history's name for the request)."""
        return self.fit.device


@dataclass(frozen=True)
class ClusterResult:
    """One rank's plan (``rank``, a ``FitResult``: its figures are per rank), the layout, and
    each rank's measured peak where the ranks ran (else ``measured`` empty and the reason)."""

    rank: FitResult
    strategy: str
    gpus: int
    shard_size: int | None
    reshard_after_forward: bool
    blocks: int  # FSDP2: the blocks sharded one by one before the root
    buckets_bytes: int | None  # DDP: its gradient buckets
    measured: tuple[int, ...]
    measured_reason: str
    gpu_search: GpuSearch | None = None
    notes: tuple[str, ...] = field(default=())

    def ratios(self) -> list[float]:
        """Each rank's measured over planned peak."""
        planned = self.rank.estimated_peak_bytes
        return [m / planned for m in self.measured] if planned > 0 else []

    @property
    def plan(self) -> ClusterPlan:
        """The layout and each rank's reading, as a fit answer carries them (``as_fit``)."""
        planned = self.rank.estimated_peak_bytes
        return ClusterPlan(self.strategy, self.gpus, self.shard_size, self.reshard_after_forward, self.blocks,
                           self.buckets_bytes, tuple(RankPeak(i, planned, m) for i, m in enumerate(self.measured)),
                           self.measured_reason, self.gpu_search, self.notes)  # fmt: skip

    def as_fit(self) -> FitResult:
        """One rank's answer with the plan in it: what the report's ``fit`` section keeps (its
        figures are per rank; ``cluster`` says how many ranks, how laid out and what each measured)."""
        return dataclasses.replace(self.rank, cluster=self.plan, measured_reason=self.measured_reason)

    def to_dict(self) -> dict[str, Any]:
        """``fit --json``'s answer: the plan's keys, one rank's answer as ``rank_plan``."""
        plan = self.plan.to_dict()
        return {**{k: plan[k] for k in ("strategy", "gpus", "shard_size", "reshard_after_forward", "blocks",
                                        "buckets_bytes")},
                "rank_plan": self.rank.to_dict(),
                **{k: plan[k] for k in ("ranks", "measured_reason", "min_gpus", "notes")}}  # fmt: skip


def plan_cluster(
    loaded: LoadedModel,
    request: ClusterRequest,
    *,
    should_cancel: Callable[[], bool] | None = None,
    on_plan: Callable[[ClusterResult], None] | None = None,
) -> ClusterResult:
    """Plan one rank of ``request``'s run; then, where asked and possible, run it on CPU ranks
    and read each rank's peak. ``on_plan`` gets the plan before the ranks start."""
    check_layout(request.strategy, request.gpus, request.shard_size)
    if request.fit.mode != "train-step" and request.strategy == "ddp":
        raise InputError(Text("cluster.ddp_needs_training"))
    search: GpuSearch | None = None
    world = request.gpus
    if request.min_gpus:
        if request.fit.max_batch:
            raise InputError(Text("cluster.min_gpus_and_max_batch"))
        search = _smallest_world(loaded, request, should_cancel)
        world = search.gpus or search.most
    planned, blocks, buckets = _plan_rank(loaded, request, world, should_cancel)
    notes = [Text(f"cluster.layout_{request.strategy.replace('-', '_')}", blocks=str(blocks),
                  buckets=format_bytes(buckets or 0))]  # fmt: skip
    if request.fit.amp and request.strategy != "ddp":
        notes.append(Text("cluster.fsdp_mixed", amp=request.fit.amp))
    if planned.device.startswith("cuda"):
        notes.append(Text("cluster.nccl_not_counted"))
    result = ClusterResult(planned, request.strategy, world, request.shard_size, request.reshard_after_forward, blocks,
                           buckets, (), Text("cluster.reason_not_asked"), search, tuple(notes))  # fmt: skip
    reason = _why_not_proven(request, result)
    if reason is not None or request.source is None:
        return dataclasses.replace(result, measured_reason=reason or Text("cluster.reason_not_asked"))
    if on_plan is not None:
        on_plan(result)
    readings = proof.prove(request.source, _rank_job(request, planned, world), world, should_cancel)
    return dataclasses.replace(result, measured=readings.peaks, measured_reason=readings.how)


def _plan_rank(
    loaded: LoadedModel, request: ClusterRequest, world: int, should_cancel: Callable[[], bool] | None
) -> tuple[FitResult, int, int | None]:
    """One rank's plan at ``world`` ranks, the blocks FSDP2 shards and DDP's bucket bytes."""
    made: dict[str, Any] = {}

    def ddp(module: nn.Module) -> tuple[nn.Module, list[torch.Tensor]]:
        made["buckets"] = ddp_buckets(module)
        return module, made["buckets"]

    def fsdp(module: nn.Module) -> tuple[nn.Module, list[torch.Tensor]]:
        made["blocks"] = len(blocks_of(module))
        mixed = getattr(torch, request.fit.amp) if request.fit.amp else None
        return shard(module, mesh, mixed=mixed, reshard=request.reshard_after_forward), []

    fit_request = dataclasses.replace(request.fit, measure=False)
    with fake_world(world):
        mesh = make_mesh(request.strategy, world, request.shard_size) if request.strategy != "ddp" else None
        planned = estimate_fit(loaded, fit_request, should_cancel=should_cancel, wrap=ddp if mesh is None else fsdp,
                               autocast=mesh is None)  # fmt: skip
    buckets = sum(b.untyped_storage().nbytes() for b in made.get("buckets", ())) if mesh is None else None
    return planned, int(made.get("blocks", 0)), buckets


def _smallest_world(loaded: LoadedModel, request: ClusterRequest, should_cancel: Callable[[], bool] | None) -> GpuSearch:
    """The smallest world whose rank fits: counts doubled from 1 (HSDP: from its shard group,
    in its multiples) until one fits, then the gap halved. DDP's rank holds the same at any
    count: one plan answers."""
    step = request.shard_size or 1 if request.strategy == "fsdp-hybrid" else 1
    tried: dict[int, bool] = {}

    def fits(n: int) -> bool:
        planned, _, _ = _plan_rank(loaded, dataclasses.replace(request, gpus=n), n, should_cancel)
        if planned.fits is None:
            raise InputError(Text("cluster.min_gpus_needs_capacity"))
        tried[n] = bool(planned.fits)
        return tried[n]

    if request.strategy == "ddp" or request.strategy == "fsdp-hybrid" and request.shard_size is None:
        ok = fits(1) if request.strategy == "ddp" else False
        if request.strategy == "ddp":
            return GpuSearch(1 if ok else None, None if ok else 1, 1, 1 if ok else MOST_GPUS)
        raise InputError(Text("cluster.min_gpus_needs_shard_size"))
    n, short = step, None
    while n <= MOST_GPUS and not fits(n):
        short, n = n, n * 2
    if n > MOST_GPUS:
        return GpuSearch(None, short, len(tried), MOST_GPUS)
    good = n
    while short is not None and good - short > step:
        middle = (good + short) // 2 // step * step
        if middle in (good, short):
            break
        if fits(middle):
            good = middle
        else:
            short = middle
    return GpuSearch(good, short, len(tried), MOST_GPUS)


def _why_not_proven(request: ClusterRequest, result: ClusterResult) -> Text | None:
    """Why the ranks will not run (None: they will): not asked, not the CPU, does not fit, or
    more ranks or memory than this machine has."""
    if request.source is None or not request.fit.measure:
        return Text("cluster.reason_not_asked")
    if result.rank.device != "cpu":
        return Text("cluster.reason_not_cpu", device=result.rank.device)
    if result.rank.fits is False:
        return Text("fit.reason_does_not_fit")
    return proof.cannot_prove(result.gpus, result.rank.estimated_peak_bytes, result.rank.parameters_bytes
                              + result.rank.buffers_bytes, result.rank.free_bytes)  # fmt: skip


def _rank_job(request: ClusterRequest, planned: FitResult, world: int) -> proof.RankJob:
    """What each rank runs: the planned step, at the planned per-rank input."""
    inputs = [[list(shape), dtype] for shape, dtype in request.fit.inputs] if request.fit.inputs is not None else None
    search = planned.batch_search
    return proof.RankJob(
        strategy=request.strategy, shard_size=request.shard_size, reshard=request.reshard_after_forward,
        dtype=planned.dtype, optimizer=planned.optimizer, mode=planned.mode, inputs=inputs,
        batch=max(search.batch, 1) if search is not None else None, amp=request.fit.amp,
        checkpointing=request.fit.checkpointing, use_cache=request.fit.use_cache, keep_output=request.fit.keep_output,
    )  # fmt: skip
