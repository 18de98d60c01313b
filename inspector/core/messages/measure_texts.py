"""Core's texts about measuring: time left, noise, fit, a run's inputs, failures and notes."""

from __future__ import annotations

#: How long a measurement has left (``measure.time_left``).
TIME_LEFT: dict[str, str] = {
    # ----- how long a measurement has left (measure.time_left: the status line)
    "time_left.seconds": "about {seconds} s left",
    "time_left.minutes_seconds": "about {minutes} min {seconds} s left",
    "time_left.minutes": "about {minutes} min left",
    "time_left.hours_minutes": "about {hours} h {minutes} min left",
}

#: Noise flags, fit, the inputs of a run, a running task's failures, a measurement's notes.
MEASUREMENT: dict[str, str] = {
    # ----- noise flags of one run's samples (measure.spread)
    "noise.tail": "noisy: p95 is {factor} the median; results may not be repeatable",
    "noise.middle_half": "noisy: the middle half of the samples spans {share} of the median; results may not be repeatable",
    "noise.median_unsure": "noisy: the median is only known to ±{share}; results may not be repeatable",
    # ----- what the machine did to a run (measure.machine_noise): the noise flag's cause, and a note
    "noise.by_machine": "{noise}: caused by the machine, not the model ({causes})",
    "noise.not_machine": (
        "{noise}: not the machine's doing (no other process, steal or preemption to speak of): "
        "the model or this process varies"
    ),
    "noise.busy_machine": (
        "{noise}: the machine was busy ({causes}), but too few samples were stalled by it to explain this: "
        "the model or this process varies"
    ),
    "noise.busy_machine_stalls_unknown": (
        "{noise}: the machine was busy ({causes}); how many samples it stalled is not measured here"
    ),
    "noise.machine_unknown": "{noise} (whether the machine caused it is not measured here)",
    "noise.other_cpu": "{share} of the run's CPU went to other processes",
    "noise.steal": "the hypervisor took {share} of the CPU (steal)",
    "noise.preempted": "the sampling threads were preempted {count} times in {samples} samples",
    "noise.machine_p95": "{causes}: p95 not reliable",
    "noise.machine_median": "{causes}: neither the median nor p95 is reliable",
    "noise.machine_busy": "{causes}: the figures may read slower than on a quiet machine",
    "noise.machine_quiet": "the machine was quiet during the run: no other process, steal or preemption to speak of",
    "noise.machine_short_run": (
        "the run was too short to measure the CPU other processes and the hypervisor took; "
        "the sampling threads were preempted {count} times"
    ),
    "noise.machine_not_measured": "what the machine did during the run is not measured here (it is read from Linux's /proc)",
    "noise.machine_too_short": "the run was too short to measure the CPU other processes and the hypervisor took",
    # what a system other than Linux does not count (macOS, Windows): said next to the note
    "noise.partly_measured": "{note} ({parts}: not measured here)",
    "noise.part_steal": "the hypervisor's steal",
    "noise.part_preemptions": "the sampling threads' preemptions",
    # ----- a warm-up longer than asked for (measure.warm_up)
    "bench.warmup_extended": (
        "warm-up took {calls} calls, not {asked}: the first calls were slower than the rest, and took {absorbed} "
        "more than the run's median would (the first calls' cost, kept out of the samples)"
    ),
    "bench.slow_start_preempted": (
        "the run's first {count} samples were slower than the rest, but the sampling threads were preempted "
        "{switches} times meanwhile: the machine's doing, so they stay in the samples"
    ),
    "bench.warmup_capped_calls": (
        "warm-up stopped at its cap of {calls} calls with its last calls still more than {tolerance} apart "
        "(a model whose calls vary, or a machine that disturbs them): the first samples may still be slow"
    ),
    "bench.warmup_capped_time": (
        "warm-up stopped at its cap of {seconds} s ({calls} calls) with its last calls still more than {tolerance} "
        "apart (a model whose calls vary, or a machine that disturbs them): the first samples may still be slow"
    ),
    # ----- "Will it fit?" (measure.fit, fit_proof: the fit dialog's notes and proof line)
    "fit.not_a_device": "{device} is not a device name (try cpu, cuda, cuda:0, mps or xpu)",
    "fit.capacity_too_large": "{text} is more than {limit}, larger than any device's memory",
    "fit.not_a_fit_device": "{device} is not a device to fit a model on (try cpu, cuda, mps or xpu)",
    "fit.no_such_index": "no such index",
    "fit.absent_device": (
        "{device} is not present here ({reason}): the estimate uses the CPU's layout "
        "(no allocator rounding), and nothing is measured"
    ),
    "fit.no_input": "no input: activations are not estimated (give an input shape)",
    "fit.forward_no_optimizer": "a forward pass holds no gradients or optimizer state: both are 0 in forward mode",
    "fit.recurrent": (
        "recurrent layers: the fused RNN kernels' workspace (oneDNN on the CPU, cuDNN on CUDA) is "
        "not in the estimate, so a real step can peak higher (on the CPU an LSTM measured 1.5x in "
        "train-step; with torch.backends.mkldnn disabled they agree)"
    ),
    "fit.needs_python_torchscript": (
        "fit needs a Python model to copy onto fake tensors, and this is a TorchScript archive: "
        "load it from its factory instead"
    ),
    "fit.needs_python_export": (
        "fit needs a Python model to copy onto fake tensors, and this is an exported program (.pt2): "
        "load it from its factory instead"
    ),
    "fit.no_input_shown": "no input",
    "fit.estimate_failed": "could not estimate the {mode} on {device} with input {shapes}: {error}",
    "fit.model_lives_there": (
        "the model already lives on {device}: its own tensors are counted as used, "
        "so the free memory shown excludes them"
    ),
    "fit.free_limited": "free memory for this process is {free}, set by {limit}, not by the machine's available memory",
    "fit.reason_absent": "{device} is not present on this machine",
    "fit.reason_not_asked": "not measured (the proof was not asked for)",
    "fit.reason_does_not_fit": "not measured: the estimate says it does not fit",
    "fit.reason_no_input": "not measured: a step needs an input (give an input shape)",
    "fit.proof_unsupported": "measuring a real step's peak is implemented for the CPU and CUDA, not {device_type}",
    "fit.proof_cuda": "torch.cuda.max_memory_allocated over one real step",
    "fit.proof_cpu_process": (
        "process peak RSS over one real step (after a first), baseline removed: resident pages the "
        "whole process touched, not the estimate's count of tensors"
    ),
    "fit.proof_cpu_process_small": (
        "process peak RSS over one real step (after a first), baseline removed; a step under 1 MiB is "
        "within this reading's noise (it counts 4 KiB pages, and the process's own small allocations)"
    ),
    "fit.proof_cpu_unavailable": "not measured: {reason}",
    "fit.peak_unavailable_os": (
        "the process's peak memory cannot be reset and read on this system (it needs Linux's "
        "/proc/self/clear_refs)"
    ),
    "fit.peak_unavailable_clear_refs": (
        "the process's peak memory cannot be reset here (/proc/self/clear_refs is not writable)"
    ),
    "fit.gap_above": "the process's peak is {gap} ({percent}) above the estimate; not counted by the estimate: {parts}",
    "fit.gap_below": (
        "the process's peak is {gap} ({percent}) below the estimate: the process's RSS counts pages "
        "touched, not bytes allocated (memory allocated and never written, or reused from what the "
        "process already held, is not in it)"
    ),
    "fit.gap_kept_by_allocator": (
        "{size} freed during the step and kept resident by the C allocator (malloc) instead of being "
        "returned to the system (handed back after every operator, the step peaks at {peak})"
    ),
    "fit.gap_onednn": (
        "{size} allocated inside {op} by oneDNN: its copies of the activations in its blocked layout "
        "(nChw16c), made and freed within the operator"
    ),
    "fit.gap_inside": (
        "{size} allocated inside {op} for the kernel's own use (not among the operator's outputs, so "
        "not in the estimate)"
    ),
    "fit.gap_python": "{size} touched by Python code after {op}, outside any tensor (NumPy's or another library's buffers)",
    "fit.gap_before_first": "{size} touched before the step's first operator, outside any tensor",
    "fit.gap_unattributed": (
        "no operator or stretch of Python code accounts for it (other threads of the process, or "
        "the allocator's rounding)"
    ),
    "fit.proof_failed": "the real step failed: {error}",
    "fit.proof_oom": "the real step ran out of memory: {error}",
    # ----- what the user typed (input shapes, modes, dtypes, run counts)
    "input.unknown_optimizer": "unknown optimizer {name}: use one of {choices}",
    "input.unknown_mode": "unknown mode {name}: use forward or train-step",
    "input.unknown_dtype": "unknown dtype {name}: use one of {choices}",
    "input.shape_not_positive": "{shape} is not an input shape: every size must be a positive whole number",
    "input.output_not_trainable": (
        "train-step needs an output that depends on trainable parameters, and this model's "
        "output does not (are all its parameters frozen?)"
    ),
    "input.no_trainable_for_optimizer": "this model has no parameters requiring grad, so an optimizer has nothing to hold",
    # ----- failures of a running task (cancelled, out of memory, a step's error)
    "failure.cancelled_estimate": "cancelled: the estimate stopped; nothing of the model was touched",
    "failure.cancelled_proof": "cancelled: the proof step stopped; its copy of the model was dropped",
    "input.warmup_at_least_one": "warm-up needs at least one call: its cost is reported separately",
    "input.runs_or_min_time": "give a number of runs or a minimum time, not both",
    "input.min_time_not_positive": "the minimum time must be a positive number of seconds, not {value}",
    "input.runs_not_whole": "the number of runs must be a whole number of at least 1, not {value}",
    "input.train_step_not_trainable": "train-step needs trainable parameters, and this model has none requiring grad",
    "input.training_not_trainable": "a training step needs trainable parameters, and this model has none requiring grad",
    "input.cannot_create": "could not create inputs {shapes} ({dtype}) on {device}: {error}",
    "input.no_example_input": (
        "this model brings no example input: give an input shape (--input-shape 1,3,224,224 on the "
        "command line, or the input-shape field in the window)"
    ),
    "input.step_failed_shape": "the model's {what} failed on an input of shape {shapes}: {error}{hint}",
    "input.step_failed_shapes": "the model's {what} failed on an input of shapes {shapes}: {error}{hint}",
    "input.hint_last_dimension": " (the model expects the last dimension to be {wanted}, not {got})",
    "input.hint_missing_inputs": (
        " (the model takes {count} more input(s), {names}: separate inputs with ';', e.g. 10,32,512; 20,32,512)"
    ),
    "input.hint_forward_takes": " (the forward takes {count} input(s))",
    "failure.what_forward": "forward pass",
    "failure.what_training": "training step",
    "failure.no_tensor": "(no tensor)",
    "failure.step_oom_shape": (
        "ran out of memory on {device} during the {what} with input shape {shapes}: "
        "try a smaller input shape or another device"
    ),
    "failure.step_oom_shapes": (
        "ran out of memory on {device} during the {what} with input shapes {shapes}: "
        "try a smaller input shape or another device"
    ),
    "failure.step_failed": "the {what} failed on {device}: {error}",
    "failure.per_module_failed": "the per-module forward failed on {device} with input {shapes}: {error}",
    "failure.cancelled_warmup": "benchmark cancelled during warm-up; the model is unchanged",
    "failure.cancelled_benchmark": "benchmark cancelled after {samples} samples; the model is unchanged",
    "failure.cancelled_per_module": "per-module timing cancelled after {samples} samples; the model is unchanged",
    "failure.copy_oom": "train-step needs a second copy of the model and it does not fit in memory",
    "failure.copy_failed": "train-step works on a copy of the model, and this model cannot be copied: {error}",
    # ----- notes of a measurement (measure.timing, sampling, model_mode, train_on_copy, attribution)
    "bench.input_shapes": "inputs of shapes {shapes}",
    "bench.dtype_changed": (
        "the model cast itself from {before} to {after} while it ran: reported as {after}; "
        "any samples taken before the cast ran in {before}"
    ),
    "bench.runs_capped": "{runs} runs asked for: capped at {cap} samples per measurement",
    "bench.interleaved_slices": "timed turn about with the other side of the comparison, in {slices} slices of each",
    "bench.one_process": (
        "one process's figure: a call of {median} on the CPU is as fast as the state of the process that runs it "
        "(fresh processes of the example in float16 landed 26-71 µs apart on PyTorch's 2 threads of a quiet 2-core VM, "
        "within 5 % in 17 of 20 on 1), so a rerun may land elsewhere; bench --threads 1 measures without the OpenMP team, "
        "bench --repeat 5 gives the median over 5 fresh processes"
    ),
    "bench.one_process_one_thread": (
        "one process's figure: a call of {median} on the CPU is as fast as the state of the process that runs it "
        "(fresh processes of the example in float16 on 1 thread landed within 5 % of one another in 17 of 20 on a quiet "
        "2-core VM, and 1.6-2.6x slower in 3), so a rerun may land elsewhere; bench --repeat 5 gives the median over 5 "
        "fresh processes"
    ),
    "bench.one_process_moved": (
        "one process's figure: a call of {median} on the CPU is as fast as the state of the process that runs it, "
        "and it moved within this run ({blocks} blocks in turn: medians from {low} to {high}), so a rerun may land "
        "elsewhere; bench --repeat 5 gives the median over 5 fresh processes"
    ),
    "bench.one_process_window": (
        "one process's figure: a call of {median} on the CPU is as fast as the state of the thread that runs it "
        "(two threads of one process, taking turns on a quiet 2-core VM, ran 2x apart for seconds), so a rerun may "
        "land elsewhere; Repeat 5 with fresh processes gives the median over 5 processes, as bench --repeat 5 does"
    ),
    "bench.one_process_window_moved": (
        "one process's figure: a call of {median} on the CPU is as fast as the state of the thread that runs it, "
        "and it moved within this run ({blocks} blocks in turn: medians from {low} to {high}), so a rerun may land "
        "elsewhere; Repeat 5 with fresh processes gives the median over 5 processes, as bench --repeat 5 does"
    ),
    "bench.fresh_runs": "every run in a fresh process that loaded the model again, none in this one: {runs} runs",
    "bench.fresh_runs_first_failed": (
        "the first run could not be taken in a fresh process ({why}): the runs were taken one after another in this process"
    ),
    "bench.fresh_run_failed": "run {number} of {repeat} (a fresh process) failed: {why}; the other runs are kept",
    "bench.fresh_run_not_started": "run {number} of {repeat} (a fresh process) could not start: {why}",
    "bench.fresh_runs_split_model": (
        "the model is not on one device (split across several, or holding no tensors), which a fresh process "
        "cannot repeat: the runs were taken one after another in this process"
    ),
    "bench.fresh_runs_no_source": (
        "the model was handed to this session, not loaded by it, so no fresh process can load it: "
        "the runs were taken one after another in this process"
    ),
    "bench.runs_pooled": "{runs} independent runs, each with its own warm-up: the figures are of their samples together",
    "bench.min_time_capped": "a minimum time of {seconds} s asked for: capped at {cap} s per measurement",
    "bench.stopped_at_sample_cap": (
        "stopped at the cap of {cap} samples after {seconds} s, before the minimum time of {min_time} s was reached"
    ),
    "bench.stopped_early": "stopped early, as asked, after {runs} samples ({seconds} s of them): the figures are of those",
    "bench.stopped_at_time_cap": "stopped after {runs} of {of} runs: the cap of {cap} s per measurement was reached",
    "bench.exported_mode": (
        "model.{method}() does not apply to an exported program: an exported program runs in the mode it was exported in"
    ),
    "bench.mode_unsupported": "model.{method}() is not supported by this model: it ran in the mode it is in",
    "bench.copy_default_optimizer": "the model has no optimizer: train-step used SGD(lr=0.01) on a copy of the model",
    "bench.copy_optimizer": "train-step ran {optimizer} on a copy of the model and its state",
    "bench.default_optimizer": "the model had no optimizer: it now has {optimizer}",
    "bench.torchscript_whole_only": (
        "a TorchScript module runs its submodules inside the script: only the whole model is timed"
    ),
    "bench.modules_never_ran": (
        "{count} modules never ran as modules in this forward (a fused fast path or a forward that calls "
        "their weights directly): they have no row"
    ),
    # ----- why per-module figures are rough (measure.attribution.reliability)
    "modules.disturbed": (
        "the per-module run was disturbed (its forwards' p95 is {factor} their median): "
        "the per-module times may be off; run it again"
    ),
    "modules.hooks_dominate": (
        "the hooks add {per_call} per module call, more than the modules' own time (the forward takes {ratio} "
        "as long with them): per-module times of this small model are mostly the hooks' cost; {calibrated} a call, "
        "measured on empty modules, is taken out of them, so they are estimates"
    ),
    "modules.hooks_large": (
        "the hooks add {per_call} per module call (the forward takes {ratio} as long with them): {calibrated} a call, "
        "measured on empty modules, is taken out of the per-module times, so they are estimates"
    ),
    "modules.sum_exceeds": (
        "the modules' self times add up to {factor} the forward measured without hooks: the per-module figures "
        "include time the forward without hooks does not spend (the hooks' cost beyond what was taken out, "
        "or waits during the run)"
    ),
    "modules.sum_short": (
        "the modules' self times add up to only {factor} the forward measured without hooks: part of the forward's "
        "time is in no module's median (interruptions that hit a different module each time, as when another "
        "process takes the CPU), so the shares of the forward add up to less than 100 %"
    ),
}
