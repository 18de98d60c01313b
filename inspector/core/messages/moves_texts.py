"""Core's texts about moves: a move's request, failure and rollback, its price, device maps."""

from __future__ import annotations

#: A move as a transaction (``moves.request``, ``transaction``, ``seam``, ``rollback``).
MOVES: dict[str, str] = {
    # ----- moves (moves.request, transaction, price, seam, rollback)
    "move.not_a_dtype": "{name} is not a dtype a model can be cast to (use one of {choices}; bf16, fp16, fp32, fp64 also work)",
    "move.not_a_method": "{method} is not a move method (use one of {choices})",
    "move.method_keeps_dtypes": "model.{method}() keeps dtypes; use the 'to' method to cast to {dtype}",
    "move.to_needs_target": "model.to() needs a target device, a dtype, or both",
    "move.cpu_takes_no_device": "model.cpu() takes no device (got {device})",
    "move.cuda_takes_cuda": "model.cuda() takes a CUDA device such as 'cuda:1' or '1', not {device}",
    "move.pytorch_said": "{message}. PyTorch's own message, as a script meets it: “{said}”",
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
}

#: A move's price, before it starts (``moves.price``).
PRICE: dict[str, str] = {
    # ----- a move's price, before it starts (moves.price: the move buttons' tooltips)
    "price.nothing_to_copy": "{call}: nothing to copy (the model is already there, in that dtype)",
    "price.peak_part": "{peak} on {device} for a moment ({ratio}x the model's bytes there)",
    "price.peak_part_new": "{peak} on {device}",
    "price.needs": "{call} needs {parts}: the originals are kept until it succeeds",
    "price.with_warnings": "{line}; {warnings}",
}

#: Device maps, their spills and crossings (``moves.device_map_file``, ``device_map``, ``crossings``).
DEVICE_MAPS: dict[str, str] = {
    # ----- device maps (moves.device_map_file, device_map, crossings: the device-map dialog's findings)
    "device_map.not_a_device": "{value} is not a device (use a GPU index such as 0, or cpu, cuda:1, mps, xpu:0, meta)",
    "device_map.not_a_gpu_index": "{value} is not a GPU index (indices start at 0)",
    "device_map.not_a_device_name": "{value} is not a device name",
    "device_map.not_a_device_name_try": "{value} is not a device name (try cpu, cuda:0, mps, xpu:0 or meta)",
    "device_map.unsupported_type": "{value} is a device type this app does not place on (use {choices})",
    "device_map.not_a_size": (
        "max_memory for {device} is {value}, not a size as accelerate reads it (bytes, or text such as 10GiB or 500MB; "
        "a lowercase b is bits: 160Mb is 20 MB)"
    ),
    "device_map.max_memory_not_a_map": "max_memory must map devices to sizes",
    "device_map.max_memory_key": "max_memory key {key}: {error}",
    "device_map.not_class_names": 'no_split_module_classes is {value}: give a list of class names, e.g. ["LlamaDecoderLayer"]',
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
    "device_map.not_regular": "{path} is not a device map: it is not a regular file (a pipe, device or socket)",
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
    "device_map.main_by_hash_seed": (
        "the main device is not fixed: accelerate's dispatch_model takes list(set(device_map.values()) - "
        "{{'cpu', 'disk'}})[0], and a set of device names given as strings ({devices}) iterates by the process's "
        "hash seed (PYTHONHASHSEED), so any of them may be the main device; this explanation assumes {main}. Name "
        "GPUs by integer ids (0, 1), as infer_auto_device_map writes them (a set of ids 0-7 iterates lowest "
        "first), or pass main_device= to dispatch_model"
    ),
    "device_map.streamed": (
        "{names} run on {main}, not on {held}: at every forward accelerate's AlignDevicesHook copies each module's "
        "parameters from {held} to {main} just before it runs and frees them after ({size} per forward, once per call); "
        "their activations stay on {main}"
    ),
    "device_map.streamed_buffers": (
        "the buffers of the modules on {held} ({size}) stay on {main} the whole time: accelerate streams parameters only "
        "(offload_buffers=False)"
    ),
    "device_map.streamed_measured": "one forward streamed {size} of weights to {main} in {calls} module calls (measured with hooks)",
    "device_map.streamed_measured_one": "one forward streamed {size} of weights to {main} in 1 module call (measured with hooks)",
    "device_map.disk_not_applied": (
        "{names} ({size}) are mapped to disk: explained, not applied (nothing is written; they stay where they are); "
        "dispatch_model writes these weights to its offload_dir and reads them back at every forward"
    ),
    "device_map.disk_budget": "max_memory gives disk {budget}: accelerate accepts the key but never limits disk by it",
    "device_map.disk_budget_unused": (
        "max_memory gives disk {budget}, but no module is on disk: accelerate accepts the key and never limits disk by it"
    ),
    "device_map.budget": "{device}: max_memory {budget} = {placed} placed + {left} left",
    "device_map.budget_reserve": (
        "{device}: max_memory {budget} = {placed} placed + {reserve} kept free for the largest layer still to place "
        "({layers}) + {left} left"
    ),
    "device_map.budget_below_reserve": (
        "{device}: max_memory {budget} is less than the {reserve} accelerate keeps free there for the largest layer "
        "still to place ({layers}), so it placed nothing there"
    ),
    "device_map.next_did_not_fit": (
        "the next layer, {name} ({size}), did not fit in the {left} left on {device}, so accelerate went on to {target}"
    ),
    "device_map.spill_by_map": (
        "{names} are on {spill} ({size}), though {device} has {free} free: "
        "the map, not the memory, put them there (no max_memory in the file says why)"
    ),
    "device_map.spill_by_map_one": (
        "{names} is on {spill} ({size}), though {device} has {free} free: "
        "the map, not the memory, put them there (no max_memory in the file says why)"
    ),
    "device_map.spill_no_room": "{names} are on {spill} ({size}) and {device} has only {free} free: too little to hold them",
    "device_map.spill_no_room_one": "{names} is on {spill} ({size}) and {device} has only {free} free: too little to hold it",
    "device_map.over_budget": "{device} holds {placed}, more than its budget of {budget} in max_memory",
    "device_map.over_budget_reserve": (
        "{device} holds {placed}, more than its max_memory of {budget} less the {reserve} accelerate keeps free for the "
        "largest layer still to place ({layers}): accelerate would not make this map from these budgets"
    ),
    "device_map.uncovered_buffers": "{count} buffers are not in the map and stay where they were: {names}",
    "device_map.uncovered_buffer_one": "1 buffer is not in the map and stays where it was: {names}",
    "device_map.uncovered_tensors": "{count} tensors are not in the map and stay where they were: {names}",
    "device_map.uncovered_tensor_one": "1 tensor is not in the map and stays where it was: {names}",
    "device_map.forward_failed": "the forward failed under this map: {error}",
    "device_map.forward_failed_streamed": (
        "the forward failed under this map: {error} (dispatch_model streams a module's weights only when that module "
        "is called: a module that reads a child's weights without calling it, as nn.MultiheadAttention reads "
        "out_proj.weight, needs preload_module_classes=[its class name])"
    ),
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
}
