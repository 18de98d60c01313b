"""Core's words for people, each with a stable id, so the window can say them in its language.

Core never imports Qt, yet the window speaks Simplified Chinese too. So the texts core hands
a person (failure messages, verdicts, findings) are made here as ``Text``: a ``str`` whose
value is the English sentence, which also carries its template's id (``key``) and arguments.
Everything that treats it as a string (the CLI, JSON reports, tests, ``==``) sees the English
text unchanged; the window looks the template up by id in its translations and fills in the
same arguments (``inspector.gui.core_text``). Arguments are already-formatted values (numbers
with units, device ids, dtypes, code), which stay as they are in every language.

A text built by concatenating a ``Text`` with more words is a plain ``str`` again (English
everywhere): give such a sentence a template of its own instead. A part that varies (a
reason, "forward pass" or "training step", a list) can be a ``Text`` argument of the
sentence: it stays a ``Text``, and ``Text.translated`` translates it along with the sentence.

``tools/update_translations.py`` copies ``TEMPLATES`` into the window's translation sources.
"""

from __future__ import annotations

import string
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

_REFRESH_STATE = (
    "Load the optimizer's state_dict again (it follows each parameter's device and dtype), "
    "or create the optimizer after moving the model."
)

#: id -> English template (``str.format`` fields). An id never changes meaning; a changed
#: sentence gets its translation redone (the .ts marks it), a new meaning gets a new id.
TEMPLATES: dict[str, str] = {
    # ----- lists the window punctuates its own way (``joined``)
    "list.comma": "{first}, {rest}",
    "list.and": "{first} and {rest}",
    "list.semicolon": "{first}; {rest}",
    "list.and_more": "{names} and {more} more",
    # ----- verdicts: how two latency figures compare (measure.spread, report.compare)
    "verdict.slower": "{label} {factor}× slower",
    "verdict.faster": "{label} {factor}× faster",
    "verdict.slower_unsure": "{label} {factor}× slower? too few samples to tell",
    "verdict.faster_unsure": "{label} {factor}× faster? too few samples to tell",
    "verdict.unclear": "no clear difference",
    "verdict.same_within": "about the same (within {within})",
    "verdict.same": "about the same",
    "verdict.noisy_one": "{verdict} ({label} noisy: may not repeat)",
    "verdict.noisy_both": "{verdict} ({label_a} and {label_b} noisy: may not repeat)",
    "verdict.only_in": "only in {label}",
    "verdict.not_compared_differs": "not compared: {label}'s {device} run differs in {differences}",
    "verdict.differs_dtype": "dtype ({mine} vs {theirs})",
    "verdict.differs_mode": "mode ({mine} vs {theirs})",
    "verdict.differs_input_shape": "input shape ({mine} vs {theirs})",
    # ----- the runs of one session compared (report.run_verdicts: the Summary tab's bars and lines)
    "verdict.fastest": "fastest",
    "verdict.not_compared": "not compared",
    "verdict.factor_slower": "{factor}× slower",
    "verdict.factor_faster": "{factor}× faster",
    "verdict.run_slower": "{run}: {factor}× slower than {reference} (95 % CI {interval})",
    "verdict.run_faster": "{run}: {factor}× faster than {reference} (95 % CI {interval})",
    "verdict.run_slower_unsure": "{run}: {factor}× slower than {reference}? too few samples to tell",
    "verdict.run_faster_unsure": "{run}: {factor}× faster than {reference}? too few samples to tell",
    "verdict.run_unclear": "{run}: no clear difference from {reference} (95 % CI {interval})",
    "verdict.run_same_within": "{run}: about the same (within {within}) from {reference} (95 % CI {interval})",
    "verdict.run_not_compared": (
        "{run}: not compared with {other} ({differences}): only runs alike in mode, dtype and input shape are compared"
    ),
    "verdict.run_differs_mode": "mode: {mine} vs {theirs}",
    "verdict.run_differs_dtype": "dtype: {mine} vs {theirs}",
    "verdict.run_differs_input": "input: {mine} vs {theirs}",
    "verdict.run_not_alike": "not alike",
    # ----- how long a measurement has left (measure.time_left: the status line)
    "time_left.seconds": "about {seconds} s left",
    "time_left.minutes_seconds": "about {minutes} min {seconds} s left",
    "time_left.minutes": "about {minutes} min left",
    "time_left.hours_minutes": "about {hours} h {minutes} min left",
    # ----- where a model's tensors are (placement.tensor_rows: the tree, its totals, its findings)
    "placement.would_be": "{size} (would be {dense})",
    "placement.quantized": "{size} (quantized)",
    "placement.sparse": "{size} ({layout}; dense {dense})",
    "placement.meta_note": " (+ {size} on meta, not allocated)",
    "placement.device_tensor": "{device} (1 tensor)",
    "placement.device_tensors": "{device} ({count} tensors)",
    "placement.split_model": (
        "The model is split across devices: {where}. A forward pass fails with "
        "'Expected all tensors to be on the same device' until it is moved as a whole."
    ),
    "placement.optimizer_state_device": (
        "The optimizer's state stayed on {state} while the model is on {model}: "
        "{count} optimizer-state tensors ({names}). Module.to() does not move optimizer state; "
        "the next optimizer.step() fails or mixes devices. " + _REFRESH_STATE
    ),
    "placement.optimizer_state_device_one": (
        "The optimizer's state stayed on {state} while the model is on {model}: "
        "1 optimizer-state tensor ({names}). Module.to() does not move optimizer state; "
        "the next optimizer.step() fails or mixes devices. " + _REFRESH_STATE
    ),
    "placement.optimizer_state_dtype": (
        "The optimizer's state stayed in {state} while the model is in {model}: "
        "{count} optimizer-state tensors ({names}). Module.to() does not move optimizer state; "
        "the next optimizer.step() fails or mixes devices. " + _REFRESH_STATE
    ),
    "placement.optimizer_state_dtype_one": (
        "The optimizer's state stayed in {state} while the model is in {model}: "
        "1 optimizer-state tensor ({names}). Module.to() does not move optimizer state; "
        "the next optimizer.step() fails or mixes devices. " + _REFRESH_STATE
    ),
    "placement.buffer_elsewhere": "{count} buffers ({names}) are not on {device} with the parameters.",
    "placement.buffer_elsewhere_one": "1 buffer ({names}) is not on {device} with the parameters.",
    # ----- noise flags of one run's samples (measure.spread)
    "noise.tail": "noisy: p95 is {factor} the median; results may not be repeatable",
    "noise.middle_half": "noisy: the middle half of the samples spans {share} of the median; results may not be repeatable",
    "noise.median_unsure": "noisy: the median is only known to ±{share}; results may not be repeatable",
    # ----- "Will it fit?" (measure.fit, fit_proof: the fit dialog's notes and proof line)
    "fit.not_a_device": "{device} is not a device name (try cpu, cuda, cuda:0, mps or xpu)",
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
    "fit.reason_absent": "{device} is not present on this machine",
    "fit.reason_not_asked": "not measured (the proof was not asked for)",
    "fit.reason_does_not_fit": "not measured: the estimate says it does not fit",
    "fit.reason_no_input": "not measured: a step needs an input (give an input shape)",
    "fit.proof_unsupported": "measuring a real step's peak is implemented for the CPU and CUDA, not {device_type}",
    "fit.proof_cuda": "torch.cuda.max_memory_allocated over one real step",
    "fit.proof_no_allocations": "the profiler recorded no CPU allocations",
    "fit.proof_cpu": "CPU allocations counted by torch.profiler (profile_memory) over one real step",
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
    "bench.runs_capped": "{runs} runs asked for: capped at {cap} samples per measurement",
    "bench.min_time_capped": "a minimum time of {seconds} s asked for: capped at {cap} s per measurement",
    "bench.stopped_at_sample_cap": (
        "stopped at the cap of {cap} samples after {seconds} s, before the minimum time of {min_time} s was reached"
    ),
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
    # ----- loading a model (files: specs, factories, model files, checkpoints, weights, trust)
    "load.empty_spec": "empty model spec: give 'example', a model file, or module:factory",
    "load.python_file_needs_factory": "a Python file needs the name of its factory after a colon, e.g. {example}",
    "load.no_such_file_or_factory": (
        "no such file: {path} (to name a factory, write module:factory, e.g. torch.nn:Identity)"
    ),
    "load.architecture_is_file": (
        "{spec} is a file, not a factory: an architecture is given as "
        "package.module:factory or path/to/file.py:factory"
    ),
    "load.architecture_needed": (
        "{path} holds only weights (a state dict of {count} entries); say which model they belong to "
        "with an architecture spec such as mypackage.models:make_model or path/to/model.py:Net"
    ),
    "load.no_module": "no module named {module} (from spec {spec}){hint}",
    "load.hint_local_file": "; to use the file {path}, write {spec}",
    "load.import_failed": "importing {module} (from spec {spec}) failed: {error}",
    "load.no_such_file_spec": "no such file: {path} (from spec {spec})",
    "load.not_python": "cannot import {path} as Python (from spec {spec})",
    "load.running_failed": "running {path} (from spec {spec}) failed: {error}",
    "load.no_attribute": "{owner} has no attribute {attribute} (from spec {spec})",
    "load.not_a_factory": "{spec} names {value}, not a factory function or an nn.Module class",
    "load.factory_raised": "factory {spec} raised {error}{hint}",
    "load.hint_class_needs_arguments": "; a class that needs arguments must be built by a factory function",
    "load.factory_returned": "factory {spec} returned {value}, not an nn.Module or a (module, example_input) pair",
    "load.factory_example_input": (
        "factory {spec} returned {value} as example input; expected a tensor or a tuple of tensors"
    ),
    "load.value_a": "a {type}",
    "load.value_an": "an {type}",
    "load.value_a_of": "a {type} of {count} items",
    "load.value_an_of": "an {type} of {count} items",
    "load.no_such_file": "no such file: {path}",
    "load.is_folder": "{path} is a folder; give the model file inside it",
    "load.not_regular": "{path} is not a regular file (a device, pipe or socket); give a model file",
    "load.cannot_read": "cannot read {path}: {error}",
    "load.aotinductor": (
        "{path} is an AOTInductor package of compiled code, which this app does not run; "
        "open the torch.export .pt2 file or the model's factory instead"
    ),
    "load.incomplete": "not a complete PyTorch checkpoint: {path} ({reason})",
    "load.reason_empty": "the file is empty",
    "load.reason_safetensors_header": "its safetensors header is damaged",
    "load.reason_unknown_format": "its content is in no format PyTorch writes",
    "load.reason_cut_short": "it is cut short: the index at the end of its archive is missing",
    "load.reason_foreign_zip": "it is a zip archive, but not one PyTorch wrote",
    "load.reason_torchscript_unreadable": "the TorchScript archive could not be read: {error}",
    "load.pickle_damaged": "its pickle is damaged: {error}",
    "load.export_failed": "could not load the exported program {path}: {error}",
    "load.needs_safetensors": "reading .safetensors files needs the safetensors package: pip install safetensors",
    "load.incomplete_safetensors": "not a complete safetensors file: {path} ({error})",
    "load.holds_no_model": "{path} holds {value}, not a model or a state dict",
    "load.code_not_importable": (
        "{path} needs Python code that cannot be imported here: {error}; "
        "install or put on PYTHONPATH the package that defines the model"
    ),
    "load.failed": "could not load {path}: {error}",
    "load.untrusted": (
        "refused to load {path}: {reason} ({wanted}); none of it has run. "
        "If you trust this file, load it with --trust (CLI) or confirm in the GUI"
    ),
    "load.untrusted_unreadable": (
        "refused to load {path}: it is written in a way that safe (weights-only) loading does not read, "
        "so loading it could run code. If you trust this file, load it with --trust (CLI) or confirm in the GUI"
    ),
    "load.reason_runs_code": "loading it would run code it names",
    "load.reason_code_or_files": "loading it would run code or touch files",
    "load.weights_do_not_fit": "the weights in {path} do not fit {architecture}: {error}",
    "load.weights_do_not_fit_keys": "the weights in {path} do not fit {architecture} ({module}): {problems}",
    "load.missing_keys": "missing keys: {keys}",
    "load.unexpected_keys": "unexpected keys: {keys}",
    "load.shape_mismatches": "shape mismatches: {keys}",
    "load.shape_mismatch": "{key} {file} in file vs {model} in model",
    "load.note_checkpoint_entry": "model taken from the checkpoint's {key} entry",
    "load.note_checkpoint_unused": "also in the checkpoint, not used: {keys}",
    "load.note_weights_loaded": "weights from {path} loaded into {module} built by {architecture}",
    "load.note_tied_filled": "tied weights filled from their twins: {names}",
    "load.note_prefix_removed": "key prefix {prefix} removed (saved from a wrapped model)",
    "input.shape_empty": (
        "the input shape is empty: give sizes separated by commas, "
        "e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs"
    ),
    "input.shape_not_numbers": (
        "{shape} is not an input shape: give whole numbers separated by commas, "
        "e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs"
    ),
    "input.shape_too_large": (
        "{shape} is not an input shape: it has more elements than any tensor can hold (2^63 - 1)"
    ),
    "input.empty_between": "{text} has an empty input between two ';'",
    "input.no_dtype_after_colon": "input {number} ({part}) names no dtype after ':': use one of {choices}",
    "input.not_an_input_dtype": "{dtype} is not an input dtype: use one of {choices}",
    "input.no_input_given": "no input given: e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs",
    "failure.no_model": "no model is loaded yet (open one with File › Open model…)",
    # ----- writing a report (files.output_path, report.timing_report)
    "write.not_a_folder": "{folder} is not a folder",
    "write.is_folder": "it is a folder, give a file name in it",
    "write.not_regular": "it is not a regular file",
    "write.read_only": "the file exists and is read-only",
    "write.report_suffix": "cannot save a report as {name}: the file name must end in {suffixes}",
    "write.report_failed": "could not write the report to {path}: {reason}",
    "write.no_folder": "the folder {folder} does not exist",
    "write.path_is_folder": "{path} is a folder",
    "write.no_permission": "no permission to write in {folder}",
    "write.read_only_fs": "{folder} is on a read-only file system",
    "write.disk_full": "the disk is full",
    # ----- opening a report (report.timing_report)
    "report.is_folder": "{path} is a folder, not a report",
    "report.no_file": "no report at {path}: the file does not exist",
    "report.cannot_read": "could not read {path}: {error}",
    "report.not_a_report": "{path} is not a timing report: {why}",
    "report.not_a_report_json_only": "{path} is not a timing report: {why} (only .json reports can be opened again)",
    "report.not_regular": "it is not a regular file",
    "report.too_large": "it is {size}, more than the {limit} a report can be",
    "report.grew_too_large": "it is more than the {limit} a report can be",
    "report.not_text": "it is not a text file",
    "report.not_json": "it is not JSON",
    "report.number_too_long": "it holds a number too long to read",
    "report.nested_too_deeply": "it is nested too deeply",
    "report.no_schema_version": "it has no schema_version",
    "report.bad_schema_version": "its schema_version {version} is not a positive whole number",
    "report.newer_schema": (
        "{path} was written by a newer torch-device-inspector (report schema {version}; "
        "this version reads up to {supported}): update torch-device-inspector to open it"
    ),
    "report.lacks": "it lacks {keys}",
    "report.invalid": "{path} is not a valid timing report: {error}",
    # ----- devices (devices.discovery: why a device cannot be used)
    "device.no_cuda_build": "this PyTorch build has no CUDA support ({build})",
    "device.no_cuda_device": (
        "PyTorch has CUDA support but sees no CUDA device (check the NVIDIA driver and CUDA_VISIBLE_DEVICES)"
    ),
    "device.no_mps_build": "this PyTorch build has no MPS (Apple GPU) support ({build})",
    "device.mps_unavailable": "MPS is built in but not available (needs macOS 12.3+ on Apple silicon)",
    "device.no_xpu": "no Intel XPU is available to this PyTorch build ({build})",
    "device.unknown_type": "unknown device type {type} (expected one of {choices})",
    "device.not_available": "{device} is not available: {reason}",
    "device.no_such_index": "{device} does not exist: this machine has {count} {type} devices ({present})",
    "device.no_such_index_one": "{device} does not exist: this machine has 1 {type} device ({present})",
    # ----- moves (moves.request, transaction, price, seam, rollback)
    "move.not_a_dtype": "{name} is not a dtype a model can be cast to (use one of {choices}; bf16, fp16, fp32, fp64 also work)",
    "move.not_a_method": "{method} is not a move method (use one of {choices})",
    "move.method_keeps_dtypes": "model.{method}() keeps dtypes; use the 'to' method to cast to {dtype}",
    "move.to_needs_target": "model.to() needs a target device, a dtype, or both",
    "move.cpu_takes_no_device": "model.cpu() takes no device (got {device})",
    "move.cuda_takes_cuda": "model.cuda() takes a CUDA device such as 'cuda:1' or '1', not {device}",
    "move.cuda_needs_gpu": (
        "{call} needs a CUDA GPU, but {reason}; prefer model.to(device) with "
        'device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu"): it runs everywhere'
    ),
    "move.cuda_failed": (
        "{call} failed: {error}; prefer model.to(device) with "
        'device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu"): it runs everywhere'
    ),
    "move.pinned_ignored_cast": (
        "pinned ignored: pinned host memory only speeds host-to-CUDA copies, and a dtype cast stays on its device"
    ),
    "move.pinned_ignored": (
        "pinned ignored: pinned host memory only speeds host-to-CUDA copies, and the target is {device}"
    ),
    "move.cancelled": "the move was cancelled; the model is as it was before",
    "move.refused_quantized": (
        "{call} refused: the model has quantized modules whose packed weights Module.to() does not move, "
        "so it would be split across devices; quantized modules run on the CPU"
    ),
    "move.oom": (
        "out of memory on {device}: {call} needed {needed} there but only {free} was free; "
        "the model is as it was before"
    ),
    "move.oom_unknown_free": (
        "out of memory on {device}: {call} needed {needed} there but an unknown amount was free; "
        "the model is as it was before"
    ),
    "move.failed": "{call} failed: {error}; the model is as it was before",
    "move.it_was_cancelled": "it was cancelled",
    "move.rollback_failed": (
        "{call} failed ({reason}) and the rollback could not restore the model ({error}): "
        "load it again before using it"
    ),
    "move.cleanup_failed": (
        "the model was restored, but freeing the target's memory afterwards failed ({problems}): "
        "the device may be unusable until the program restarts"
    ),
    "move.nothing_pinned": "nothing was pinned: no tensor was on the host",
    "move.first_use": "first use of {device} by this process: the time includes creating its CUDA context",
    # ----- what a file needs to run when it loads (files.trust: the trust question's list)
    "trust.name_built_at_load": "(a name built at load)",
    "trust.setstate": "__setstate__ in {record} (runs at load)",
    "trust.touches_files": "{what} in {record} (touches files or other processes)",
    "trust.shape_code": "Python code in a shape expression of {record}: {code}",
    "trust.call": "a call of {what} in {record}",
    "trust.pickled_name": "{name} (pickled in {record})",
    "trust.compiled_code": "compiled code in {folder}",
    "trust.torchscript_constant": "a TorchScript object in constant {name} ({where})",
    "trust.pickled_constant": "Python objects pickled in constant {name} ({where})",
    # ----- a move's price, before it starts (moves.price: the move buttons' tooltips)
    "price.nothing_to_copy": "{call}: nothing to copy (the model is already there, in that dtype)",
    "price.peak_part": "{peak} on {device} for a moment ({ratio}x the model's bytes there)",
    "price.peak_part_new": "{peak} on {device}",
    "price.needs": "{call} needs {parts}: the originals are kept until it succeeds",
    "price.with_warnings": "{line}; {warnings}",
    # ----- device maps (moves.device_map_file, device_map, crossings: the device-map dialog's findings)
    "device_map.not_a_device": "{value} is not a device (use a GPU index such as 0, or cpu, cuda:1, mps, xpu:0, meta)",
    "device_map.not_a_gpu_index": "{value} is not a GPU index (indices start at 0)",
    "device_map.disk": "'disk' (accelerate's offload to disk) cannot be applied here: map those modules to cpu or meta",
    "device_map.not_a_device_name": "{value} is not a device name",
    "device_map.not_a_device_name_try": "{value} is not a device name (try cpu, cuda:0, mps, xpu:0 or meta)",
    "device_map.unsupported_type": "{value} is a device type this app does not place on (use {choices})",
    "device_map.not_a_size": "max_memory for {device} is {value}, not a size (bytes, or text such as 10GiB)",
    "device_map.max_memory_not_a_map": "max_memory must map devices to sizes",
    "device_map.not_an_object": (
        'a device map is a JSON object of module name -> device, e.g. {{"encoder": 0, "decoder": "cpu"}}'
    ),
    "device_map.empty": "the device map is empty: it names no module",
    "device_map.not_a_module_name": "{name} is not a module name",
    "device_map.entry": "device map entry {name}: {error}",
    "device_map.no_file": "no device map at {path}: the file does not exist",
    "device_map.is_folder": "{path} is a folder, not a device map",
    "device_map.cannot_read": "could not read the device map {path}: {error}",
    "device_map.too_large": "{path} is larger than {limit}: not a device map",
    "device_map.not_utf8": "{path} is not a device map: it is not UTF-8 text",
    "device_map.not_json": "{path} is not a device map: it is not JSON",
    "device_map.not_json_line": "{path} is not a device map: it is not JSON (line {line})",
    "device_map.unknown_name": "the device map names {name}{more}, which is no module or tensor of the model{hint}",
    "device_map.more_names": " and {count} more",
    "device_map.hint_module_names": " (its modules are named like {names})",
    "device_map.tied_stays": (
        "{name} is tied to a weight the map put on {device}, but its own entry says {target}: it stays on {device}"
    ),
    "device_map.oom": "out of memory while applying the device map ({error}); the model is as it was before",
    "device_map.unchanged": "{message}; the model is as it was before",
    "device_map.failed_meta": (
        "applying the device map failed: {error} (the model's tensors are on the meta device and hold no values: "
        "load its weights first, e.g. load_state_dict(..., assign=True)); the model is as it was before"
    ),
    "device_map.failed": "applying the device map failed: {error}; the model is as it was before",
    "device_map.spill_budget": (
        "{names} are on {spill}: the budget for {device} ({budget} in max_memory) was used up ({placed} placed there)"
    ),
    "device_map.spill_budget_one": (
        "{names} is on {spill}: the budget for {device} ({budget} in max_memory) was used up ({placed} placed there)"
    ),
    "device_map.spill_by_map": (
        "{names} are on {spill} ({size}), though {device} has {free} free: "
        "the map, not the memory, put them there (no max_memory in the file says why)"
    ),
    "device_map.spill_by_map_one": (
        "{names} is on {spill} ({size}), though {device} has {free} free: "
        "the map, not the memory, put them there (no max_memory in the file says why)"
    ),
    "device_map.spill_no_room": (
        "{names} are on {spill} ({size}) and {device} has only {free} free: forwards through them run there"
    ),
    "device_map.spill_no_room_one": (
        "{names} is on {spill} ({size}) and {device} has only {free} free: forwards through them run there"
    ),
    "device_map.spill": "{names} are on {spill} ({size}): forwards through them run there",
    "device_map.spill_one": "{names} is on {spill} ({size}): forwards through them run there",
    "device_map.over_budget": "{device} holds {placed}, more than its budget of {budget} in max_memory",
    "device_map.uncovered_buffers": "{count} buffers are not in the map and stay where they were: {names}",
    "device_map.uncovered_buffer_one": "1 buffer is not in the map and stays where it was: {names}",
    "device_map.uncovered_tensors": "{count} tensors are not in the map and stay where they were: {names}",
    "device_map.uncovered_tensor_one": "1 tensor is not in the map and stays where it was: {names}",
    "device_map.forward_failed": "the forward failed under this map: {error}",
    "device_map.crossing_input": (
        "the input is on {source_device} but {target} is on {target_device}: {size} ({count} tensors) cross each forward"
    ),
    "device_map.crossing_input_one": (
        "the input is on {source_device} but {target} is on {target_device}: {size} (1 tensor) cross each forward"
    ),
    "device_map.crossing": (
        "{source} on {source_device} hands {size} ({count} tensors) to {target} on {target_device} each forward"
    ),
    "device_map.crossing_one": (
        "{source} on {source_device} hands {size} (1 tensor) to {target} on {target_device} each forward"
    ),
    "device.no_accelerator_listed": "no accelerator is listed: {reason}",
    "device.build_not_inspected": "this PyTorch build targets {backend} devices, which this app does not inspect",
    "device.none_visible": "no {backend} device is visible",
    "device.unreadable": "{device} could not be read: {error}",
    "device.nvml_missing": (
        "GPU utilisation, temperature, power and other processes' memory need the nvml extra ({hint})"
    ),
    "device.nvml_not_started": "NVML figures are missing: NVML could not start ({error})",
    "device.nvml_unknown_gpus": "NVML does not know the GPU(s) with UUID {uuids}; their NVML figures are missing",
    # ----- the compare view's Environment table (report.compare_environment): row names
    "environment.created": "Created",
    "environment.driver": "Driver",
    "environment.cpu_cores": "CPU cores",
    "environment.cpu_threads": "CPU threads",
    "environment.torch_threads": "PyTorch threads",
    "environment.system_memory": "System memory",
    "environment.cpu_huge_pages": "CPU huge pages",
    "environment.model": "Model",
    "environment.class": "Class",
    "environment.parameters": "Parameters",
    "environment.size": "Size",
    "environment.dtypes": "Dtypes",
    "environment.optimizer": "Optimizer",
    # ----- the remote window's link to its agent (remote.client)
    "remote.bad_command": "cannot read the command {command}: {error}",
    "remote.empty_command": "the command to start the agent is empty",
    "remote.cannot_start": "cannot start {program}: {error}",
    "remote.no_answer": "no answer from the agent to {op} within {seconds} s",
}


def fields(template: str) -> set[str]:
    """The names of ``template``'s format fields (``{device}`` -> ``device``)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Text(str):
    """An English sentence that knows its template id and arguments (see the module doc)."""

    key: str
    args: Mapping[str, str]

    def __new__(cls, key: str, /, **args: Any) -> Text:  # a field may be called "key" too
        template = TEMPLATES[key]  # a KeyError here is a programming error: a new id needs a template
        # A Text argument stays a Text (a reason inside a sentence), so the window can
        # translate it too (``translated``); any other value becomes its string.
        values = {name: value if isinstance(value, Text) else str(value) for name, value in args.items()}
        missing = fields(template) - values.keys()
        if missing:
            raise TypeError(f"text {key!r} needs {sorted(missing)}")
        self = super().__new__(cls, template.format(**values))
        self.key = key
        self.args = MappingProxyType(values)
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickle, copy: made again from its id and arguments
        return _remake, (self.key, dict(self.args))

    def __repr__(self) -> str:
        return f"Text({self.key!r}, {str.__repr__(self)})"

    def translated(self, translate: Callable[[str], str]) -> str:
        """This sentence in another language: ``translate`` maps an English template to its
        translation (the window: Qt's translator, context "CoreText"); arguments that are
        ``Text`` themselves are translated the same way. A translation that lost or renamed
        a field gives the English sentence rather than failing."""
        values = {name: value.translated(translate) if isinstance(value, Text) else value
                  for name, value in self.args.items()}  # fmt: skip
        try:
            return translate(TEMPLATES[self.key]).format(**values)
        except (KeyError, IndexError, ValueError):
            return str(self)


def joined(items: Sequence[str], key: str = "list.comma") -> str:
    """``items`` as one list, which the window can translate item by item and punctuate its
    own way: ``"cpu (1 tensor), meta (2 tensors)"`` (``list.comma``), ``"a and b and c"``
    (``list.and``), ``"a; b"`` (``list.semicolon``). One item is itself; none, ``""``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Text(key, first=items[0], rest=joined(items[1:], key))


def _remake(key: str, args: dict[str, str]) -> Text:
    return Text(key, **args)
