"""The words core, CLI and window share: failure kinds, benchmark modes, move methods, dtypes.

StrEnums, so each member *is* its string: ``BenchMode.FORWARD == "forward"``, it goes into
JSON, argparse ``choices`` and a Qt combo box as it is, and a report written before these
enums existed reads back unchanged.
"""

from __future__ import annotations

import sys
from enum import Enum

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10

    class StrEnum(str, Enum):
        """``enum.StrEnum`` (Python 3.11+): members are strings and print as their value."""

        def __str__(self) -> str:
            return str(self.value)


class FailureKind(StrEnum):
    """``Failure.kind`` / ``InspectorError.kind``. An unforeseen exception keeps its class name
    as its kind instead (``"RuntimeError"``), so a kind is not always one of these."""

    ERROR = "error"
    INPUT = "input"
    CANCELLED = "cancelled"
    LOAD = "load"
    ARCHITECTURE = "architecture"  # a state dict loaded without the spec of its model
    UNTRUSTED = "untrusted"
    DEVICE = "device"
    OOM = "oom"
    WRITE = "write"
    REFUSED = "refused"  # a move that would not be safe to start (nothing was touched)


class BenchMode(StrEnum):
    """What a latency measurement times."""

    FORWARD = "forward"
    TRAIN_STEP = "train-step"

    @property
    def label(self) -> str:
        """The words a person reads ("train step")."""
        return self.value.replace("-", " ")


class MoveMethod(StrEnum):
    """The ``nn.Module`` method a move calls."""

    TO = "to"
    CUDA = "cuda"
    CPU = "cpu"


class DType(StrEnum):
    """The dtypes a move can cast a model's floating-point tensors to, in menu order."""

    FLOAT32 = "float32"
    FLOAT16 = "float16"
    BFLOAT16 = "bfloat16"
    FLOAT64 = "float64"


#: Timed samples per measurement when the user names no number.
DEFAULT_RUNS = 100
#: Every sample is kept (report, plots), so one measurement takes at most this many: a size
#: a report and a plot still handle comfortably. Asking for more runs is capped, with a note.
MAX_SAMPLES = 100_000
#: Independent runs one measurement may hold (``bench --repeat``, the window's Repeats): pyperf
#: takes 20 processes by default; more adds little.
MAX_REPEAT = 50
#: Warm-up calls one measurement may make before it times (not counted in ``MAX_SAMPLES``:
#: a run of one sample still warms up first). What a remote agent may send back for them.
MAX_WARMUP_SAMPLES = 10_000
#: One measurement measures for at most this long (an hour): a longer ``min_time`` is capped,
#: and a run count that would take longer stops here, each with a note saying so.
MAX_MEASURE_SECONDS = 3600.0
