"""``devices``: every device with its memory, as a table, JSON or Prometheus text."""

from __future__ import annotations

import json
import sys

from inspector.cli.printing import _plain, _print, _table
from inspector.core.files import check_output_path
from inspector.core.units import format_bytes


def cmd_devices(args) -> int:
    from inspector.core.devices import discover_devices, free_memory_text

    target = getattr(args, "prometheus", None)
    if target not in (None, "-"):  # checked before the devices are read: a bad path does no work
        target = check_output_path(target, (".prom",), "the metrics")
    inv = discover_devices()
    if target is not None:
        from inspector.core.devices import render_prometheus, write_prometheus

        if target == "-":
            sys.stdout.write(render_prometheus(inv))
            sys.stdout.flush()
        else:
            write_prometheus(inv, target)  # a temporary file, then a rename: never read half-written
        return 0
    if args.json:
        _print(json.dumps(inv.to_dict(), indent=2))
        return 0
    rows = []
    for d in inv.devices:
        used = d.used_bytes
        rows.append(
            [
                d.id,
                d.name,
                f"{format_bytes(used)} / {format_bytes(d.total_bytes)}",
                format_bytes(d.free_bytes),
                format_bytes(d.allocated_bytes),
            ]
        )
    _print(_table(["ID", "NAME", "USED / TOTAL", "FREE", "THIS PROCESS"], rows))
    for d in inv.devices:
        line = free_memory_text(d)  # which limit sets the FREE figure (a container's, say)
        if line:
            _print(f"note: {_plain(line)}")
    for note in inv.notes:
        _print(f"note: {_plain(note)}")
    return 0
