"""``inspect``: load a model, move it if asked (or place it by a device map), and print where
each tensor lives; for a model split over devices, the activations that cross them."""

from __future__ import annotations

import json
import sys

from inspector.cli.common import _device_name, _load, _move_request, _session
from inspector.cli.printing import _move_text, _plain, _print, _ProgressBar, _table
from inspector.core.files.terminal_text import NAME_LIMIT
from inspector.core.files.user_output import user_output_to_stderr
from inspector.core.units import format_bytes


def _shared_text(row) -> str:
    """After a size: the tensor whose memory this one shares (counted there, once)."""
    if not row.shares_with:
        return ""
    return f" (view of {_plain(row.shares_with)})" if row.is_view else f" (= {_plain(row.shares_with)})"


def _placement_text(loaded, placement) -> str:
    from inspector.core.placement.texts import device_bytes_text, meta_text, size_text

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

    moving = args.to is not None or args.method != "to" or args.dtype is not None
    if args.pinned and args.to is None and args.method != "cuda":
        from inspector.core.errors import InputError

        raise InputError("--pinned needs a host-to-GPU move: add --to cuda (or --method cuda)")
    target = _device_name(args.to, args.method) if args.to is not None else None
    move = None
    with user_output_to_stderr():  # the factory, a pickle, the model's hooks may print
        session = _session(_load(args))
        loaded = session.require_model()
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
    """``inspect --device-map``: apply the map as a transaction, then show where things are."""
    from inspector.core.moves import device_map
    from inspector.core.moves.device_map_file import read_device_map
    from inspector.core.errors import InputError
    from inspector.core.placement.tensor_rows import snapshot
    from inspector.core.files.inputs import parse_inputs
    from inspector.core.measure.model_input import make_input

    if args.to is not None or args.method != "to" or args.dtype is not None or args.pinned:
        raise InputError("--device-map places each module itself: drop --to, --method, --dtype and --pinned")
    shape = parse_inputs(args.input_shape) if args.input_shape else None
    dmap = read_device_map(args.device_map)  # a bad file fails before the model loads
    with user_output_to_stderr():  # the factory and the model's forward may print
        loaded = _load(args)
        inputs = None
        if shape is not None or loaded.example_input is not None:
            inputs = make_input(loaded, shape)  # where the model is now: where a data loader puts it
        result = device_map.apply_device_map(loaded.module, dmap)
        if result.ok and inputs is not None:
            result = device_map.measure(loaded.module, dmap, result, inputs)
        placement = snapshot(loaded)
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
    from inspector.core.moves import device_map
    from inspector.core.moves.crossings import measure_crossings

    layout = device_map.layout(loaded.module)
    result = device_map.MapResult(True, None, 0.0, 0, layout, (), ())
    if loaded.example_input is None:
        return result
    report = measure_crossings(loaded.module, loaded.example_input)
    words = tuple(c.describe() for c in report.crossings)
    if report.error is not None:
        words += (f"a forward fails with the model split like this: {report.error}",)
    return device_map.MapResult(True, None, 0.0, 0, layout, (), words, report)


def _device_map_text(result, *, has_input: bool, heading: str | None = None) -> str:
    from inspector.core.units import format_seconds

    if not result.ok:
        return f"device map {_plain(result.source)} not applied: {_plain(result.error.message)}"
    if heading is None:
        heading = f"device map {_plain(result.source)} applied: {format_bytes(result.bytes)} moved in {format_seconds(result.seconds)}"
    parts = [heading, ""]
    rows = [[s.device, str(s.tensors), format_bytes(s.bytes), ", ".join(s.modules) or "-"] for s in result.layout]
    parts.append(_table(["DEVICE", "TENSORS", "BYTES", "MODULES"], rows, right={1, 2}))
    crossings = result.crossings.crossings if result.crossings is not None else ()
    if crossings:
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
    return "\n".join(parts)
