"""Where a model's tensors live, and how many bytes they really hold.

Owns: ``tensor_rows`` (one row per parameter, buffer, grad and optimizer-state tensor, the
totals, and the mixed-placement findings), ``tensor_bytes`` (what a tensor's storage really
allocates: dense, meta, quantized, sparse), ``shared_memory`` (which tensors lie in the same
memory: tied weights, views, overlapping storages; each allocation counted once),
``storage_counter`` (live storages and their peak while a step runs, for ``fit``),
``model_memory`` (a model's bytes per device).

May import: ``inspector.core.devices``, ``inspector.core.files`` and the base modules
(``errors``, ``vocabulary``, ``units``, ``gc_pause``). Reads tensors; never changes them.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.placement.tensor_rows import KINDS, Placement, TensorRow, snapshot
    from inspector.core.placement.texts import device_bytes_text, meta_text, size_text
    from inspector.core.placement.model_memory import model_bytes

__all__ = [
    "KINDS",
    "Placement",
    "TensorRow",
    "device_bytes_text",
    "meta_text",
    "model_bytes",
    "size_text",
    "snapshot",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "KINDS": "tensor_rows",
    "Placement": "tensor_rows",
    "TensorRow": "tensor_rows",
    "device_bytes_text": "texts",
    "meta_text": "texts",
    "model_bytes": "model_memory",
    "size_text": "texts",
    "snapshot": "tensor_rows",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
