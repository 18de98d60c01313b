"""The tutorial's lessons, run for real on this machine: each returns the facts it saw.

The tutorial teaches five things about devices; each function here performs one on the live
session (or, where the real call would cost the user their model, on a copy of it, and says
so) and returns plain values: devices, object identities, PyTorch's own messages. The window
turns them into sentences in the reader's language; nothing here is worded for a person
except PyTorch's messages, which are quoted as PyTorch wrote them.

Where this machine has no accelerator, the "other device" is ``meta``: tensors with a shape
and a dtype but no data, which PyTorch moves, checks and computes shapes on like any device.
A GPU's result is never made up: a lesson states which device it really used.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import torch
from torch import nn

from inspector.core.devices.discovery import device_id, unavailable_reason
from inspector.core.files.models import LoadedModel, example_optimizer
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import MoveResult
from inspector.core.placement.tensor_rows import snapshot
from inspector.core.session import Session

#: What PyTorch says when one forward meets tensors on two devices, on a GPU machine (torch
#: 2.x's wording, quoted for readers of a machine without one; never shown as a result).
GPU_DEVICE_MISMATCH = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
#: What PyTorch's SGD says at ``optimizer.step()`` when a parameter is on one device and its
#: momentum buffer on another: on CUDA, SGD takes its multi-tensor (foreach) path by default,
#: which groups each parameter with its state and refuses a pair on two devices (torch 2.x's
#: wording; the same check raises it on this machine for the CPU and ``meta``, which
#: tests/core/test_lessons.py asserts). Quoted for readers of a machine without a GPU.
GPU_OPTIMIZER_STATE_MISMATCH = (
    "Tensors of the same index must be on the same device and the same dtype except `step` tensors that can be "
    "CPU and float32/64, and optimizer states that can be bfloat16 for mixed-precision training"
)


@dataclass(frozen=True)
class DeviceChoice:
    """Lesson 1: ``torch.device("cuda:0" if torch.cuda.is_available() else "cpu")``."""

    cuda_available: bool
    device: str
    #: Why CUDA is not available (a CPU-only build, no driver, no GPU); None when it is.
    reason: str | None
    #: The CUDA version torch was built with; None for a CPU-only build.
    built_with_cuda: str | None
    gpu_count: int


@dataclass(frozen=True)
class TensorTo:
    """Lesson 2, tensors: ``y = x.to(device)``."""

    target: str
    x_device_before: str
    x_device_after: str
    y_device: str
    #: ``y is x``: ``Tensor.to`` returns ``x`` itself when it is already there in that dtype.
    same_object: bool


@dataclass(frozen=True)
class ModuleTo:
    """Lesson 2, modules: ``net.to(...)`` changes ``net`` itself and returns it."""

    #: What the call named: a device (``cuda:0``, ``cpu``) or a dtype (``torch.float64``).
    call: str
    #: The call was made on the live model (False: on a copy, said in the lesson).
    live: bool
    returned_same_module: bool
    names: tuple[str, ...]
    before: tuple[str, ...]  # each parameter's "device dtype" before the call
    after: tuple[str, ...]
    #: Each parameter is the same Python object after the call as before it.
    same_parameters: bool
    #: Each parameter holds new data (its storage changed): it was really converted.
    new_data: bool
    move: MoveResult | None = None


@dataclass(frozen=True)
class CudaVersusTo:
    """Lesson 3: ``.cuda()`` demands a GPU; ``.to(device)`` goes wherever ``device`` says."""

    cuda_ok: bool
    #: PyTorch's exception class and message when ``.cuda()`` failed ("" when it worked).
    cuda_error_type: str
    cuda_error: str
    device: str
    to_ok: bool
    cuda_move: MoveResult | None
    to_move: MoveResult | None


@dataclass(frozen=True)
class OptimizerOrder:
    """Lesson 4: where an SGD(momentum) optimizer's state lives after a step, when it was
    made after the move (the tutorial's order) and when it stepped before the move; and
    what the next ``optimizer.step()`` of the one that stepped before the move really did."""

    #: The conversion: a device (``cuda:0``), or without an accelerator a cast
    #: (``torch.float64``), which ``Module.to`` applies the same way and which leaves the
    #: optimizer's state behind the same way.
    target: str
    after_state: tuple[str, ...]  # each state tensor's "device dtype"
    before_state: tuple[str, ...]
    #: The placement view's finding for the "before" order ("" when it finds nothing).
    before_finding: str
    after_finding: str
    #: The "before" order's next step, after the move: PyTorch's exception class and message
    #: ("" when the step ran), and where its state and its parameters are after it.
    next_step_error_type: str = ""
    next_step_error: str = ""
    next_step_state: tuple[str, ...] = ()
    next_step_parameters: tuple[str, ...] = ()


@dataclass(frozen=True)
class DeviceMismatch:
    """Lesson 5: an input left on another device than the model's, and the fix."""

    model_device: str
    input_device: str
    error_type: str
    #: PyTorch's own message, exactly.
    error: str
    fixed_output_shape: tuple[int, ...]
    fixed_output_device: str


def _device_id(device: torch.device | str) -> str:
    """``cuda:0``, ``cpu``, and ``meta`` as PyTorch prints it (not ``meta:0``)."""
    return "meta" if torch.device(device).type == "meta" else device_id(device)


def _other_device(device: str) -> str:
    """Another device to move to: the CPU from an accelerator, ``meta`` from the CPU."""
    return "cpu" if device != "cpu" else "meta"


def device_choice() -> DeviceChoice:
    """Lesson 1, as the tutorial writes it, with why this machine answers what it does."""
    available = torch.cuda.is_available()
    device = torch.device("cuda:0" if available else "cpu")
    return DeviceChoice(
        cuda_available=available,
        device=device_id(device),
        reason=None if available else unavailable_reason("cuda"),
        built_with_cuda=torch.version.cuda,
        gpu_count=torch.cuda.device_count() if available else 0,
    )


def tensor_to(device: str) -> TensorTo:
    """``x.to(device)`` on a fresh tensor; from the CPU to itself on a machine without an
    accelerator, which returns ``x`` itself (PyTorch copies only when something changes)."""
    x = torch.randn(2, 3)
    before = _device_id(x.device)
    y = x.to(device)
    return TensorTo(device, before, _device_id(x.device), _device_id(y.device), y is x)


def _parameters(module: nn.Module) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    named = list(module.named_parameters())
    where = tuple(f"{_device_id(p.device)} {str(p.dtype).removeprefix('torch.')}" for _, p in named)
    # A meta tensor has no data: its pointer is 0, and "new data" reads as a change of device.
    return tuple(n for n, _ in named), where, tuple(id(p) for _, p in named), tuple(p.data_ptr() for _, p in named)


def module_to(session: Session, device: str) -> tuple[ModuleTo, ...]:
    """``net.to(device)`` on the live model, as a transactional move (a failure leaves it whole).

    Without an accelerator ``device`` is the CPU, where the model already is: the call returns
    it with the same data. So the lesson also casts a copy (``net.to(torch.float64)``), which
    converts every parameter in place the way a move to a GPU does; a copy, so the live model
    keeps its dtype. (A move to ``meta`` would not show it: PyTorch makes new parameter
    objects when the old and new tensor types cannot share a Python object.)
    """
    loaded = session.require_loaded()
    module = loaded.module
    names, before, ids, data = _parameters(module)
    move = session.move(MoveRequest(method="to", device=device))
    _, after, ids_after, data_after = _parameters(loaded.module)
    results = [
        ModuleTo(device, True, loaded.module is module, names, before, after, ids == ids_after,
                 all(a != b for a, b in zip(data, data_after)), move)
    ]
    if device == "cpu":
        net = copy.deepcopy(module)
        _, before, ids, data = _parameters(net)
        returned = net.to(torch.float64)
        _, after, ids_after, data_after = _parameters(net)
        results.append(ModuleTo("torch.float64", False, returned is net, names, before, after, ids == ids_after,
                                all(a != b for a, b in zip(data, data_after))))
    return tuple(results)


def cuda_versus_to(session: Session, device: str) -> CudaVersusTo:
    """``.cuda()`` then ``.to(device)`` on the live model, each as a transactional move.

    PyTorch's own message for a failing ``.cuda()`` comes from a throwaway ``nn.Linear``
    (the move engine refuses a CUDA move on a machine without CUDA before calling it)."""
    try:
        nn.Linear(1, 1).cuda()
        cuda_ok, error_type, error = True, "", ""
    except (AssertionError, RuntimeError) as exc:  # "Torch not compiled with CUDA enabled", no driver
        cuda_ok, error_type, error = False, type(exc).__name__, str(exc)
    cuda_move = session.move(MoveRequest(method="cuda")) if cuda_ok else None
    to_move = session.move(MoveRequest(method="to", device=device))
    return CudaVersusTo(cuda_ok, error_type, error, device, to_move.ok, cuda_move, to_move)


def _input_for(net: nn.Module, device: str | torch.device) -> torch.Tensor:
    """A batch of 4 for the example's Linear(3, 2), in the dtype of its parameters."""
    return torch.randn(4, 3, device=device, dtype=next(net.parameters()).dtype)


def _stepped(net: nn.Module, optimizer: torch.optim.Optimizer, device: torch.device) -> None:
    net.zero_grad(set_to_none=True)
    net(_input_for(net, device)).sum().backward()
    optimizer.step()


def _where(t: torch.Tensor) -> str:
    return f"{_device_id(t.device)} {str(t.dtype).removeprefix('torch.')}"


def _state(optimizer: torch.optim.Optimizer) -> tuple[str, ...]:
    return tuple(_where(v) for state in optimizer.state.values() for v in state.values() if isinstance(v, torch.Tensor))


def _finding(net: nn.Module, optimizer: torch.optim.Optimizer) -> str:
    findings = [f.message for f in snapshot(net, optimizer).warnings if f.code == "optimizer_state_elsewhere"]
    return findings[0] if findings else ""


def optimizer_order(loaded: LoadedModel, device: str) -> OptimizerOrder:
    """Two copies of the example: one moved then given its optimizer (the tutorial's order),
    one given its optimizer and a step, then moved. Copies, so the live model and its
    optimizer stay as they are; both start where the tutorial's model does, on the CPU in
    float32 (the live model may have been moved or cast since). Without an accelerator the move is a cast to float64: a move
    to ``meta`` would make new parameter objects, and the optimizer would no longer even
    point at the model's parameters, which is another lesson.

    Then the copy that stepped before the move takes its next step, as a script would: what
    PyTorch did (an exception, or a step that ran with the state where it was) is the fact
    the lesson reports, not a prediction."""
    target: str | torch.dtype = device if device != "cpu" else torch.float64
    # As the tutorial starts: on the CPU in float32, whatever the live model was moved or cast to.
    start = copy.deepcopy(loaded.module).to("cpu", torch.float32)
    after = copy.deepcopy(start).to(target)
    after_opt = example_optimizer(after)
    _stepped(after, after_opt, next(after.parameters()).device)

    before = start
    before_opt = example_optimizer(before)
    _stepped(before, before_opt, next(before.parameters()).device)
    before.to(target)
    stayed, finding = _state(before_opt), _finding(before, before_opt)
    try:
        _stepped(before, before_opt, next(before.parameters()).device)
        error_type, error = "", ""
    except (RuntimeError, TypeError, ValueError) as exc:  # what PyTorch raises for mixed devices or dtypes
        error_type, error = type(exc).__name__, str(exc)
    parameters = tuple(_where(p) for p in before.parameters())
    return OptimizerOrder(str(target), _state(after_opt), stayed, finding, _finding(after, after_opt),
                          error_type, error, _state(before_opt), parameters)  # fmt: skip


def device_mismatch(loaded: LoadedModel) -> DeviceMismatch:
    """The example's forward with its input on another device than its parameters, then the
    fix (``x.to(device)``). The model is not touched: only the input moves."""
    module = loaded.module
    device = next(module.parameters()).device
    other = _other_device(device_id(device))
    x = _input_for(module, other)
    try:
        with torch.no_grad():
            module(x)
        error_type, error = "", ""
    except RuntimeError as exc:
        error_type, error = type(exc).__name__, str(exc)
    # The fix: the input where the model is. From meta there is no data to copy back, so a
    # new input is made there; from a real device ``x.to(device)`` copies it.
    fixed = x.to(device) if other != "meta" else _input_for(module, device)
    with torch.no_grad():
        out = module(fixed)
    return DeviceMismatch(_device_id(device), other, error_type, error, tuple(out.shape), _device_id(out.device))


#: Each lesson's code, as the tutorial writes it (shown in the window's code view).
LESSON_CODE: dict[int, str] = {
    1: 'device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")',
    2: "y = x.to(device)\nnet.to(device)",
    3: "net.cuda()\nnet.to(device)",
    4: "net.to(device)\noptimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)",
    5: "output = net(x)\noutput = net(x.to(device))",
}  # (no comments: the lesson's text, in the reader's language, says what each line does)
LESSONS = tuple(LESSON_CODE)
#: The lessons that need the example ``Net`` loaded (lesson 1 asks the machine only).
NEEDS_EXAMPLE = frozenset({2, 3, 4, 5})


@dataclass(frozen=True)
class TensorLesson:
    """Lesson 2's whole answer: a tensor sent elsewhere, a tensor sent where it is, the module."""

    moved: TensorTo
    stayed: TensorTo
    modules: tuple[ModuleTo, ...]


def run_lesson(number: int, session: Session) -> object:
    """Lesson ``number`` (1-5) on ``session``: its facts (``DeviceChoice``, ``TensorLesson``,
    ``CudaVersusTo``, ``OptimizerOrder`` or ``DeviceMismatch``)."""
    choice = device_choice()
    if number == 1:
        return choice
    loaded = session.require_loaded()
    if number == 2:
        other = choice.device if choice.device != "cpu" else "meta"
        return TensorLesson(tensor_to(other), tensor_to(choice.device), module_to(session, choice.device))
    if number == 3:
        return cuda_versus_to(session, choice.device)
    if number == 4:
        return optimizer_order(loaded, choice.device)
    if number == 5:
        return device_mismatch(loaded)
    raise ValueError(f"there is no lesson {number}")
