"""Measuring a model: latency, its spread, training steps, per-module time, memory.

Owns: ``timing`` (``measure_latency``: a latency measurement from request to result), and the
parts it is made of: ``model_input`` (the model's device and dtype, the input made for it),
``model_mode`` (train/eval around a measurement), ``sampling`` (warm-up and timed samples in
chunks, the clock's cost), ``train_on_copy`` (the train-step benchmark's step on a copy),
``step_errors`` (a failing step in words); ``spread`` (IQR, the median's interval, the noise
flag), ``training`` (one real training step), ``attribution`` (per-module time, shapes,
FLOPs), ``fit`` (will it fit: estimated and measured peak, with ``fit_step``, the step both
run on a copy, and ``fit_proof``, one real step measured; ``fit_trace``, the step's allocations
in order; ``fit_devices``, GPUs the user names, their rules and allowances; ``cuda_allocator``,
CUDA's caching allocator replayed over those allocations; ``fit_batch``, the largest batch),
``memory_log`` (the memory timeline
and its sampler), ``memory_snapshot`` (CUDA allocator snapshots), ``trace`` (Chrome Trace
Event JSON), ``time_left`` (estimates for progress).

May import: ``inspector.core.placement``, ``inspector.core.devices``, ``inspector.core.files``
and the base modules. Never ``moves``: measuring leaves a model where it is.
"""
