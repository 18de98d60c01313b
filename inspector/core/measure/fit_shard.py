"""How DDP and FSDP2 lay a model out on each rank, applied by the engines themselves: on the
estimate's fake copy (a process group of torch's "fake" backend, which moves no data) and on a
CPU rank's real copy (``fit_cluster_rank``, over gloo).

- DDP (``DistributedDataParallel``, defaults): a full replica, plus the gradient buckets its
  Reducer allocates at construction: the trainable parameters in reverse order, grouped by
  ``dist._compute_bucket_assignment_by_size`` (the first bucket 1 MiB, then ``bucket_cap_mb``
  25 MiB), one flat tensor per bucket, for the life of the wrapper. DDP's Reducer cannot run on
  fake tensors (it reads their data), so the plan adds those buckets to the traced step.
- FSDP2 (``fully_shard``): each block, then the root, sharded over the mesh by ``fully_shard``
  itself, so the plan holds what the rank holds: 1/N shards (padded evenly) of parameters,
  gradients and optimizer state, each block's all-gathered parameters while it runs (with the
  default prefetch), the reduce-scatter buffers, the ``MixedPrecisionPolicy`` casts and
  ``reshard_after_forward``'s choice. Which blocks: ``blocks_of``.

Costs: the fake world is one in-process group (no thread, no socket); sharding a fake copy
allocates nothing real.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.messages import Text

STRATEGIES = ("ddp", "fsdp", "fsdp-hybrid")
#: DDP's default ``bucket_cap_mb`` (MiB).
DDP_BUCKET_CAP_MB = 25


@contextlib.contextmanager
def fake_world(world: int) -> Iterator[None]:
    """A default process group of ``world`` ranks, this process rank 0, whose collectives move
    nothing (torch's "fake" backend with its ``FakeStore``, as torchtitan's memory estimation
    uses it); destroyed on leaving. Refused where a process group exists already."""
    import torch.distributed as dist

    if not dist.is_available():  # a build without torch.distributed (some macOS and Windows wheels)
        raise InputError(Text("cluster.no_distributed", version=torch.__version__))
    from torch.testing._internal.distributed.fake_pg import FakeStore  # registers the "fake" backend

    if dist.is_initialized():
        raise InputError(Text("cluster.group_in_use"))
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)
    try:
        yield
    finally:
        dist.destroy_process_group()


def make_mesh(strategy: str, world: int, shard_size: int | None) -> Any:
    """The device mesh ``fully_shard`` shards over: 1-D for FSDP, (replicas, shard) for HSDP."""
    from torch.distributed.device_mesh import init_device_mesh

    if strategy == "fsdp-hybrid":
        size = shard_size or world
        return init_device_mesh("cpu", (world // size, size), mesh_dim_names=("replicate", "shard"))
    return init_device_mesh("cpu", (world,))


def check_layout(strategy: str, world: int, shard_size: int | None) -> None:
    """``InputError`` for a layout the engine refuses: a count that is not positive, an HSDP
    shard group that does not divide the world."""
    if strategy not in STRATEGIES:
        raise InputError(Text("cluster.unknown_strategy", name=repr(strategy), choices=", ".join(STRATEGIES)))
    if world < 1:
        raise InputError(Text("cluster.count_not_positive", flag="--gpus", text=str(world)))
    if shard_size is not None and strategy != "fsdp-hybrid":
        raise InputError(Text("cluster.shard_size_needs_hybrid"))
    if strategy == "fsdp-hybrid":
        size = shard_size or world
        if size < 1 or world % size:
            raise InputError(Text("cluster.shard_size_divides", size=str(size), world=str(world)))


def blocks_of(module: nn.Module) -> list[nn.Module]:
    """The modules a user shards one by one before the root (FSDP2 wraps nothing by itself):
    a Hugging Face model's ``_no_split_modules`` classes (what transformers' and accelerate's
    FSDP auto-wrap policy wraps), else the children of the ``ModuleList`` or ``Sequential``
    holding the most parameters; none for a model with neither (the root alone)."""
    names = set(getattr(module, "_no_split_modules", None) or ())
    if names:
        found = [m for m in module.modules() if type(m).__name__ in names and m is not module]
        if found:
            return found
    best: list[nn.Module] = []
    most = 0
    for m in module.modules():
        if isinstance(m, (nn.ModuleList, nn.Sequential)) and len(m) > 1:
            size = sum(p.numel() for p in m.parameters())
            if size > most:
                best, most = list(m.children()), size
    return [b for b in best if any(True for _ in b.parameters())]


def shard(module: nn.Module, mesh: Any, *, mixed: torch.dtype | None, reshard: bool) -> nn.Module:
    """``fully_shard`` each block, then the root. ``mixed``: ``MixedPrecisionPolicy(param_dtype=mixed,
    reduce_dtype=float32)`` (the gradients reduced in float32, as torchtitan does); ``reshard``:
    each block's ``reshard_after_forward`` (the root keeps FSDP2's default: not resharded).
    ``InputError`` where the engine refuses the model (e.g. a parameter tied across two blocks)."""
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    policy = MixedPrecisionPolicy(param_dtype=mixed, reduce_dtype=torch.float32) if mixed else MixedPrecisionPolicy()
    try:
        for block in blocks_of(module):
            fully_shard(block, mesh=mesh, mp_policy=policy, reshard_after_forward=reshard)
        fully_shard(module, mesh=mesh, mp_policy=policy)
    except (AssertionError, RuntimeError, ValueError, TypeError) as exc:
        raise InputError(Text("cluster.cannot_shard", error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from None
    return module


def ddp_buckets(module: nn.Module, cap_mb: int = DDP_BUCKET_CAP_MB) -> list[torch.Tensor]:
    """DDP's gradient buckets for ``module``, made as its Reducer makes them (one flat tensor per
    bucket, in the parameters' dtype, on their device), in the current mode (fake in the plan).
    ``InputError`` for a model with no trainable parameter (DDP refuses it)."""
    from torch._C._distributed_c10d import _DEFAULT_FIRST_BUCKET_BYTES, _compute_bucket_assignment_by_size

    seen: set[int] = set()
    params: list[torch.Tensor] = []
    for p in module.parameters():  # DDP's own order, each shared parameter once
        if p.requires_grad and id(p) not in seen:
            seen.add(id(p))
            params.append(p)
    if not params:
        raise InputError(Text("cluster.ddp_needs_trainable"))
    limits = [_DEFAULT_FIRST_BUCKET_BYTES, int(cap_mb * 1024 * 1024)]
    indices, _ = _compute_bucket_assignment_by_size(params, limits, [False] * len(params))
    buckets = []
    for bucket in indices:
        first = params[bucket[0]]
        buckets.append(torch.empty(sum(params[i].numel() for i in bucket), dtype=first.dtype, device=first.device))
    return buckets
