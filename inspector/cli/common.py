"""What the sub-commands share besides printing: the option vocabulary (dtypes, move methods,
benchmark modes), the caps stated in --help, loading the model, naming a device and building
a move request from the flags.

torch and the core's heavy modules are imported inside the functions, so the parser and
``--version`` stay light.
"""

from __future__ import annotations

from inspector.cli.printing import _say
from inspector.core.vocabulary import BenchMode, DType, MoveMethod

DTYPES = tuple(d.value for d in DType)
METHODS = tuple(m.value for m in MoveMethod)
MODES = tuple(m.value for m in BenchMode)
# The caps on a benchmark request, stated in --help (the same numbers timing.py enforces;
# a test keeps them equal without importing torch here).
MAX_SAMPLES = 100_000
MAX_MEASURE_SECONDS = 3600.0


def _load(args):
    from inspector.core.files import load_model

    # The working folder is never put on sys.path: a file there named like a module that
    # PyTorch imports lazily (triton.py, tabulate.py) would run while a model file is read.
    # A factory in it is named by its path (`mymodels.py:make`); see core.files.factories.
    # A long build from a Hugging Face config says how long it will take before it starts.
    return load_model(args.spec, trust=args.trust, architecture=args.arch, say=lambda text: _say(f"note: {text}"))


def _session(loaded):
    """A Session around ``loaded``: it keeps the moves, latencies and memory timeline."""
    from inspector.core.session import Session

    session = Session()
    session.adopt(loaded)
    return session


def _device_name(text: str, method: str = "to") -> str:
    """The canonical id (``cuda`` -> ``cuda:0``) of a device the user named.

    A string that names no device at all is bad input (exit 2); a device that is merely
    absent here is left to the move, whose failure is the operation failing (exit 1).
    """
    from inspector.core.devices import device_id, named_device

    if method == "cuda" and text.isdigit():
        text = f"cuda:{text}"  # model.cuda(1)
    return device_id(named_device(text))  # '' and cpu:1 refused as the window and the agent refuse them


def _move_request(method: str, device: str | None, dtype: str | None, pinned: bool):
    from inspector.core.errors import InputError
    from inspector.core.moves import MoveRequest

    if method == "cpu" and device not in (None, "cpu"):
        raise InputError(f"--method cpu moves to the CPU only, but {device} was asked for")
    if method == "cuda" and device is not None and not device.startswith("cuda"):
        raise InputError(f"--method cuda moves to a CUDA device only, but {device} was asked for")
    if method != "to" and dtype is not None:
        raise InputError(f"--dtype needs --method to (model.{method}() cannot cast)")
    return MoveRequest(method=method, device=None if method == "cpu" else device, dtype=dtype, pinned=pinned)
