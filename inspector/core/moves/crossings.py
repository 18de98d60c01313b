"""Where activations cross devices in a forward pass, measured with hooks, not guessed.

One forward runs under three kinds of observers:

- forward pre/post hooks on every module keep a stack of the modules now running, and note
  which module produced each output tensor (by identity, through a weak reference, so an
  id reused by a later tensor is not mistaken for it);
- a ``TorchFunctionMode`` sees every ``Tensor.to`` / ``.cuda`` / ``.cpu`` that changes a
  tensor's device, whoever calls it (the model's own code, or the aligning hooks below), and
  records it: producer, source device, consumer, target device, bytes;
- with ``align=True``, forward pre-hooks on the modules a device map names move each tensor
  argument to that module's device before it runs, as accelerate's ``dispatch_model`` does,
  so a model split by a map can run its forward at all. They are removed afterwards.

Cost: one Python call per module call and per tensor conversion; measured once, never timed.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass
from typing import Any

import torch
from torch import nn
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_leaves, tree_map

from inspector.core.devices import discovery as devices
from inspector.core.messages import Text

INPUT = "the input"
_CONVERSIONS = frozenset({"to", "cuda", "cpu"})


def device_id(device: torch.device) -> str:
    """``cuda:0``, ``cpu``, and ``meta`` (not ``meta:0``)."""
    return "meta" if device.type == "meta" else devices.device_id(device)


@dataclass(frozen=True)
class Crossing:
    """Tensors handed from one device to another in one forward, summed per pair of ends.

    ``source`` is the module whose output crossed (``"the input"`` for the forward's own
    arguments, ``"<module>'s forward"`` for a tensor a module computed between calls to
    its children); ``target`` the module that received it on the other device.
    """

    source: str
    source_device: str
    target: str
    target_device: str
    bytes_per_forward: int
    tensors: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def describe(self) -> str:
        from inspector.core.units import format_bytes

        one = "_one" if self.tensors == 1 else ""
        words = {"size": format_bytes(self.bytes_per_forward), "count": self.tensors, "target": self.target,
                 "source_device": self.source_device, "target_device": self.target_device}  # fmt: skip
        if self.source == INPUT:
            return Text(f"device_map.crossing_input{one}", **words)
        return Text(f"device_map.crossing{one}", source=self.source, **words)


@dataclass(frozen=True)
class CrossingReport:
    crossings: tuple[Crossing, ...]
    #: Where the forward's output ended up ("" when it returned no tensor).
    output_device: str
    #: The forward's error in one line, when it failed (crossings seen before it are kept).
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "crossings": [c.to_dict() for c in self.crossings],
            "output_device": self.output_device,
            "error": self.error,
        }


class _Observer:
    def __init__(self) -> None:
        self.stack: list[str] = []
        self.producers: dict[int, tuple[weakref.ref[torch.Tensor], str]] = {}
        self.aligning_for: str | None = None
        self.totals: dict[tuple[str, str, str, str], list[int]] = {}

    def produced(self, tensors: Any, name: str) -> None:
        for leaf in tree_leaves(tensors):
            if isinstance(leaf, torch.Tensor):
                self.producers[id(leaf)] = (weakref.ref(leaf), name)

    def producer(self, tensor: torch.Tensor) -> str:
        found = self.producers.get(id(tensor))
        if found is not None and found[0]() is tensor:
            return found[1]
        return _code_of(self.stack)

    def record(self, source: torch.Tensor, result: torch.Tensor) -> None:
        if source.device == result.device:
            return
        consumer = self.aligning_for
        if consumer is None:
            consumer = _code_of(self.stack)
        key = (self.producer(source), device_id(source.device), consumer, device_id(result.device))
        entry = self.totals.setdefault(key, [0, 0])
        entry[0] += source.nbytes
        entry[1] += 1
        # The moved copy carries on the producer's name: a second hop is still its output.
        self.producers[id(result)] = (weakref.ref(result), key[0])


def _code_of(stack: list[str]) -> str:
    """A tensor made or moved between child modules: the forward of the module running it."""
    here = stack[-1] if stack else ""
    return f"{here}'s forward" if here else "the model's forward"


class _Watch(TorchFunctionMode):
    def __init__(self, observer: _Observer) -> None:
        super().__init__()
        self.observer = observer

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        result = func(*args, **(kwargs or {}))
        if getattr(func, "__name__", None) in _CONVERSIONS and args and isinstance(args[0], torch.Tensor) and isinstance(result, torch.Tensor):
            self.observer.record(args[0], result)
        return result


def _hooks(module: nn.Module, observer: _Observer, align: Mapping[str, torch.device]) -> Iterator[Any]:
    for name, sub in module.named_modules():
        def pre(mod: nn.Module, args: Any, kwargs: Any, name: str = name) -> Any:
            observer.stack.append(name)
            target = align.get(name)
            if target is None:
                return None
            observer.aligning_for = name or "the model"
            try:
                move: Callable[[Any], Any] = lambda x: x.to(target) if isinstance(x, torch.Tensor) else x  # noqa: E731
                return tree_map(move, args), tree_map(move, kwargs)
            finally:
                observer.aligning_for = None

        def post(mod: nn.Module, args: Any, output: Any, name: str = name) -> None:
            if observer.stack:
                observer.stack.pop()
            observer.produced(output, name or "the model")

        yield sub.register_forward_pre_hook(pre, with_kwargs=True)
        yield sub.register_forward_hook(post)


@contextmanager
def _installed(module: nn.Module, observer: _Observer, align: Mapping[str, torch.device]) -> Iterator[None]:
    handles: list[Any] = []
    try:
        handles.extend(_hooks(module, observer, align))  # a failure half-way still removes these
        yield
    finally:
        for handle in handles:
            handle.remove()


def measure_crossings(
    module: nn.Module,
    inputs: Any,
    *,
    align: Mapping[str, torch.device] | None = None,
) -> CrossingReport:
    """Run one forward of ``module`` on ``inputs`` (a tensor or a tuple of positional
    arguments) under ``torch.inference_mode`` in eval mode, and return the device crossings.

    ``align`` maps module names (``""`` for the root) to the device their inputs are moved to
    first. A forward that fails is reported in ``error``; the model's train/eval state and
    every hook are restored either way.
    """
    observer = _Observer()
    args = inputs if isinstance(inputs, tuple) else (inputs,)
    observer.produced(args, INPUT)
    was_training = module.training
    output: Any = None
    error: str | None = None
    with ExitStack() as stack:
        try:
            stack.enter_context(_installed(module, observer, align or {}))
        except RuntimeError as exc:  # TorchScript modules take no Python hooks
            from inspector.core.units import first_line

            return CrossingReport((), "", f"crossings cannot be measured on this model: {first_line(exc)}")
        module.eval()
        try:
            with torch.inference_mode(), _Watch(observer):
                output = module(*args)
        except Exception as exc:  # noqa: BLE001 -- a failing forward is a finding, not a crash
            from inspector.core.units import first_line

            error = first_line(exc)
        finally:
            module.train(was_training)
    crossings = tuple(
        Crossing(src, src_dev, dst, dst_dev, total[0], total[1])
        for (src, src_dev, dst, dst_dev), total in observer.totals.items()
    )
    devices = [device_id(t.device) for t in tree_leaves(output) if isinstance(t, torch.Tensor)]
    return CrossingReport(crossings, devices[0] if devices else "", error)
