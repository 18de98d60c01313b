"""The cluster plan's proof: the planned run for real on this machine's CPU, one process per
rank (``launcher.run_app_workers``: isolated interpreters, none outliving the call), the ranks
joined over gloo through a file store in a folder of this run (no port to pick or race for),
each reading its own peak as ``fit`` reads the CPU's (``fit_cluster_rank``).

The ranks share this machine's RAM. What that does to the reading, and how it is kept out:
- each rank's figure is its own process's high-water mark (``VmHWM``) over its own step, less
  its own resident memory before it: no other rank's memory is in it, and the pages the ranks
  share (the interpreter's and libtorch's code, mapped once) were resident before the step;
- gloo's loopback traffic sits in the kernel's socket buffers, not in any process's RSS;
- the ranks compete for the same RAM and cores: the sum of their needs is checked against what
  the machine has before any starts (else no proof, said why), each runs one thread, and every
  rank measures the same step between two barriers;
- glibc would keep freed large blocks in its heap (its mmap threshold rises after a free), so
  a rank's RSS would hold memory the step no longer uses: the ranks run with
  ``MALLOC_MMAP_THRESHOLD_`` fixed at 64 KiB, every larger block mapped and unmapped at its
  free, so the RSS follows the live tensors as a GPU allocator's allocated bytes do;
- a page allocated and not yet written is not resident (DDP's buckets are written first in
  the backward), where a GPU counts it from its allocation: ``MALLOC_PERTURB_`` has glibc
  write every block as it is allocated, so the RSS counts it from then too.
"""

from __future__ import annotations

import json
import os
import tempfile
import shutil
from dataclasses import asdict, dataclass
from typing import Any, Callable, NamedTuple

from inspector.core import launcher
from inspector.core.files.models import absolute_spec
from inspector.core.measure import process_peak
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: The rank's entry (``launcher`` runs it as ``module:function``).
RANK_ENTRY = "inspector.core.measure.fit_cluster_rank:main"
#: What one rank's interpreter holds before its step (Python, torch, gloo): counted in the check.
RANK_OVERHEAD = 512 * 1024 * 1024
#: Each rank's C allocator maps blocks from this size up and unmaps them at their free.
MMAP_THRESHOLD = 64 * 1024


@dataclass(frozen=True)
class ModelSource:
    """Where a rank loads the model from: the spec with its paths absolute, and how."""

    spec: str
    arch: str | None = None
    trust: bool = False

    @classmethod
    def of(cls, spec: str, arch: str | None = None, trust: bool = False) -> ModelSource:
        """The source with the file or folder each spec names made absolute (the ranks run in
        a folder of their own); a spec naming no file (``example``, ``pkg.mod:make``) as it is."""
        return cls(absolute_spec(spec), absolute_spec(arch) if arch else None, trust)


@dataclass(frozen=True)
class RankJob:
    """The planned step as each rank runs it (``fit_cluster_rank``)."""

    strategy: str
    shard_size: int | None
    reshard: bool
    dtype: str
    optimizer: str
    mode: str
    inputs: list[Any] | None  # [[shape, dtype name or None], ...]; None: the model's example input
    batch: int | None  # --max-batch's answer: the inputs' first dimension
    amp: str | None
    checkpointing: bool
    use_cache: bool
    keep_output: bool


class Readings(NamedTuple):
    """Each rank's measured peak in rank order (empty where the ranks did not all finish), and
    how they were read or why not."""

    peaks: tuple[int, ...]
    how: str


def most_ranks() -> int:
    """The most ranks this machine proves: two per core, at least 4, at most 16."""
    return min(16, max(4, 2 * (os.cpu_count() or 1)))


def cannot_prove(world: int, peak: int, model_bytes: int, free: int | None) -> Text | None:
    """Why ``world`` ranks, each with ``peak`` bytes planned and the model loaded, cannot run
    here (None: they can)."""
    if world > most_ranks():
        return Text("cluster.too_many_ranks", world=str(world), most=str(most_ranks()))
    unavailable = process_peak.unavailable_reason()
    if unavailable is not None:
        return Text("fit.proof_cpu_unavailable", reason=unavailable)
    need = world * (peak + model_bytes + RANK_OVERHEAD)
    if free is not None and need > free:
        return Text("cluster.ranks_need_memory", world=str(world), need=format_bytes(need), free=format_bytes(free))
    return None


def rank_environment() -> dict[str, str]:
    """The ranks' environment: this process's less Python's start-up variables, with gloo on
    the loopback interface, one thread each, the fixed mmap threshold and every allocation
    written when made (see the module's docstring)."""
    env = launcher.program_environment()
    env.update(GLOO_SOCKET_IFNAME="lo", OMP_NUM_THREADS="1", MALLOC_MMAP_THRESHOLD_=str(MMAP_THRESHOLD),
               MALLOC_PERTURB_="165")
    return env


def prove(source: ModelSource, job: RankJob, world: int, should_cancel: Callable[[], bool] | None = None) -> Readings:
    """Run ``job`` on ``world`` CPU ranks; their peaks, or why there are none."""
    folder = tempfile.mkdtemp(prefix="tdi-ranks-")
    try:
        store = os.path.join(folder, "store")
        common = {"source": asdict(source), "job": asdict(job), "world": world, "store": store}
        argvs = [[json.dumps({**common, "rank": rank})] for rank in range(world)]
        try:
            ended = launcher.run_app_workers(RANK_ENTRY, argvs, env=rank_environment(), should_stop=should_cancel)
        except OSError as exc:
            return Readings((), Text("cluster.ranks_could_not_start", error=str(exc)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if should_cancel is not None and should_cancel():
        return Readings((), Text("failure.cancelled_proof"))
    peaks: list[int] = []
    failed: list[tuple[int, str, int]] = []
    for rank, done in enumerate(ended):
        said = _last_json(done.stdout)
        if done.returncode != 0 or "peak" not in said:
            error = str(said.get("error") or _last_line(done.stderr) or f"exit status {done.returncode}")
            failed.append((rank, error, done.returncode))
        else:
            peaks.append(int(said["peak"]))
    if failed:
        # A rank whose peer failed reports gloo's lost connection, or was killed (a negative status)
        # once one failed: name the one that failed of its own.
        rank, error, _ = sorted(failed, key=lambda item: (item[2] < 0, "gloo" in item[1].lower()))[0]
        return Readings((), Text("cluster.rank_failed", rank=str(rank), error=error))
    return Readings(tuple(peaks), Text("cluster.proof_ranks", world=str(world)))


def _last_json(text: str) -> dict[str, Any]:
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                return value
    return {}


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""
