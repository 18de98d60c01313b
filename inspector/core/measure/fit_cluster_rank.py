"""One CPU rank of the cluster plan's proof (started by ``fit_cluster_proof`` through the
launcher): load the model, join the gloo group, run the planned step twice on a fresh copy
laid out by the engine (DDP, or FSDP2's ``fully_shard``), and print one JSON line with the
second step's peak (``process_peak``: VmHWM over the step less the RSS before it), or the
error. The first step sets the libraries up (threads, gloo's pairs, the autograd engine).

Its argument is one JSON object: ``source`` (``ModelSource``), ``job`` (``RankJob``),
``rank``, ``world`` and ``store`` (the file store's path, absolute).
"""

from __future__ import annotations

import json
import sys
from datetime import timedelta
from typing import Any

import torch
from torch import nn

#: How long a rank waits for the others (joining, each collective) before it fails.
WAIT = timedelta(seconds=300)


def main() -> None:
    order = json.loads(sys.argv[1])
    try:
        peak = _run(order)
    except Exception as exc:  # noqa: BLE001 -- the parent reads one line: the error, whatever raised it
        print(json.dumps({"rank": order.get("rank"), "error": (str(exc).splitlines() or [type(exc).__name__])[0]}))
        sys.stdout.flush()
        raise SystemExit(1) from None
    print(json.dumps({"rank": order["rank"], "peak": peak}))
    sys.stdout.flush()


def _run(order: dict[str, Any]) -> int:
    import torch.distributed as dist

    from inspector.core.files import load_model
    from inspector.core.files.inputs import InputSpec
    from inspector.core.measure import process_peak
    from inspector.core.measure.fit_batch import with_batch
    from inspector.core.measure.fit_shard import make_mesh
    from inspector.core.measure.fit_step import input_templates

    torch.set_num_threads(1)
    source, job = order["source"], order["job"]
    loaded = load_model(source["spec"], trust=source["trust"], architecture=source["arch"])
    inputs = tuple(InputSpec(tuple(shape), dtype) for shape, dtype in job["inputs"]) if job["inputs"] is not None else None
    templates = input_templates(loaded, inputs)
    if job["batch"]:
        templates = with_batch(templates, job["batch"])
    dist.init_process_group("gloo", init_method=f"file://{order['store']}", rank=order["rank"],
                            world_size=order["world"], timeout=WAIT)  # fmt: skip
    try:
        mesh = make_mesh(job["strategy"], order["world"], job["shard_size"]) if job["strategy"] != "ddp" else None
        _step(loaded.module, mesh, job, templates)
        dist.barrier()
        with process_peak.ProcessPeak() as peak:
            _step(loaded.module, mesh, job, templates)
        dist.barrier()
        return peak.bytes
    finally:
        dist.destroy_process_group()


def _step(original: nn.Module, mesh: Any, job: dict[str, Any], templates: list[Any]) -> None:
    """The planned step on a fresh copy: DDP's replica (with its buckets), or FSDP2's shards
    made from a copy on the meta device (no rank ever holds the whole model)."""
    from torch.nn.parallel import DistributedDataParallel

    from inspector.core.measure.fit_shard import shard
    from inspector.core.measure.fit_step import copy_with, make_inputs, make_optimizer, prepare, real_maker, run_step

    cpu = torch.device("cpu")
    dtype = getattr(torch, job["dtype"])
    amp = getattr(torch, job["amp"]) if job["amp"] else None
    if mesh is None:
        module: nn.Module = copy_with(original, real_maker(cpu), dtype)
        prepare(module, checkpointing=job["checkpointing"])
        module = DistributedDataParallel(module)
    else:
        module = copy_with(original, lambda t, d: torch.empty(t.shape, dtype=d, device="meta"), dtype)
        prepare(module, checkpointing=job["checkpointing"])
        shard(module, mesh, mixed=amp, reshard=job["reshard"])
        module.to_empty(device=cpu)
        _fill(module, original)
        amp = None  # mixed precision is the policy's
    optimizer = make_optimizer(job["optimizer"], module, cpu) if job["mode"] == "train-step" else None
    args = make_inputs(templates, dtype, cpu, real=True)
    run_step(module, args, optimizer, job["mode"], amp=amp, device_type="cpu", use_cache=job["use_cache"],
             keep_output=job["keep_output"])  # fmt: skip


def _fill(module: nn.Module, original: nn.Module) -> None:
    """Write every shard (``to_empty`` leaves them unwritten: pages no one touched are not in
    the RSS) and give the buffers the original's values (a mask, position ids)."""
    values = dict(original.named_buffers())
    with torch.no_grad():
        for p in module.parameters():
            local = getattr(p, "_local_tensor", p)
            local.zero_()
        for name, buffer in module.named_buffers():
            source = values.get(name)
            if source is not None and source.device.type != "meta":
                buffer.copy_(source.to(buffer.dtype))
            else:
                buffer.zero_()
