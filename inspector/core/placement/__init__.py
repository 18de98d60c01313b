"""Where a model's tensors live, and how many bytes they really hold.

Owns: ``tensor_rows`` (one row per parameter, buffer, grad and optimizer-state tensor, the
totals, and the mixed-placement findings), ``tensor_bytes`` (what a tensor's storage really
allocates: dense, meta, quantized, sparse), ``shared_memory`` (which tensors lie in the same
memory: tied weights, views, overlapping storages; each allocation counted once),
``storage_counter`` (live storages and their peak while a step runs, for ``fit``),
``model_memory`` (a model's bytes per device).

May import: ``inspector.core.devices``, ``inspector.core.files`` and the base modules
(``errors``, ``vocabulary``, ``units``, ``gc_pause``). Reads tensors; never changes them.
"""
