"""Where activations cross devices in a forward pass, measured with hooks, not guessed.

One forward runs under three kinds of observers:

- forward pre/post hooks on every module keep a stack of the modules now running, and note
  which module produced each output tensor (by identity, through a weak reference, so an
  id reused by a later tensor is not mistaken for it);
- a ``TorchFunctionMode`` sees every ``Tensor.to`` / ``.cuda`` / ``.cpu`` that changes a
  tensor's device, whoever calls it (the model's own code, or the aligning hooks below), and
  records it: producer, source device, consumer, target device, bytes;
- with ``align``, forward pre-hooks on the modules a device map names move each tensor
  argument to the device that module runs on before it runs, as accelerate's
  ``dispatch_model`` does, so a model split by a map can run its forward at all;
- with ``stream``, the named modules' own parameters are copied to ``stream_to`` just before
  each call and dropped after it (accelerate's ``AlignDevicesHook`` with offload); the bytes
  and calls are counted, and these copies are weights, not activations: never a crossing.
  The module's own tensors are put back after each call, and after a forward that fails.
Every hook is removed afterwards.

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
    #: Parameter bytes copied to the main device for the streamed modules, and the calls that did.
    streamed_bytes: int = 0
    streamed_calls: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "crossings": [c.to_dict() for c in self.crossings],
            "output_device": self.output_device,
            "error": self.error,
            "streamed_bytes": self.streamed_bytes,
            "streamed_calls": self.streamed_calls,
        }


class _Observer:
    def __init__(self) -> None:
        self.stack: list[str] = []
        self.producers: dict[int, tuple[weakref.ref[torch.Tensor], str]] = {}
        self.aligning_for: str | None = None
        self.totals: dict[tuple[str, str, str, str], list[int]] = {}
        #: Copying weights in for a streamed module: not an activation crossing.
        self.streaming = False
        self.streamed_bytes = 0
        self.streamed_calls = 0
        #: The streamed modules' own tensors while their copies are in place, to put back.
        self.lent: list[tuple[dict[str, Any], str, Any]] = []
        #: Where each running streamed call's loans start (calls nest: a block, then its layers).
        self.marks: list[int] = []

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
        if source.device == result.device or self.streaming:
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


def _lend(observer: _Observer, mod: nn.Module, keys: frozenset[str], device: torch.device) -> None:
    """Copies of ``mod``'s streamed parameters (and any buffer elsewhere) on ``device``. A
    streamed parameter already there (a ``disk`` module run on the CPU: not written out here)
    is counted all the same: dispatch_model reads it in for this call."""
    observer.streaming = True
    try:
        tables: tuple[tuple[dict[str, Any], bool], ...] = ((mod._parameters, True), (mod._buffers, False))
        for table, counted in tables:
            for key, t in list(table.items()):
                if t is None or (counted and key not in keys):
                    continue
                if counted:
                    observer.streamed_bytes += t.nbytes
                if t.device != device:
                    observer.lent.append((table, key, t))
                    table[key] = t.to(device)
    finally:
        observer.streaming = False


def _give_back(observer: _Observer, mark: int = 0) -> None:
    while len(observer.lent) > mark:
        table, key, original = observer.lent.pop()
        table[key] = original


def _hooks(module: nn.Module, observer: _Observer, align: Mapping[str, torch.device],
           stream: Mapping[str, frozenset[str]], stream_to: torch.device | None) -> Iterator[Any]:  # fmt: skip
    for name, sub in module.named_modules():
        def pre(mod: nn.Module, args: Any, kwargs: Any, name: str = name) -> Any:
            observer.stack.append(name)
            keys = stream.get(name)
            if keys is not None and stream_to is not None:
                observer.streamed_calls += 1
                observer.marks.append(len(observer.lent))
                _lend(observer, mod, keys, stream_to)
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
            if name in stream and stream_to is not None and observer.marks:
                _give_back(observer, observer.marks.pop())  # dropped after the call, as AlignDevicesHook does
            if observer.stack:
                observer.stack.pop()
            observer.produced(output, name or "the model")

        yield sub.register_forward_pre_hook(pre, with_kwargs=True)
        yield sub.register_forward_hook(post)


@contextmanager
def _installed(module: nn.Module, observer: _Observer, align: Mapping[str, torch.device],
               stream: Mapping[str, frozenset[str]], stream_to: torch.device | None) -> Iterator[None]:  # fmt: skip
    handles: list[Any] = []
    try:
        handles.extend(_hooks(module, observer, align, stream, stream_to))  # a failure half-way still removes these
        yield
    finally:
        _give_back(observer)  # a forward that failed inside a streamed module
        for handle in handles:
            handle.remove()


def measure_crossings(
    module: nn.Module,
    inputs: Any,
    *,
    align: Mapping[str, torch.device] | None = None,
    stream: Mapping[str, frozenset[str]] | None = None,
    stream_to: torch.device | None = None,
) -> CrossingReport:
    """Run one forward of ``module`` on ``inputs`` (a tensor or a tuple of positional
    arguments) under ``torch.inference_mode`` in eval mode, and return the device crossings.

    ``align`` maps module names (``""`` for the root) to the device their inputs are moved to
    first. ``stream`` maps module names to their own parameters copied to ``stream_to`` for
    each call (counted in ``streamed_bytes`` / ``streamed_calls``). A forward that fails is
    reported in ``error``; the model's train/eval state, its tensors and every hook are
    restored either way.
    """
    observer = _Observer()
    args = inputs if isinstance(inputs, tuple) else (inputs,)
    observer.produced(args, INPUT)
    was_training = module.training
    output: Any = None
    error: str | None = None
    with ExitStack() as stack:
        try:
            stack.enter_context(_installed(module, observer, align or {}, stream or {}, stream_to))
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
    return CrossingReport(crossings, devices[0] if devices else "", error, observer.streamed_bytes, observer.streamed_calls)
