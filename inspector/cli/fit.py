"""``fit``: will one step fit on a device? Estimated without allocating, then proven by one
real step unless ``--no-measure``."""

from __future__ import annotations

import json

from inspector.cli.common import _device_name, _load
from inspector.cli.fit_report import check_report_args, write_fit_report
from inspector.cli.printing import _plain, _print, _say
from inspector.core.files import program_output, user_output_to_stderr
from inspector.core.units import format_bytes


def _estimate_text(spec: str, result) -> str:
    """The estimate: everything known before a real step runs."""
    shapes = ", ".join("x".join(map(str, s)) for s in result.input_shapes) or "no input"
    fits = {True: "yes", False: "NO", None: "unknown (free memory not known)"}[result.fits]
    if result.margin_bytes is not None:
        word = "margin" if result.margin_bytes >= 0 else "short by"
        fits += f" ({word} {format_bytes(abs(result.margin_bytes))})"
    activations = format_bytes(result.activations_bytes) if result.activations_bytes is not None else "— (no input)"
    free = format_bytes(result.free_bytes)
    if result.free_bytes is not None and result.free_limit:
        free += f" ({_plain(result.free_limit)})"
    rows = [
        ["parameters", format_bytes(result.parameters_bytes)],
        ["buffers", format_bytes(result.buffers_bytes)],
        ["gradients", format_bytes(result.gradients_bytes)],
        ["optimizer state", format_bytes(result.optimizer_state_bytes)],
        ["activations", activations],
        ["estimated peak", format_bytes(result.estimated_peak_bytes)],
    ]
    if result.later_step_peak_bytes is not None:  # what the verdict also judges
        rows.append(["later steps", f"{format_bytes(result.later_step_peak_bytes)} (each step after the first: "
                                    "the optimizer's state held through its forward and backward)"])
    if result.reserved_peak_bytes is not None:  # CUDA: the allocator's segments
        rows.append(["reserved peak", f"{format_bytes(result.reserved_peak_bytes)} (CUDA caching allocator's segments)"])
    if result.named_device is not None:
        said = " (what PyTorch reports for the card; see capacity below)" if result.capacity_source else ""
        rows.append(["capacity", format_bytes(result.capacity_bytes) + said])
        rows.append(["set aside", f"{format_bytes(result.allowance_bytes)} (outside the allocator; see allowances)"])
        rows.append(["usable", format_bytes(result.free_bytes)])
    else:
        rows.append(["free", free])
    rows.append(["fits", fits])
    if result.batch_search is not None:
        rows.append(["largest batch", _batch_text(result.batch_search)])
    where = _plain(str(result.shown_device))  # a planned card as planned, never the cuda:0 it is laid out on
    options = "".join([f", autocast {result.amp}" if result.amp else "", ", checkpointing" if result.checkpointing else ""])
    # How the step is run: the loop planned (training) and the KV cache (a model that takes use_cache).
    step = "".join([f" (loop {result.loop})" if result.loop else "",
                    {True: ", use_cache=True", False: ", use_cache=False", None: ""}[result.use_cache]])  # fmt: skip
    built = f" ({_plain(result.model_class)})" if result.model_class else ""
    head = (f"Will it fit? {_plain(spec)}{built} on {where}, {result.dtype}{options}, optimizer {result.optimizer}, "
            f"{result.mode}{step}, input {shapes}")  # fmt: skip
    return "\n".join([head, ""] + [f"  {name:<16} {value}" for name, value in rows])


def _batch_text(search) -> str:
    """The largest batch, its peak and the next batch's, and what the search cost."""
    what = "reserved" if search.judged_by == "reserved" else "peak"
    if search.batch == 0:
        text = f"none: batch 1 needs {format_bytes(search.next_peak_bytes)} {what}, over {format_bytes(search.limit_bytes)}"
    elif search.next_batch is None:
        text = f"at least {search.batch:,} ({format_bytes(search.peak_bytes)} {what}; the search stops there)"
    else:
        text = (f"{search.batch:,} ({format_bytes(search.peak_bytes)} {what}); batch {search.next_batch:,} needs "
                f"{format_bytes(search.next_peak_bytes)}, over {format_bytes(search.limit_bytes)}")  # fmt: skip
    return f"{text}; {search.steps} traced steps"


def _measured_text(result) -> str:
    """The proof's row (or why there is none), then the notes."""
    if result.measured_peak_bytes is not None:
        measured = f"{format_bytes(result.measured_peak_bytes)} (measured/estimated {result.ratio:.3f}; {result.measured_reason})"
    else:
        measured = f"— ({result.measured_reason})"
    lines = [f"  {'measured peak':<16} {measured}"]
    if result.measured_gap:  # over 15 % apart: which memory the estimate does not count
        lines.append(f"gap: {_plain(result.measured_gap)}")
    # What the plan for a named device applies: PyTorch's rules, then the allowances, each said as such.
    capacity = (result.capacity_source,) if result.capacity_source else ()
    lines += [_plain(text) for text in (*capacity, *result.rules, *result.allowances)]
    lines += [f"note: {_plain(n)}" for n in result.notes]
    return "\n".join(lines)


def _fit_text(spec: str, result) -> str:
    return _estimate_text(spec, result) + "\n" + _measured_text(result)


def _count(text: str, flag: str) -> int:
    """A positive whole number the user typed, or one line and exit 2."""
    from inspector.core.errors import InputError
    from inspector.core.messages import Text

    value = text.strip()
    if not value.isdigit() or int(value) < 1:
        raise InputError(Text("cluster.count_not_positive", flag=flag, text=repr(text)))
    return int(value)


def _cluster_asked(args) -> bool:
    return any(getattr(args, name, None) for name in ("gpus", "strategy", "shard_size", "min_gpus", "no_reshard_after_forward"))


def _cluster_text(spec: str, result) -> str:
    """The layout, then one rank's plan (every rank holds the same)."""
    search = ""
    if result.gpu_search is not None:
        found = result.gpu_search
        search = (f" (the smallest count that fits: {found.gpus}; {found.steps} traced plans)" if found.gpus
                  else f" (none up to {found.most:,} fits; the plan shown is at {found.most:,})")  # fmt: skip
    shard = f", shard groups of {result.shard_size}" if result.shard_size else ""
    reshard = "" if result.reshard_after_forward or result.strategy == "ddp" else ", reshard_after_forward=False"
    return "\n".join([f"Plan the cluster: {result.gpus} ranks, {result.strategy}{shard}{reshard}{search}; each rank:",
                      _estimate_text(spec, result.rank)])


def _ranks_text(result) -> str:
    """Every rank's planned and measured peaks side by side, how they were read, the notes."""
    lines = ["", f"  {'rank':<6} {'planned':>12} {'measured':>12} {'measured/planned':>17}"]
    planned = format_bytes(result.rank.estimated_peak_bytes)
    for rank, (measured, ratio) in enumerate(zip(result.measured, result.ratios())):
        lines.append(f"  {rank:<6} {planned:>12} {format_bytes(measured):>12} {ratio:>17.3f}")
    if not result.measured:
        lines.append(f"  {'each':<6} {planned:>12} {'—':>12} {'—':>17}")
    lines.append(f"  measured: {_plain(result.measured_reason)}")
    rank = result.rank
    lines += [_plain(text) for text in ((rank.capacity_source,) if rank.capacity_source else ()) + rank.rules + rank.allowances]
    lines += [f"note: {_plain(n)}" for n in (*result.notes, *rank.notes) if n.key != "cluster.reason_ranks"]
    return "\n".join(lines)


def _cmd_cluster(args, request, output) -> int:
    from inspector.core.measure import ClusterRequest, ModelSource, plan_cluster
    from inspector.core.errors import InputError
    from inspector.core.messages import Text

    if args.gpus is None and not args.min_gpus:
        raise InputError(Text("cluster.needs_gpus"))
    cluster = ClusterRequest(
        fit=request, gpus=_count(args.gpus, "--gpus") if args.gpus is not None else 1, strategy=args.strategy or "fsdp",
        shard_size=_count(args.shard_size, "--shard-size") if args.shard_size else None,
        reshard_after_forward=not args.no_reshard_after_forward, min_gpus=args.min_gpus,
        source=None if args.no_measure else ModelSource.of(args.spec, args.arch, args.trust),
    )  # fmt: skip
    with user_output_to_stderr():
        loaded = _load(args)

    def show_plan(plan) -> None:  # before the ranks start: the plan stays on screen whatever they do
        shown.append(True)
        if not args.json:
            with program_output():
                _print(_cluster_text(loaded.spec, plan))
        _say(f"running {plan.gpus} CPU ranks to measure each one's peak")

    shown: list[bool] = []
    with user_output_to_stderr():  # the model's forward may print
        result = plan_cluster(loaded, cluster, on_plan=show_plan)
    if args.json:
        _print(json.dumps(result.to_dict(), indent=2))
    else:
        _print(_ranks_text(result) if shown else _cluster_text(loaded.spec, result) + "\n" + _ranks_text(result))
    write_fit_report(loaded, result, output, args.lang)
    return 0


def cmd_fit(args) -> int:
    from inspector.core.measure import FitRequest, estimate_fit
    from inspector.core.files import parse_inputs

    from inspector.core.measure import find_preset, parse_capacity

    output = check_report_args(args)  # a path or language that cannot work fails before any work
    inputs = parse_inputs(args.input_shape) if args.input_shape else None
    gpu = getattr(args, "gpu", None)
    # An empty --device is refused as every command refuses it, not read as "not given".
    device_text = args.device if args.device is not None else (find_preset(gpu).kind if gpu else "cpu")
    device = _device_name(device_text)
    capacity = parse_capacity(args.capacity) if getattr(args, "capacity", None) else None
    margin = parse_capacity(args.margin) if getattr(args, "margin", None) else 0
    request = FitRequest(
        device=device, dtype=args.dtype, optimizer=args.optimizer, mode=args.mode,
        inputs=inputs, measure=not args.no_measure, gpu=gpu, capacity=capacity, margin=margin,
        max_batch=getattr(args, "max_batch", False), amp=getattr(args, "amp", None),
        checkpointing=getattr(args, "checkpointing", False), use_cache=getattr(args, "use_cache", False),
        keep_output=getattr(args, "keep_output", False),
    )
    if _cluster_asked(args):  # a distributed run: what each rank holds
        return _cmd_cluster(args, request, output)
    with user_output_to_stderr():  # a factory's prints must not spoil --json
        loaded = _load(args)
    shown: list[bool] = []

    def show_estimate(estimate) -> None:
        # Before the real step: were it killed for memory (a container's limit), the
        # estimate is on screen already (both printers flush).
        shown.append(True)
        if args.json:
            _say(f"estimate: peak {format_bytes(estimate.estimated_peak_bytes)} on {estimate.device}, "
                 f"free {format_bytes(estimate.free_bytes)}; measuring one real step")  # fmt: skip
        else:
            with program_output():  # (the model's prints go to stderr meanwhile)
                _print(_estimate_text(loaded.spec, estimate))

    with user_output_to_stderr():  # the model's forward may print
        result = estimate_fit(loaded, request, on_estimate=show_estimate)
    if args.json:
        _print(json.dumps(result.to_dict(), indent=2))
    elif shown:
        _print(_measured_text(result))
    else:
        _print(_fit_text(loaded.spec, result))
    write_fit_report(loaded, result, output, args.lang)
    return 0
