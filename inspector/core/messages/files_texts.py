"""Core's texts about files: loading a model, the input specs typed, what a file runs when it loads."""

from __future__ import annotations

#: Loading a model, then the input specs a user types (``files.inputs``).
LOADING: dict[str, str] = {
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
    "load.kernel_file": (
        "{path} is not a regular file with content but a special file the kernel makes up as it is "
        "read (/proc, /sys); give a model file"
    ),
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
    "load.untrusted_more": "{names} and {more} more, all listed by --debug in the CLI and Show Details in the window",
    "load.reason_runs_code": "loading it would run code it names",
    "load.reason_too_large": "it is too large to check without loading it",
    "load.reason_declares_more": (
        "it declares {declared} of tensor data, more than the {length} the file holds for it; nothing was allocated"
    ),
    "load.reason_record_differs": (
        "storage {key} declares {declared} elements but its record in the file says {recorded}; nothing was allocated"
    ),
    "load.scan_cancelled": "the check of the file was cancelled",
    "load.reason_plain_pickle": "it is a plain pickle, not a file torch.save wrote",
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
    # ----- input specs (files.inputs) and the session's "no model yet" (session)
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
}

#: What a file needs to run when it loads (``files.trust``).
TRUST: dict[str, str] = {
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
    "trust.too_large": (
        "{record} declares {size} uncompressed, over the {bound} checked for its number of tensors ({count}); "
        "nothing was inflated"
    ),
    "trust.too_long": "a pickle longer than the {opcodes} opcodes checked, {size} of it read",
    "trust.danger_shell": "{name} — runs a shell command",
    "trust.danger_program": "{name} — starts a program",
    "trust.danger_python": "{name} — runs Python code",
    "trust.danger_import": "{name} — imports a module, running its code",
    "trust.danger_native": "{name} — calls native code",
    "trust.danger_download": "{name} — downloads code and runs it",
    "trust.danger_network": "{name} — opens network connections",
    "trust.danger_files": "{name} — reads, writes or deletes files",
    "trust.danger_os": "{name} — reaches the operating system (files, processes)",
    "trust.danger_interpreter": "{name} — changes the running Python interpreter",
    "trust.danger_builtin": "{name} — a Python built-in that reaches any object",
    "trust.danger_function": "{name} — a function: it runs when the file loads",
}
