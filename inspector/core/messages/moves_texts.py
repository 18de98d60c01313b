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
}
