"""Moves as transactions: the call the user chose, with an exact rollback on any failure.

Owns: ``request`` (``MoveRequest``, checked and planned into the exact call, written as code),
``transaction`` (``move_model``: ``.to(device, dtype)``, ``.cuda(i)``, ``.cpu()`` with
progress, cancel and receipts), ``seam`` (the wrapped per-tensor conversion function every
move and device map goes through), ``rollback`` (the snapshot and the log that put a model
back bit for bit), ``caveats`` (what a rollback cannot promise, named before a move),
``price`` (what a move will cost before it starts), ``device_map_file`` (a device map read
from its file as hostile input), ``accelerate_rules`` (accelerate's size parser, module sizes
and largest layer: its own functions where installed, the same rules built in where not),
``dispatch_plan`` (what accelerate's dispatch_model does with a map: what runs where, what is
streamed, every budget; no GPU needed), ``device_map`` (a model spread over several devices by
such a map, applied through the same seam and rollback, and explained), ``crossings`` (the
activations that cross devices in one forward, and the weights streamed to the main device).

May import: ``inspector.core.placement``, ``inspector.core.devices``, ``inspector.core.files``
and the base modules. Never ``measure``, ``report``, ``remote`` or the session.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.moves.request import MoveRequest, ResolvedRequest, call_code, resolve_request
    from inspector.core.moves.transaction import MoveResult
    from inspector.core.moves.price import held_bytes, price_line
    from inspector.core.moves.device_map_file import read_device_map
    from inspector.core.moves.dispatch_plan import compress_names
    from inspector.core.moves.device_map import (
        MapResult,
        apply_device_map,
        explain_only as explain_device_map,
        layout as device_layout,
        measure as measure_device_map,
    )
    from inspector.core.moves.crossings import measure_crossings

__all__ = [
    "MapResult",
    "MoveRequest",
    "MoveResult",
    "ResolvedRequest",
    "apply_device_map",
    "call_code",
    "compress_names",
    "device_layout",
    "explain_device_map",
    "held_bytes",
    "measure_crossings",
    "measure_device_map",
    "price_line",
    "read_device_map",
    "resolve_request",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "MapResult": "device_map",
    "MoveRequest": "request",
    "MoveResult": "transaction",
    "ResolvedRequest": "request",
    "apply_device_map": "device_map",
    "call_code": "request",
    "compress_names": "dispatch_plan",
    "device_layout": "device_map:layout",
    "explain_device_map": "device_map:explain_only",
    "held_bytes": "price",
    "measure_crossings": "crossings",
    "measure_device_map": "device_map:measure",
    "price_line": "price",
    "read_device_map": "device_map_file",
    "resolve_request": "request",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
