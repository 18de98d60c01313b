"""Core's texts about planning for a device that is not here (measure.fit_devices, fit_batch,
the fit options) and about Hugging Face model folders (files.hugging_face)."""

from __future__ import annotations

#: Named devices, their rules and allowances, the largest batch, mixed precision and checkpointing.
PLAN: dict[str, str] = {
    # ----- a device the user names (measure.fit_devices)
    "fit.not_a_capacity": "{text} is not a memory size (try 24GiB, 80GB or a number of bytes)",
    "fit.unknown_gpu": "{name} is not a GPU in the presets table (try one of: {choices}), or give --capacity",
    "fit.gpu_kind_mismatch": "{name} is a {kind} device, not {device}",
    "fit.no_capacity": "a named device needs its memory: a GPU from the presets, or a capacity",
    "fit.capacity_too_small": "{capacity} leaves nothing for the step once {taken} is set aside",
    "fit.rule_cuda_allocator": (
        "rule: the step's allocations replayed through CUDA's caching allocator ({source}): requests rounded up "
        "to 512 B; up to 1 MiB carved from 2 MiB segments, under 10 MiB from 20 MiB segments, larger ones in "
        "segments rounded up to 2 MiB; freed blocks kept for reuse (best fit, split, merged), and cached "
        "segments released before a request counts as out of memory"
    ),
    "fit.rule_plain_bytes": "rule: the step's live tensors on {device} counted byte for byte (no allocator rounding)",
    "fit.allowance_cuda_context": (
        "allowance, not a rule: {size} for the CUDA context and the kernels it loads, outside PyTorch's "
        "allocator (1-2 GB loaded at once per Hugging Face's model memory anatomy; PyTorch loads kernels "
        "lazily); a real GPU's figure depends on its driver and the kernels the step runs"
    ),
    "fit.allowance_cublas": (
        "allowance, not a rule: {count} cuBLAS workspace(s) of {size} (PyTorch's default size on Hopper, "
        "the largest), one per thread that runs matrix products"
    ),
    "fit.allowance_cublas_for": (
        "allowance, not a rule: {count} cuBLAS workspace(s) of {size}, PyTorch's default on {gpu} "
        "({architecture}, compute capability {capability}: {rule}), one per thread that runs matrix products"
    ),
    "fit.planned_absent": "{name}, planned: not on this machine",
    "fit.planned_here": "{name}, planned ({device} is here)",
    "fit.input_at_batch": "{shapes} (largest batch {batch})",
    "fit.peak_below_resolution": "under {size}: below what RSS resolves",
    "fit.allowance_unified": (
        "allowance, not a rule: the GPU plans for {share} of the unified memory (the machine itself says how much "
        "in Metal's recommendedMaxWorkingSetSize); {size} is left to the system and other programs"
    ),
    "fit.allowance_margin": "kept free as asked: {size}",
    "fit.capacity_reported": (
        "capacity: what torch.cuda.get_device_properties(i).total_memory reports for the {name}, less than the "
        "memory sold: {how} ({source})"
    ),
    "fit.capacity_derived": "capacity of the {name}, {how} ({source})",
    "fit.capacity_unified": "capacity: {how} ({source})",
    "fit.absent_named": (
        "{device} is not present here ({reason}): the step is traced with the CPU's operators and planned "
        "for {label}; nothing is measured"
    ),
    "fit.cudnn_workspace": (
        "convolutions: cuDNN's workspace, chosen at run time within the memory left, is not counted"
    ),
    # ----- the largest batch (measure.fit_batch)
    "fit.max_batch_needs_capacity": (
        "the largest batch needs to know the memory of {device}: name a GPU or a capacity"
    ),
    "fit.max_batch_needs_input": "the largest batch needs an input whose first dimension is the batch (give an input shape)",
    # ----- mixed precision and checkpointing (measure.fit_step)
    "fit.amp_note": (
        "mixed precision: the forward runs under autocast to {amp}; weights, gradients and optimizer state stay {dtype}"
    ),
    "fit.amp_scaler": "float16 training also needs a GradScaler (a few bytes; not counted)",
    # ----- the model built and the loop planned (measure.fit, fit_step)
    "fit.use_cache_off": "no KV cache: the model is called with use_cache=False (--use-cache keeps one)",
    "fit.use_cache_on": "with the KV cache: the model is called with use_cache=True, as asked",
    "fit.loop_output_freed": (
        "loop: the output is freed before backward(), as transformers' Trainer does (--keep-output plans "
        "out = model(x); out.loss.backward(); optimizer.step(), which holds it)"
    ),
    "fit.loop_output_held": (
        "loop: out = model(x); out.loss.backward(); optimizer.step(): the output (the logits) is held through "
        "backward() and the optimizer's step, and into the next step's forward until out is assigned again"
    ),
    "fit.keep_output_needs_training": (
        "--keep-output plans a training loop: a forward holds its output anyway (use --mode train-step)"
    ),
    "fit.no_checkpointing": (
        "{name} has no activation checkpointing switch (gradient_checkpointing_enable, as Hugging Face models have)"
    ),
}

#: Hugging Face model folders and the local cache (files.hugging_face).
HUGGING_FACE: dict[str, str] = {
    "load.hf_needs_transformers": (
        "{path} is a Hugging Face model folder: opening it needs transformers (pip install "
        "'torch-device-inspector[hf]')"
    ),
    "load.hf_not_in_cache": (
        "{name} is not in the local Hugging Face cache ({cache}); nothing is downloaded: fetch it first "
        "(huggingface-cli download {name}) or give the folder"
    ),
    "load.hf_bad_name": "{name} is not a Hugging Face model name (hf:ORG/NAME)",
    "load.hf_bad_config": "{path}: config.json could not be read: {error}",
    "load.hf_remote_code": (
        "{path} needs code from the model folder to build ({code}): nothing of it ran. Pass --trust to run it "
        "(only for folders you trust)"
    ),
    "load.hf_unknown_type": (
        "{path}: transformers {version} does not know the model type {model_type}, and the folder names no "
        "code for it (auto_map)"
    ),
    "load.hf_build_failed": "{path}: transformers could not build the model: {error}",
    "load.hf_config_only": (
        "built from config.json alone on the meta device: no values, nothing allocated; fit and inspect "
        "work, a benchmark needs the weights"
    ),
    "load.hf_weights": "weights loaded from {files} ({count} tensors)",
    "load.hf_long_build": (
        "building {layers} layers on the meta device: about {seconds} s here (Cancel, or Ctrl+C, stops it)"
    ),
    "load.hf_sealed_refused": (
        "while the folder loaded, transformers tried to run {what}: refused (a load starts no process and "
        "opens no connection)"
    ),
    "load.hf_build_cancelled": "the build from config.json was cancelled after {tensors} tensors: nothing was loaded",
    "load.hf_bin_ignored": (
        "the folder's weights are not in .safetensors ({files}): not loaded (only safetensors are read); built "
        "from config.json on the meta device"
    ),
    "load.hf_class_from_type": (
        "config.json names no model class (architectures): built {name}, the causal language model class of "
        "model_type {model_type} (name another in architectures to plan it instead)"
    ),
    "load.hf_no_causal_class": (
        "{path}: config.json names no model class (architectures), and model_type {model_type} has no causal "
        "language model class; name one in architectures: {choices}"
    ),
    "load.hf_token_input": "example input: token ids of shape {shape} (int64, below the vocabulary size {vocab})",
    # ----- the files a load reads, checked before transformers sees the folder (hugging_face.folder_files)
    "load.hf_not_regular": "{path}: {name} is not a regular file ({kind}): refused without being opened",
    "load.hf_outside": (
        "{path}: {name} leads to {target}, outside {root}: refused (a model's files stay inside its folder)"
    ),
    "load.hf_bad_file_name": "{path}: {where} names {name}, which is not a plain file name of the folder",
    "load.hf_file_too_large": (
        "{path}: {name} is {size}, more than the {limit} a {what} may be (published ones are far smaller): not read"
    ),
    "load.hf_json_too_deep": "{path}: {name} nests deeper than {limit} levels (real ones nest a few): not read",
    "load.hf_json_unpaired": "{path}: {name} could not be read: its brackets do not pair",
    "load.hf_json_too_many_keys": "{path}: {name} has more than {limit} keys: not read",
    "load.hf_json_duplicate_key": (
        "{path}: {name} gives the key {key} twice (readers differ on which value counts): refused"
    ),
    "load.hf_json_not_object": "{path}: {name} is {value}, not a JSON object",
    "load.hf_index_no_map": "{path}: {name}'s weight_map is {value}, not an object of tensor name -> file name",
    "load.hf_index_names_not_text": "an object whose values are not all file names",
    "load.hf_too_many_shards": "{path}: {name} names {count} weight files, more than {limit}: not read",
    # ----- what config.json declares (hugging_face.config_values)
    "load.hf_field_not_count": "{path}: config.json's {field} is {value}: it must be a whole number, at least {least}",
    "load.hf_field_too_large": (
        "{path}: config.json's {field} is {value}, more than {limit} (the largest published models use {published}): "
        "refused"
    ),
    "load.hf_too_deep": (
        "{path}: config.json's {field} add up to {layers} layers, more than {limit} (the largest published models "
        "use {published}): refused"
    ),
    "load.hf_too_many_modules": (
        "{path}: config.json declares a model of more than {limit} modules or parameter tensors (the largest "
        "published model has {published}): refused"
    ),
    "load.hf_too_many_experts": (
        "{path}: config.json declares {layers} layers of {experts} experts ({blocks} expert blocks), more than "
        "{limit} (the largest published model has {published}): refused"
    ),
    "load.hf_bad_dtype": "{path}: config.json's {field} is {value}, not a floating-point dtype (float32, float16, bfloat16, ...)",
    "load.hf_field_type": "{path}: config.json's {field} is {value}, not {expected}",
    "load.hf_expected_names": "a list of class names",
    "load.hf_expected_mapping": "an object",
    "load.hf_expected_implementation": "a name, or an object of names",
    # ----- what config.json asks transformers to run (hugging_face.code_names)
    "load.hf_not_model_class": (
        "{path}: config.json's architectures names {name}, which is not a model class of transformers "
        "(a PreTrainedModel): nothing was called"
    ),
    "load.hf_not_built_in": (
        "{path}: config.json's {field} is {value}, which is not built into transformers {version} ({known}): "
        "loading it would import code from outside transformers (a kernel from the Hub's cache, a quantization "
        "library). Pass --trust to allow it (only for folders you trust)"
    ),
    "load.hf_flash_missing": (
        "{path}: config.json's {field} is {value}, whose package is not installed here: transformers would load a "
        "kernel from the Hub's cache in its place. Pass --trust to allow it (only for folders you trust)"
    ),
    # ----- hf:ORG/NAME in the local cache (hugging_face.cache)
    "load.hf_cache_bad_ref": (
        "{name}: the local cache's {ref} is not a commit id (40 hex digits): not followed ({reason})"
    ),
    "load.hf_cache_outside": "{name}: the cached snapshot {path} lies outside {snapshots}: not opened",
    # ----- what the libraries said during the load (hugging_face.library_output)
    "load.hf_library_more": "{count} more lines from the libraries (not shown)",
}
