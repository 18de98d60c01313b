"""The hooks of a per-module run: every module call's start and end on the run's clock, and
its outputs' shapes and new bytes on the first call (``attribution.measure_attribution``).

Two global registrations (``hooks_on``) whatever the model's size, so they come and go between
samples; ``Recorder`` keeps a stack of open calls, so a module's self time is its call less
its direct children's.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

import torch
from torch import nn

from inspector.core.measure.model_input import tensors_in


class Recorder:
    """The hooks' shared state: a stack of open calls, and per-module nanoseconds this sample."""

    def __init__(self, sync: Callable[[], None] | None, clock: Callable[[], int]) -> None:
        self.sync = sync
        self.clock = clock  # the run's clock (a test gives a fake one)
        self.tracked: set[int] = set()  # ids of the model's modules: the hooks are global
        self.stack: list[list[Any]] = []  # [module, start_ns, children_ns, child_calls, descendant_calls]
        self.inclusive: dict[int, int] = {}
        self.self_time: dict[int, int] = {}
        self.calls: dict[int, int] = {}
        self.child_calls: dict[int, int] = {}  # calls of direct children, whose hooks' outer part is in self time
        self.descendants: dict[int, int] = {}  # calls of every module below, whose whole hook cost is inside
        self.order: list[int] = []  # first-call order, for the report
        self.shapes: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.activation_bytes: dict[int, int] = {}
        self.first_call = True

    def reset(self) -> None:
        self.inclusive, self.self_time, self.calls = {}, {}, {}
        self.child_calls, self.descendants = {}, {}

    def pre(self, module: nn.Module, args: Any) -> None:
        if id(module) not in self.tracked:
            return
        if self.first_call and id(module) not in self.shapes:
            self.order.append(id(module))  # call order: a parent before its children
            self.shapes[id(module)] = ()
        if self.sync is not None:
            self.sync()
        self.stack.append([module, self.clock(), 0, 0, 0])

    def post(self, module: nn.Module, args: Any, output: Any) -> None:
        if id(module) not in self.tracked:
            return
        if self.sync is not None:
            self.sync()
        now = self.clock()
        if not self.stack or self.stack[-1][0] is not module:
            return  # a hook of a call that raised half-way: the sample is abandoned anyway
        _, start, children, child_calls, descendants = self.stack.pop()
        elapsed = now - start
        key = id(module)
        self.inclusive[key] = self.inclusive.get(key, 0) + elapsed
        self.self_time[key] = self.self_time.get(key, 0) + elapsed - children
        self.calls[key] = self.calls.get(key, 0) + 1
        self.child_calls[key] = self.child_calls.get(key, 0) + child_calls
        self.descendants[key] = self.descendants.get(key, 0) + descendants
        if self.stack:
            parent = self.stack[-1]
            parent[2] += elapsed
            parent[3] += 1
            parent[4] += 1 + descendants
        if self.first_call and key not in self.activation_bytes:
            outputs = list(tensors_in(output))
            self.shapes[key] = tuple(tuple(int(d) for d in t.shape) for t in outputs)
            self.activation_bytes[key] = new_bytes(outputs, list(tensors_in(args)))


def storage_key(t: torch.Tensor) -> int:
    try:
        return int(t.untyped_storage().data_ptr())
    except (RuntimeError, NotImplementedError):
        return id(t)


def new_bytes(outputs: list[torch.Tensor], inputs: list[torch.Tensor]) -> int:
    """Bytes of output storages that are not the inputs' (a view or an identity is free)."""
    taken = {storage_key(t) for t in inputs}
    total = 0
    for t in outputs:
        key = storage_key(t)
        if key in taken:
            continue
        taken.add(key)
        total += t.untyped_storage().nbytes()
    return total


@contextlib.contextmanager
def hooks_on(recorder: Recorder) -> Iterator[None]:
    """Global module hooks: two registrations whatever the model's size, so they can come
    and go between samples (the plain samples run with no hook at all)."""
    from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

    pre = register_module_forward_pre_hook(recorder.pre)
    try:
        post = register_module_forward_hook(recorder.post, always_call=True)
    except BaseException:
        pre.remove()
        raise
    try:
        yield
    finally:
        pre.remove()
        post.remove()
