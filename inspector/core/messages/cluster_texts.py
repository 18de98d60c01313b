"""Core's texts about planning a distributed run (measure.fit_cluster, fit_shard, and the proof
on CPU ranks, fit_cluster_proof)."""

from __future__ import annotations

#: The cluster's layout, its bad inputs, and the proof on CPU ranks.
CLUSTER: dict[str, str] = {
    # ----- bad input (exit 2)
    "cluster.unknown_strategy": "{name} is not a strategy (choose one of: {choices})",
    "cluster.count_not_positive": "{flag} must be a positive whole number, not {text}",
    "cluster.needs_gpus": "a distributed plan needs the number of ranks: --gpus N (or --min-gpus with --gpu)",
    "cluster.shard_size_needs_hybrid": "--shard-size is the shard group of fsdp-hybrid; ddp and fsdp have none",
    "cluster.shard_size_divides": (
        "fsdp-hybrid needs a shard group of {size} rank(s) to divide the {world} rank(s): each replica is one whole "
        "shard group"
    ),
    "cluster.cannot_shard": "FSDP2's fully_shard refuses this model: {error}",
    "cluster.ddp_needs_trainable": "DDP needs a parameter that requires a gradient; this model has none",
    "cluster.ddp_needs_training": "DDP plans a training step: forward mode needs no DDP (plan it with fit alone)",
    "cluster.no_distributed": "this PyTorch build (torch {version}) has no torch.distributed: a distributed run cannot be planned with it",
    "cluster.group_in_use": "a process group is already set up in this process; plan the cluster from a fresh process",
    "cluster.min_gpus_needs_capacity": "the smallest GPU count needs the memory of each GPU: name a GPU or a capacity",
    "cluster.min_gpus_and_max_batch": "--min-gpus and --max-batch each search: ask for one at a time",
    "cluster.min_gpus_needs_shard_size": "--min-gpus with fsdp-hybrid needs --shard-size (the group the count grows by)",
    # ----- the layout planned
    "cluster.layout_ddp": (
        "DDP: each rank holds the whole model, its gradients and optimizer state, plus {buckets} of gradient "
        "buckets (bucket_cap_mb 25, the first 1 MiB; gradient_as_bucket_view off)"
    ),
    "cluster.layout_fsdp": (
        "FSDP2 (fully_shard): {blocks} block(s) sharded, then the root; each rank holds 1/N of the parameters, "
        "gradients and optimizer state, and each block's all-gathered parameters while it runs"
    ),
    "cluster.layout_fsdp_hybrid": (
        "HSDP (fully_shard on a 2-D mesh): {blocks} block(s) sharded within each shard group, replicated across "
        "the groups"
    ),
    "cluster.fsdp_mixed": (
        "mixed precision by FSDP2's MixedPrecisionPolicy(param_dtype={amp}, reduce_dtype=float32): float32 shards, "
        "gradients and optimizer state; the all-gathered parameters in {amp}"
    ),
    "cluster.nccl_not_counted": (
        "NCCL's own buffers (outside PyTorch's allocator, set by NCCL_BUFFSIZE per channel and peer) are not counted"
    ),
    # ----- the proof on CPU ranks
    "cluster.reason_ranks": "one rank of a distributed run: proven on CPU ranks, not by a single step",
    "cluster.reason_not_asked": "not measured (the ranks' proof was not asked for)",
    "cluster.reason_not_cpu": (
        "not measured: the ranks prove a plan for the CPU on this machine; {device} is planned only "
        "(plan with --device cpu to prove the same layout here)"
    ),
    "cluster.too_many_ranks": (
        "planned without proof: {world} ranks are more than this machine proves ({most}: two per core, at least 4)"
    ),
    "cluster.ranks_need_memory": (
        "planned without proof: {world} ranks need about {need} (each its step, its model and its interpreter) "
        "and {free} is free"
    ),
    "cluster.ranks_could_not_start": "the ranks could not start: {error}",
    "cluster.rank_failed": "rank {rank} failed: {error}",
    "cluster.proof_ranks": (
        "{world} CPU ranks (gloo), each its own process's peak RSS over the second step less its RSS before it; "
        "pages the ranks share were resident before, and large blocks are unmapped at their free"
    ),
}
