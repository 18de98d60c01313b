"""Measuring a model: latency, its spread, training steps, per-module time, memory.

Owns: ``timing`` (``measure_latency``: a latency measurement from request to result, a
``measurement.LatencyResult``: one type from the samples to the report file), and the
parts it is made of: ``model_input`` (the model's device and dtype, the input made for it),
``model_mode`` (train/eval around a measurement), ``sampling`` (warm-up and timed samples in
chunks, the clock's cost), ``run_control`` (how a caller steers a run: its callbacks as one value), ``train_on_copy`` (the train-step benchmark's step on a copy),
``step_errors`` (a failing step in words); ``spread`` (IQR, the median's interval, the noise
flag), ``training`` (one real training step), ``attribution`` (per-module time, shapes,
FLOPs), ``fit`` (will it fit: estimated and measured peak, with ``fit_step``, the step both
run on a copy, and ``fit_proof``, one real step measured; ``fit_trace``, the step's allocations
in order; ``fit_devices``, GPUs the user names, their rules and allowances; ``cuda_allocator``,
CUDA's caching allocator replayed over those allocations; ``fit_batch``, the largest batch;
``fit_estimate``, the traced step and its verdict; ``fit_result``, the answer; ``fit_cluster``,
one rank of a DDP or FSDP2 run, laid out by ``fit_shard`` and proven on CPU ranks by
``fit_cluster_proof`` and ``fit_cluster_rank``),
``memory_log`` (the memory timeline
and its sampler), ``memory_snapshot`` (CUDA allocator snapshots), ``trace`` (Chrome Trace
Event JSON), ``time_left`` (estimates for progress), ``one_process`` (whether a run's median is its process's)
and ``fresh_runs`` (later runs in fresh processes: ``bench --repeat``'s and the window's).

May import: ``inspector.core.placement``, ``inspector.core.devices``, ``inspector.core.files``
and the base modules. Never ``moves``: measuring leaves a model where it is.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.measure.measurement import LatencyResult
    from inspector.core.measure.timing import request_caps
    from inspector.core.measure.model_input import make_input, model_device
    from inspector.core.measure.chunk_gate import GATED_CHUNK_SECONDS, ChunkGate, gated
    from inspector.core.measure.attribution import DEFAULT_RUNS as ATTRIBUTION_RUNS, Attribution, ModuleStats, measure_attribution
    from inspector.core.measure.fit import OPTIMIZERS, FitRequest, estimate_fit
    from inspector.core.measure.fit_cluster import ClusterRequest, plan_cluster
    from inspector.core.measure.fit_cluster_proof import ModelSource
    from inspector.core.measure.fit_shard import STRATEGIES
    from inspector.core.measure.fit_devices import find_preset, parse_capacity, presets
    from inspector.core.measure.interleaved import (
        DEFAULT_ROUNDS,
        DEFAULT_ROUND_SECONDS,
        measure_round,
        new_pair_id,
        with_rounds,
    )
    from inspector.core.measure.repeats import MAX_REPEAT, combine_runs, run_share
    from inspector.core.measure.one_process import one_process_note
    from inspector.core.measure.fresh_runs import WORKER_ENTRY, read_worker, run_key, worker_error, worker_line, worker_samples
    from inspector.core.measure.intra_op_threads import use_threads
    from inspector.core.measure.flop_count import prepare as prepare_flop_count
    from inspector.core.measure.run_noise import RunNoise, record as record_run_noise, spread_of_runs
    from inspector.core.measure.memory_log import BackgroundSampler, MemoryTimeline, report_point
    from inspector.core.measure.memory_snapshot import (
        check_available as check_snapshot_available,
        rank_path as snapshot_rank_path,
        recording as memory_history_recorded,
        take_snapshot,
        write_snapshot,
    )
    from inspector.core.measure.trace import RankSpans, Span, TraceRecorder, build_trace, write_trace
    from inspector.core.measure.time_left import TimeLeft, time_left_text

__all__ = [
    "ATTRIBUTION_RUNS",
    "DEFAULT_ROUNDS",
    "DEFAULT_ROUND_SECONDS",
    "GATED_CHUNK_SECONDS",
    "MAX_REPEAT",
    "OPTIMIZERS",
    "Attribution",
    "BackgroundSampler",
    "ChunkGate",
    "ClusterRequest",
    "FitRequest",
    "LatencyResult",
    "MemoryTimeline",
    "ModelSource",
    "ModuleStats",
    "RankSpans",
    "RunNoise",
    "STRATEGIES",
    "Span",
    "TimeLeft",
    "TraceRecorder",
    "build_trace",
    "check_snapshot_available",
    "combine_runs",
    "estimate_fit",
    "find_preset",
    "gated",
    "make_input",
    "measure_attribution",
    "measure_round",
    "memory_history_recorded",
    "model_device",
    "new_pair_id",
    "one_process_note",
    "WORKER_ENTRY",
    "read_worker",
    "run_key",
    "worker_error",
    "worker_line",
    "worker_samples",
    "parse_capacity",
    "plan_cluster",
    "prepare_flop_count",
    "presets",
    "record_run_noise",
    "report_point",
    "request_caps",
    "run_share",
    "snapshot_rank_path",
    "use_threads",
    "spread_of_runs",
    "take_snapshot",
    "time_left_text",
    "with_rounds",
    "write_snapshot",
    "write_trace",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "ATTRIBUTION_RUNS": "attribution:DEFAULT_RUNS",
    "DEFAULT_ROUNDS": "interleaved",
    "DEFAULT_ROUND_SECONDS": "interleaved",
    "GATED_CHUNK_SECONDS": "chunk_gate",
    "MAX_REPEAT": "repeats",
    "OPTIMIZERS": "fit",
    "Attribution": "attribution",
    "ModuleStats": "attribution",
    "BackgroundSampler": "memory_log",
    "ChunkGate": "chunk_gate",
    "ClusterRequest": "fit_cluster",
    "ModelSource": "fit_cluster_proof",
    "STRATEGIES": "fit_shard",
    "plan_cluster": "fit_cluster",
    "FitRequest": "fit",
    "LatencyResult": "measurement",
    "MemoryTimeline": "memory_log",
    "RankSpans": "trace",
    "RunNoise": "run_noise",
    "Span": "trace",
    "TimeLeft": "time_left",
    "TraceRecorder": "trace",
    "build_trace": "trace",
    "check_snapshot_available": "memory_snapshot:check_available",
    "combine_runs": "repeats",
    "estimate_fit": "fit",
    "find_preset": "fit_devices",
    "gated": "chunk_gate",
    "make_input": "model_input",
    "measure_attribution": "attribution",
    "measure_round": "interleaved",
    "memory_history_recorded": "memory_snapshot:recording",
    "model_device": "model_input",
    "new_pair_id": "interleaved",
    "one_process_note": "one_process",
    "WORKER_ENTRY": "fresh_runs",
    "read_worker": "fresh_runs",
    "run_key": "fresh_runs",
    "worker_error": "fresh_runs",
    "worker_line": "fresh_runs",
    "worker_samples": "fresh_runs",
    "parse_capacity": "fit_devices",
    "prepare_flop_count": "flop_count:prepare",
    "presets": "fit_devices",
    "record_run_noise": "run_noise:record",
    "report_point": "memory_log",
    "request_caps": "timing",
    "run_share": "repeats",
    "snapshot_rank_path": "memory_snapshot:rank_path",
    "spread_of_runs": "run_noise",
    "take_snapshot": "memory_snapshot",
    "time_left_text": "time_left",
    "use_threads": "intra_op_threads",
    "with_rounds": "interleaved",
    "write_snapshot": "memory_snapshot",
    "write_trace": "trace",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
