"""The step "will it fit?" runs twice, the same calls both times so the same memory: on fake
tensors (the estimate, ``core.measure.fit``) and for real (the proof, ``core.measure.fit_proof``).

Each run works on a copy of the model whose parameters and buffers are stand-ins made by a
``TensorMaker`` (fake tensors, or real ones on the device), with inputs made from templates
(shapes and dtypes), the optimizer built as a user's first try would, and one forward (or
forward + backward + optimizer step).

Costs: a copy is the module's structure plus one stand-in per tensor (the originals are never
copied: a pre-filled deepcopy memo hands deepcopy the stand-ins).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
from typing import Any, Callable, Iterator

import torch
from torch import nn

from inspector.core.errors import Cancelled, InputError
from inspector.core.files.inputs import InputSpec
from inspector.core.files.models import LoadedModel
from inspector.core.measure.model_input import tensors_in
from inspector.core.messages import Text

# The optimizers as the proof and the estimate build them (defaults, as a user's first try).
# ``foreach`` is passed explicitly, as torch would pick it for real tensors on that device:
# a fake parameter's type is FakeTensor, which torch's own default would send to the
# per-parameter loop even on CUDA, whose real step uses the foreach kernels (whose
# temporaries are part of the peak).
_OPTIMIZER_FACTORIES: dict[str, Callable[[list[nn.Parameter], bool], torch.optim.Optimizer]] = {
    "sgd": lambda params, foreach: torch.optim.SGD(params, lr=0.01, foreach=foreach),
    "sgd-momentum": lambda params, foreach: torch.optim.SGD(params, lr=0.01, momentum=0.9, foreach=foreach),
    "adam": lambda params, foreach: torch.optim.Adam(params, foreach=foreach),
    "adamw": lambda params, foreach: torch.optim.AdamW(params, foreach=foreach),
}


TensorMaker = Callable[[torch.Tensor, torch.dtype], torch.Tensor]


def copy_with(
    module: nn.Module, make: TensorMaker, dtype: torch.dtype | None, should_cancel: Callable[[], bool] | None = None
) -> nn.Module:
    """A copy of ``module`` whose parameters and buffers are ``make(original, new_dtype)``.

    The originals are never copied: a pre-filled deepcopy memo hands deepcopy our stand-ins,
    so a 50 GB model costs no memory, and tied weights stay tied (one stand-in per tensor).
    """
    memo: dict[int, Any] = {}
    for i, p in enumerate(module.parameters()):
        poll(should_cancel, i)
        if id(p) not in memo:
            made = make(p.detach(), dtype if (dtype is not None and p.is_floating_point()) else p.dtype)
            memo[id(p)] = nn.Parameter(made, requires_grad=p.requires_grad)
    for b in module.buffers():
        if b is not None and id(b) not in memo:
            memo[id(b)] = make(b, dtype if (dtype is not None and b.is_floating_point()) else b.dtype)
    return copy.deepcopy(module, memo)


def poll(should_cancel: Callable[[], bool] | None, i: int = 0) -> None:
    """Raise ``Cancelled`` when asked to stop (checked every 64 calls of a loop)."""
    if should_cancel is not None and i % 64 == 0 and should_cancel():
        raise Cancelled(Text("failure.cancelled_estimate"))


def fake_maker(mode: Any, device: torch.device) -> TensorMaker:
    def make(original: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        with mode:
            return torch.empty_strided(original.shape, original.stride(), dtype=dtype, device=device)

    return make


def real_maker(device: torch.device) -> TensorMaker:
    def make(original: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        if original.device.type == "meta":  # no values to copy: memory is what we measure
            return torch.zeros(original.shape, dtype=dtype, device=device)
        return original.detach().to(device=device, dtype=dtype, copy=True)

    return make


# --------------------------------------------------------------------------- inputs


def input_templates(
    loaded: LoadedModel, inputs: tuple[InputSpec, ...] | None
) -> list[Any]:
    """Shapes and dtypes of the inputs: ``[(shape, dtype or None for floating), ...]``.

    None in the dtype slot means "the model's floating dtype"; other entries keep theirs
    (token ids stay int64). A non-tensor positional argument is passed through as is.
    """
    if inputs is not None:
        return [(tuple(int(d) for d in shape), getattr(torch, dtype) if dtype else None) for shape, dtype in inputs]
    example = loaded.example_input
    if example is None:
        return []
    values = example if isinstance(example, (tuple, list)) else (example,)
    out: list[Any] = []
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append((tuple(v.shape), None if v.is_floating_point() else v.dtype, v))
        else:
            out.append(v)
    return out


def make_inputs(
    templates: list[Any], float_dtype: torch.dtype, device: torch.device, *, real: bool
) -> tuple[Any, ...]:
    args: list[Any] = []
    for t in templates:
        if not isinstance(t, tuple):
            args.append(t)
            continue
        shape, dtype = t[0], t[1]
        original = t[2] if len(t) > 2 else None
        if dtype is None:
            args.append(torch.randn(shape, dtype=float_dtype, device=device) if real
                        else torch.empty(shape, dtype=float_dtype, device=device))
        elif real and original is not None and original.device.type != "meta":
            args.append(original.to(device))  # token ids keep their values (below num_embeddings)
        else:
            args.append(torch.zeros(shape, dtype=dtype, device=device))
    return tuple(args)

def run_step(
    module: nn.Module,
    args: tuple[Any, ...],
    optimizer: torch.optim.Optimizer | None,
    mode: str,
    *,
    amp: torch.dtype | None = None,
    device_type: str = "cpu",
    use_cache: bool = False,
    keep_output: bool = False,
) -> Any:
    """The step both the estimate and the proof run: the same calls, so the same memory.

    ``amp``: the forward (and the loss) under ``torch.autocast(device_type, amp)``, the
    parameters, their gradients and the optimizer's state staying in the module's dtype (the
    float32 master weights of mixed precision). A Hugging Face model that takes ``labels`` is
    called as its training loop calls it: token ids as labels, its own loss backpropagated.
    A model that takes ``use_cache`` gets ``use_cache`` (False unless asked: the config's
    default, often True, would keep a key/value cache that a plain forward or a training step
    does not need).

    The loop: by default the output is freed before ``backward()``, as transformers' Trainer
    does (it keeps the loss only). ``keep_output``: as ``out = model(x); out.loss.backward();
    optimizer.step()`` does, the output (the logits) is held through the backward and the
    optimizer's step and returned, for the caller to hold as the loop's ``out`` is held until
    the next step assigns it again; otherwise None is returned.
    """
    autocast = torch.autocast(device_type, dtype=amp) if amp is not None else contextlib.nullcontext()
    # DDP's wrapper is called as its module is (a Hugging Face model's labels, its use_cache).
    inner = module.module if isinstance(module, nn.parallel.DistributedDataParallel) else module
    kwargs = _hugging_face_kwargs(inner, args, mode, use_cache)
    if mode == "forward":
        module.eval()
        with torch.no_grad(), autocast:
            module(*args, **kwargs)
        return None
    module.train()
    with torch.enable_grad():
        with autocast:
            output = module(*args, **kwargs)
        own_loss = output.get("loss") if isinstance(output, dict) and "labels" in kwargs else None
        if isinstance(own_loss, torch.Tensor) and own_loss.requires_grad:
            parts = [own_loss]
        else:
            parts = [t.float().sum() for t in tensors_in(output) if t.requires_grad and t.is_floating_point()]
        if not parts:
            raise InputError(Text("input.output_not_trainable"))
        loss = parts[0]
        for part in parts[1:]:
            loss = loss + part
        del parts, own_loss
        held = output if keep_output else None
        del output  # the Trainer's loop: only the loss lives on into backward()
        loss.backward()
        del loss
    if optimizer is not None:
        optimizer.step()
    return held


def output_tensors(output: Any) -> Iterator[torch.Tensor]:
    """The tensors a held output keeps alive: its tensors, and a key/value cache's (a
    transformers ``Cache`` keeps them in ``layers[i].keys`` and ``.values``)."""
    yield from tensors_in(output)
    # Read by value, not by name: transformers 5 renamed past_key_values, and warns on the old name.
    for cache in output.values() if isinstance(output, dict) else ():
        for layer in getattr(cache, "layers", None) or ():
            for name in ("keys", "values"):
                tensor = getattr(layer, name, None)
                if isinstance(tensor, torch.Tensor):
                    yield tensor


def is_hugging_face(module: nn.Module) -> bool:
    """A ``transformers`` model (told without importing transformers)."""
    return hasattr(module, "config") and callable(getattr(module, "gradient_checkpointing_enable", None))


def takes_use_cache(module: nn.Module) -> bool:
    """Whether the model's forward takes ``use_cache`` (a transformers model with a KV cache)."""
    return "use_cache" in _forward_parameters(module) if is_hugging_face(module) else False


def _forward_parameters(module: nn.Module) -> Any:
    try:
        return inspect.signature(module.forward).parameters
    except (TypeError, ValueError):
        return {}


def _hugging_face_kwargs(module: nn.Module, args: tuple[Any, ...], mode: str, use_cache: bool) -> dict[str, Any]:
    if not is_hugging_face(module):
        return {}
    parameters = _forward_parameters(module)
    kwargs: dict[str, Any] = {}
    if "use_cache" in parameters:
        kwargs["use_cache"] = use_cache
    ids = args[0] if args else None
    if mode == "train-step" and "labels" in parameters and isinstance(ids, torch.Tensor) and not ids.is_floating_point() and ids.dim() == 2:
        kwargs["labels"] = ids
    return kwargs


def prepare(module: nn.Module, *, checkpointing: bool) -> None:
    """Set the copy up as the step asks: activation checkpointing through the model's own
    switch (Hugging Face: ``activation_checkpointing_enable``, before transformers 5
    ``gradient_checkpointing_enable``: ``torch.utils.checkpoint`` per block, non-reentrant).
    ``InputError`` for a model that has no such switch."""
    if not checkpointing:
        return
    if not getattr(module, "supports_gradient_checkpointing", True):
        raise InputError(Text("fit.no_checkpointing", name=type(module).__name__))
    newer = getattr(module, "activation_checkpointing_enable", None)  # transformers 5's name
    if callable(newer):
        newer(activation_checkpointing_kwargs={"use_reentrant": False})
        return
    enable = getattr(module, "gradient_checkpointing_enable", None)
    if not callable(enable):
        raise InputError(Text("fit.no_checkpointing", name=type(module).__name__))
    enable(gradient_checkpointing_kwargs={"use_reentrant": False})


def make_optimizer(name: str, module: nn.Module, device: torch.device) -> torch.optim.Optimizer | None:
    if name == "none":
        return None
    trainable = [p for p in module.parameters() if p.requires_grad]
    if not trainable:
        raise InputError(Text("input.no_trainable_for_optimizer"))
    return _OPTIMIZER_FACTORIES[name](trainable, _foreach_default(device))


def host_state(optimizer: torch.optim.Optimizer | None) -> Iterator[torch.Tensor]:
    """The optimizer's state that lives on the CPU whatever device the parameters are on: Adam's
    and AdamW's ``step`` counts, made by ``torch.tensor(0.0)`` unless the group is ``capturable``
    or ``fused``, which put them on the parameter's device (torch/optim/adam.py, ``_init_group``).
    SGD keeps no step count."""
    if optimizer is None:
        return
    for group in optimizer.param_groups:
        if group.get("capturable") or group.get("fused"):
            continue
        for p in group["params"]:
            step = optimizer.state.get(p, {}).get("step")
            if isinstance(step, torch.Tensor):
                yield step


def _foreach_default(device: torch.device) -> bool:
    """What ``torch.optim`` picks by default for plain tensors on ``device``."""
    try:
        from torch.utils._foreach_utils import _get_foreach_kernels_supported_devices

        return device.type in _get_foreach_kernels_supported_devices()
    except ImportError:  # a torch that moved it: its long-standing default
        return device.type == "cuda"
