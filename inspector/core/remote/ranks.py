"""``torchrun`` ranks: who am I, which device is mine, and rank 0 gathering everyone's results.

torchrun starts one process per rank and tells each, through its environment, ``RANK``,
``LOCAL_RANK`` (its index on this host), ``WORLD_SIZE``, ``MASTER_ADDR`` and
``MASTER_PORT``. Each rank measures its own device: ``cuda:LOCAL_RANK`` where CUDA is present
(indices count the devices ``CUDA_VISIBLE_DEVICES`` leaves visible, as PyTorch does), the CPU
otherwise. Results travel to rank 0 through a *gloo* group: gloo runs on every machine (no
GPU needed) and beside an NCCL group a training script may already have.

A rank that fails (cannot load the model, runs out of memory) still joins the gathering with
its error, so rank 0 can report it; only a rank that dies outright is missing, and then the
gathering raises on rank 0 instead of hanging (gloo notices the closed connection).
"""

from __future__ import annotations

import datetime as _dt
import os
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from inspector.core.errors import InputError, InspectorError
from inspector.core.report.entry_reader import read_entry
from inspector.core.report.schema import RankEntry

_ENV_KEYS = ("RANK", "LOCAL_RANK", "WORLD_SIZE")


@dataclass(frozen=True)
class RankEnv:
    """This process's place in a torchrun job."""

    rank: int
    local_rank: int
    world_size: int
    host: str


def rank_env(environ: Mapping[str, str] | None = None) -> RankEnv | None:
    """The torchrun environment of this process; None when it was not started by torchrun.

    Raises InputError when the variables are there but make no sense (a hand-set ``RANK=x``).
    """
    env = os.environ if environ is None else environ
    if "RANK" not in env or "WORLD_SIZE" not in env:
        return None
    values: dict[str, int] = {}
    for key in _ENV_KEYS:
        text = env.get(key, env.get("RANK", "0") if key == "LOCAL_RANK" else "")
        try:
            values[key] = int(text.strip())
        except ValueError:
            raise InputError(f"{key}={text!r} is not a whole number (set by torchrun, or by hand?)") from None
    rank, local, world = values["RANK"], values["LOCAL_RANK"], values["WORLD_SIZE"]
    if world < 1 or not 0 <= rank < world or local < 0:
        raise InputError(f"RANK={rank}, LOCAL_RANK={local}, WORLD_SIZE={world} do not fit together (need 0 <= RANK < WORLD_SIZE)")
    return RankEnv(rank, local, world, socket.gethostname())


def rank_device(env: RankEnv) -> str:
    """``cuda:LOCAL_RANK`` where CUDA is present, else ``cpu``.

    When CUDA_VISIBLE_DEVICES leaves exactly one device visible (a launcher that gives each
    rank its own GPU), that device is ``cuda:0`` whatever the local rank. Raises InputError
    when the local rank has no GPU of its own (more ranks per host than visible GPUs).
    """
    if not torch.cuda.is_available():
        return "cpu"
    count = torch.cuda.device_count()
    if count == 1 and _visible_devices() is not None:
        return "cuda:0"
    if env.local_rank >= count:
        visible = _visible_devices()
        seen = f" (CUDA_VISIBLE_DEVICES={visible})" if visible is not None else ""
        raise InputError(
            f"rank {env.rank} has LOCAL_RANK {env.local_rank} but this host shows only {count} CUDA "
            f"device{'s' if count != 1 else ''}{seen}: start at most {count} ranks per host"
        )
    return f"cuda:{env.local_rank}"


def _visible_devices() -> str | None:
    value = os.environ.get("CUDA_VISIBLE_DEVICES")
    return value if value is not None and value.strip() else None


@dataclass(frozen=True)
class RankResult:
    """What one rank measured (plain dicts, as they appear in the report), or why it failed."""

    rank: int
    local_rank: int
    world_size: int
    host: str
    device: str
    ok: bool
    error: str | None = None
    moves: tuple[dict[str, Any], ...] = ()
    latency: tuple[dict[str, Any], ...] = ()
    #: Trace spans (``trace.Span.to_dict()``); travel to rank 0 for ``--trace``, not in the report.
    spans: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    def to_report(self) -> dict[str, Any]:
        """The report's ``ranks`` entry."""
        return {
            "rank": self.rank,
            "local_rank": self.local_rank,
            "world_size": self.world_size,
            "host": self.host,
            "device": self.device,
            "ok": self.ok,
            "error": self.error,
            "moves": [dict(m) for m in self.moves],
            "latency": [dict(entry) for entry in self.latency],
        }


class RankGroup:
    """A gloo process group for gathering, created from torchrun's environment.

    Use as a context manager: the group is torn down on exit if this object created it. When
    the script already has a default group (NCCL, say), a separate gloo group is made beside it.
    """

    def __init__(self, env: RankEnv, timeout_s: float = 1800.0) -> None:
        self.env = env
        self.timeout = _dt.timedelta(seconds=timeout_s)
        self._created_default = False
        self._group: Any = None

    def __enter__(self) -> RankGroup:
        import torch.distributed as dist

        if not dist.is_available():
            raise InspectorError("this PyTorch build has no torch.distributed: ranks cannot gather their results")
        try:
            if not dist.is_initialized():
                dist.init_process_group(
                    backend="gloo",
                    init_method="env://",
                    rank=self.env.rank,
                    world_size=self.env.world_size,
                    timeout=self.timeout,
                )
                self._created_default = True
                self._group = None  # the default group is gloo
            elif dist.get_backend() == "gloo":
                self._group = None
            else:
                self._group = dist.new_group(backend="gloo", timeout=self.timeout)
        except (RuntimeError, ValueError) as exc:
            raise InspectorError(
                f"rank {self.env.rank} could not join the other ranks (MASTER_ADDR="
                f"{os.environ.get('MASTER_ADDR')}, MASTER_PORT={os.environ.get('MASTER_PORT')}): {_first_line(exc)}"
            ) from None
        return self

    def gather(self, result: RankResult) -> list[RankResult] | None:
        """Every rank's result on rank 0 (in rank order); None on the other ranks."""
        import torch.distributed as dist

        gathered: list[Any] | None = [None] * self.env.world_size if self.env.rank == 0 else None
        try:
            dist.gather_object(result, gathered, dst=0, group=self._group)
        except (RuntimeError, ValueError) as exc:
            raise InspectorError(f"gathering the ranks' results failed (did a rank die?): {_first_line(exc)}") from None
        if gathered is None:
            return None
        return sorted((r for r in gathered if isinstance(r, RankResult)), key=lambda r: r.rank)

    def __exit__(self, *exc: object) -> None:
        import torch.distributed as dist

        if self._created_default and dist.is_initialized():
            dist.destroy_process_group()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def missing_ranks(results: Sequence[RankResult], world_size: int) -> list[int]:
    """Ranks that sent nothing (should not happen: gather raises first; kept as a guard)."""
    present = {r.rank for r in results}
    return [r for r in range(world_size) if r not in present]


def ranks_summary(ranks: Sequence[RankEntry | Mapping[str, Any]]) -> dict[str, Any]:
    """Per-rank median latency (first latency entry's, of its samples), the slowest rank,
    and the spread. A report's ranks are ``RankEntry``s (``TimingReport.ranks``); a dict is
    read as ``report.entry_reader`` reads it leniently.

    ``spread`` is (slowest - fastest) / fastest of the medians; None with fewer than two
    ranks that measured. Used by the window's ranks view.
    """
    typed = [r if isinstance(r, RankEntry) else read_entry(RankEntry, r) for r in ranks if isinstance(r, (RankEntry, Mapping))]
    medians: dict[int, float] = {}
    for entry in typed:
        median = entry.latency[0].median_ms if entry.ok and entry.latency else None
        if median is not None and median > 0:
            medians[entry.rank] = median
    failed = [e.rank for e in typed if not e.ok]
    if not medians:
        return {"medians_ms": {}, "slowest": None, "fastest": None, "spread": None, "failed": failed}
    slowest = max(medians, key=lambda r: medians[r])
    fastest = min(medians, key=lambda r: medians[r])
    spread = (medians[slowest] - medians[fastest]) / medians[fastest] if len(medians) > 1 else None
    return {"medians_ms": medians, "slowest": slowest, "fastest": fastest, "spread": spread, "failed": failed}
