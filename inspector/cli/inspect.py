"""``inspect``: load a model, move it if asked (or place it by a device map), and print where
each tensor lives; for a model split over devices, the activations that cross them."""

from __future__ import annotations

import dataclasses
import json
import sys

from inspector.cli.common import _device_name, _load, _move_request, _session
from inspector.cli.printing import _move_text, _plain, _print, _ProgressBar, _table
from inspector.core.files import NAME_LIMIT, user_output_to_stderr
from inspector.core.units import format_bytes


def _shared_text(row) -> str:
    """After a size: the tensor whose memory this one shares (counted there, once)."""
    if not row.shares_with:
        return ""
    return f" (view of {_plain(row.shares_with)})" if row.is_view else f" (= {_plain(row.shares_with)})"


def _placement_text(loaded, placement) -> str:
    from inspector.core.placement import device_bytes_text, meta_text, size_text

    t = placement.totals
    listed = len(placement.tensors)
    # Tied weights and views share memory: the totals count each storage once.
    tensors = f"{t.count} tensors" if listed == t.count else f"{listed} tensors in {t.count} storage{'s' if t.count != 1 else ''}"
    head = (f"Model: {_plain(loaded.spec, NAME_LIMIT)} ({_plain(loaded.class_name, NAME_LIMIT)}) — {tensors}, {t.elements:,} elements, "
            f"{format_bytes(t.bytes)}{meta_text(t)}")
    rows = [
        [
            r.name,
            r.kind,
            "x".join(map(str, r.shape)) or "scalar",
            r.dtype,
            r.device,
            size_text(r) + _shared_text(r),
            "yes" if r.requires_grad else "no",
        ]
        for r in placement.tensors
    ]
    parts = [head, "", _table(["NAME", "KIND", "SHAPE", "DTYPE", "DEVICE", "SIZE", "GRAD"], rows, right={5})]
    parts.append("")
    nothing = "(no tensors)"
    parts.append("By device: " + (", ".join(f"{_plain(d)} {device_bytes_text(t, d)}" for d in t.by_device) or nothing))
    parts.append("By dtype:  " + (", ".join(f"{_plain(d)} {format_bytes(b)}" for d, b in t.by_dtype.items()) or nothing))
    for w in placement.warnings:
        parts.append(f"warning: {_plain(w.message)}")
    return "\n".join(parts)



def cmd_inspect(args) -> int:

    if getattr(args, "device_map", None):
        return _inspect_device_map(args)
    if getattr(args, "explain", False):
        from inspector.core.errors import InputError

        raise InputError("--explain explains a device map: add --device-map FILE.json")

    moving = args.to is not None or args.method != "to" or args.dtype is not None
    if args.pinned and args.to is None and args.method != "cuda":
        from inspector.core.errors import InputError

        raise InputError("--pinned needs a host-to-GPU move: add --to cuda (or --method cuda)")
    target = _device_name(args.to, args.method) if args.to is not None else None
    move = None
    with user_output_to_stderr():  # the factory, a pickle, the model's hooks may print
        session = _session(_load(args))
        loaded = session.require_loaded()
        if moving:
            request = _move_request(args.method, target, args.dtype, args.pinned)
            move = session.move(request, progress=_ProgressBar(f"{request.method}"))
        placement = session.state().placement
        mixed = _mixed_placement(loaded, placement)  # runs the model's forward
    if args.json:
        out = {"model": {"spec": loaded.spec, "class": loaded.class_name, "source": loaded.source}}
        out.update(placement.to_dict())
        if move is not None:
            out["move"] = move.to_dict()
        if mixed is not None:
            out["device_layout"] = mixed.to_dict()
        _print(json.dumps(out, indent=2))
    else:
        if move is not None:
            _print(_move_text(move))
            _print()
        _print(_placement_text(loaded, placement))
        if mixed is not None:
            _print()
            _print(_device_map_text(mixed, has_input=loaded.example_input is not None, heading="The model sits on several devices:"))
    if move is not None and not move.ok:
        # On stderr, so --json output on stdout stays parseable.
        print(f"error: {_plain(move.error.message)}", file=sys.stderr)
        return 1
    return 0


def _inspect_device_map(args) -> int:
    """``inspect --device-map``: apply the map as a transaction (or, with ``--explain``, only
    explain it), then show what runs where under accelerate and where things are."""
    from inspector.core.moves import apply_device_map, explain_device_map, measure_device_map, read_device_map
    from inspector.core.errors import InputError
    from inspector.core.placement import snapshot
    from inspector.core.files import parse_inputs
    from inspector.core.measure import make_input

    if args.to is not None or args.method != "to" or args.dtype is not None or args.pinned:
        raise InputError("--device-map places each module itself: drop --to, --method, --dtype and --pinned")
    if args.explain and args.input_shape:
        raise InputError("--explain moves nothing and runs no forward: drop --input-shape")
    shape = parse_inputs(args.input_shape) if args.input_shape else None
    dmap = read_device_map(args.device_map)  # a bad file fails before the model loads
    with user_output_to_stderr():  # the factory and the model's forward may print
        loaded = _load(args)
        inputs = None
        if args.explain:
            result = explain_device_map(loaded.module, dmap)
        else:
            if shape is not None or loaded.example_input is not None:
                inputs = make_input(loaded, shape)  # where the model is now: where a data loader puts it
            try:
                result = apply_device_map(loaded.module, dmap)
            except InputError as exc:
                if exc.kind != "device":
                    raise
                raise InputError(f"{exc.message} (--explain explains the map without applying it: no GPU needed)", kind=exc.kind) from None
            if result.ok and inputs is not None:
                result = measure_device_map(loaded.module, dmap, result, inputs)
        placement = snapshot(loaded)
    # "A forward fails until it is moved as a whole" is false of a map: dispatch_model's hooks
    # move inputs and weights for each module (the plan above says how).
    placement = dataclasses.replace(placement, warnings=tuple(w for w in placement.warnings if w.code != "split_model"))
    if args.json:
        out = {"model": {"spec": loaded.spec, "class": loaded.class_name, "source": loaded.source}}
        out.update(placement.to_dict())
        out["device_map"] = result.to_dict()
        _print(json.dumps(out, indent=2))
    else:
        _print(_device_map_text(result, has_input=inputs is not None))
        _print()
        _print(_placement_text(loaded, placement))
    if not result.ok:
        print(f"error: {_plain(result.error.message)}", file=sys.stderr)
        return 1
    return 0


def _mixed_placement(loaded, placement):
    """For a model already split over devices: its layout and measured crossings; else None."""
    if len(placement.devices) < 2:
        return None
    from inspector.core.moves import MapResult, device_layout, measure_crossings

    layout = device_layout(loaded.module)
    result = MapResult(True, None, 0.0, 0, layout, (), ())
    if loaded.example_input is None:
        return result
    report = measure_crossings(loaded.module, loaded.example_input)
    words = tuple(c.describe() for c in report.crossings)
    if report.error is not None:
        words += (f"a forward fails with the model split like this: {report.error}",)
    return MapResult(True, None, 0.0, 0, layout, (), words, report)


def _plan_text(plan) -> list[str]:
    """What runs where under accelerate, and each device's memory, as two tables."""
    from itertools import groupby

    from inspector.core.moves import compress_names

    line = (f"Under accelerate's dispatch_model (rules: {_plain(plan.rules)}): the main device is {_plain(plan.main_device)}; "
            f"{format_bytes(plan.streamed_bytes)} of weights streamed to it per forward")  # fmt: skip
    if plan.held_at_once:  # accelerate's hooks hold each module's own weights for its call
        modules = plan.held_at_once_modules
        names = ", ".join(compress_names(modules[:3])) + (", …" if len(modules) > 3 else "")
        line += f", at most {format_bytes(plan.held_at_once)} of them held at once (in the call of {_plain(names)})"
    parts = [line]
    rows = []
    for (holds, runs_on, streamed), group in groupby(plan.entries, key=lambda e: (e.holds, e.runs_on, e.streamed)):
        group = list(group)
        names = ", ".join(compress_names(e.name or "(the whole model)" for e in group))
        rows.append([names, holds, runs_on, format_bytes(sum(e.bytes for e in group)),
                     format_bytes(sum(e.parameter_bytes for e in group)) if streamed else "-"])  # fmt: skip
    parts.append(_table(["MODULES", "WEIGHTS ON", "RUNS ON", "BYTES", "STREAMED/FORWARD"], rows, right={3, 4}))
    if any(b.budget is not None for b in plan.budgets):
        parts.append("")
        rows = [[b.device, "-" if b.budget is None else format_bytes(b.budget), format_bytes(b.placed),
                 format_bytes(b.reserve) if b.reserve else "-", "-" if b.left is None else format_bytes(b.left)]
                for b in plan.budgets]  # fmt: skip
        parts.append(_table(["DEVICE", "MAX_MEMORY", "PLACED", "KEPT FOR LARGEST LAYER", "LEFT"], rows, right={1, 2, 3, 4}))
    return parts


def _device_map_text(result, *, has_input: bool, heading: str | None = None) -> str:
    from inspector.core.units import format_seconds

    if not result.ok:
        return f"device map {_plain(result.source)} not applied: {_plain(result.error.message)}"
    if heading is None and not result.applied:
        heading = f"device map {_plain(result.source)} explained, not applied: nothing was moved"
    elif heading is None:
        heading = f"device map {_plain(result.source)} applied: {format_bytes(result.bytes)} moved in {format_seconds(result.seconds)}"
    parts = [heading, ""]
    if result.plan is not None:
        parts.extend(_plan_text(result.plan))
        parts.append("")
    if result.applied:
        rows = [[s.device, str(s.tensors), format_bytes(s.bytes), ", ".join(s.modules) or "-"] for s in result.layout]
        parts.append(_table(["DEVICE", "TENSORS", "BYTES", "MODULES"], rows, right={1, 2}))
    crossings = result.crossings.crossings if result.crossings is not None else ()
    if not result.applied:
        pass
    elif crossings:
        parts.append("")
        rows = [[c.source, c.source_device, c.target, c.target_device, format_bytes(c.bytes_per_forward)] for c in crossings]
        parts.append("Activations crossing devices (one forward, measured with hooks):")
        parts.append(_table(["FROM", "ON", "TO", "ON", "BYTES/FORWARD"], rows, right={4}))
    elif not has_input:
        parts.append("")
        parts.append("crossings not measured: this model brings no example input (give --input-shape)")
    elif result.crossings is not None and result.crossings.error is None:
        parts.append("")
        parts.append("no activation crosses devices in a forward")
    for finding in result.findings:
        parts.append(f"finding: {_plain(finding)}")
    return "\n".join(parts).replace("\n\n\n", "\n\n")
