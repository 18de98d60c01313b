"""A distributed plan's layout and its proof, as a fit answer carries it (``FitResult.cluster``):
the strategy, the world size, DDP's buckets or FSDP2's blocks, and each rank's measured peak
beside its plan where CPU ranks ran it. The answer's own figures are then one rank's (every
rank of these layouts holds the same). Its JSON keys are a contract (``fit --json``, the
report's ``fit[].cluster``, docs/cli.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GpuSearch:
    """``--min-gpus``'s answer: the smallest count that fits (None: none up to ``most``), the
    largest tried that did not, and how many traced plans the search took."""

    gpus: int | None
    short_at: int | None
    steps: int
    most: int

    def to_dict(self) -> dict[str, Any]:
        return {"gpus": self.gpus, "short_at": self.short_at, "steps": self.steps, "most": self.most}


@dataclass(frozen=True)
class RankPeak:
    """One rank's measured peak beside the plan's (every rank is planned the same)."""

    rank: int
    planned_peak_bytes: int
    measured_peak_bytes: int

    @property
    def ratio(self) -> float | None:
        """Measured over planned (1.0: the plan was exact)."""
        return self.measured_peak_bytes / self.planned_peak_bytes if self.planned_peak_bytes > 0 else None

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "planned_peak_bytes": self.planned_peak_bytes,
                "measured_peak_bytes": self.measured_peak_bytes, "ratio": self.ratio}  # fmt: skip


@dataclass(frozen=True)
class ClusterPlan:
    """How the ranks are laid out, and what each measured (``ranks`` empty: not proven, and
    ``measured_reason`` says why)."""

    strategy: str  # ddp, fsdp or fsdp-hybrid
    gpus: int  # the world size
    shard_size: int | None  # fsdp-hybrid: ranks per shard group
    reshard_after_forward: bool
    blocks: int  # FSDP2: the blocks sharded one by one before the root
    buckets_bytes: int | None  # DDP: its gradient buckets
    ranks: tuple[RankPeak, ...]
    measured_reason: str
    gpu_search: GpuSearch | None = None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "gpus": self.gpus,
            "shard_size": self.shard_size,
            "reshard_after_forward": self.reshard_after_forward,
            "blocks": self.blocks,
            "buckets_bytes": self.buckets_bytes,
            "ranks": [r.to_dict() for r in self.ranks],
            "measured_reason": self.measured_reason,
            "min_gpus": self.gpu_search.to_dict() if self.gpu_search is not None else None,
            "notes": list(self.notes),
        }
