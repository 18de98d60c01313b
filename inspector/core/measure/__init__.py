"""Measuring a model: latency, its spread, training steps, per-module time, memory.

Owns: ``timing`` (latency samples with warm-up and device synchronisation), ``spread`` (IQR,
the median's interval, the noise flag), ``training`` (one real training step), ``attribution``
(per-module time, shapes, FLOPs), ``fit`` (will it fit: estimated and measured peak),
``memory_log`` (the memory timeline and its sampler), ``memory_snapshot`` (CUDA allocator
snapshots), ``trace`` (Chrome Trace Event JSON), ``time_left`` (estimates for progress).

May import: ``inspector.core.placement``, ``inspector.core.devices``, ``inspector.core.files``
and the base modules. Never ``moves``: measuring leaves a model where it is.
"""
