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
"""
