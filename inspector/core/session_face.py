"""What a front end hands a session and gets back, and what it may ask of one, local or remote.

The requests (``LoadRequest``, ``BenchmarkRequest``) and results (``ModelInfo``, ``ModelState``)
are frozen dataclasses of plain values; ``SessionCapabilities`` says what a session can do, as
data; ``FrontEndSession`` is the face ``session.Session`` and ``remote.session.RemoteSession``
both show. Kept apart from the ``Session`` itself so the face is read in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from inspector.core.files.inputs import InputsLike, as_specs
from inspector.core.files.models import LoadedModel
from inspector.core.measure.memory_log import MemoryTimeline
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import MoveResult
from inspector.core.placement.tensor_rows import Placement
from inspector.core.vocabulary import DEFAULT_RUNS, BenchMode

if TYPE_CHECKING:
    from inspector.core.measure.attribution import Attribution
    from inspector.core.measure.fit import FitRequest, FitResult
    from inspector.core.measure.fit_cluster import ClusterRequest
    from inspector.core.measure.measurement import LatencyResult
    from inspector.core.measure.training import TrainStepResult
    from inspector.core.report.schema import TimingReport

Progress = Callable[[int, int], None]
ShouldCancel = Callable[[], bool]
_T = TypeVar("_T")
#: Runs a piece of work nothing can interrupt (a model's factory, a file's code) and returns
#: what it made: a front end hands one that runs it on a thread it may abandon, polling
#: ``should_cancel`` (the window's ``run_abandonable``); by default it is simply called.
RunBlocking = Callable[[Callable[[], _T], ShouldCancel], _T]


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class LoadRequest:
    """Load ``spec`` (the specs: docs/cli.md, "Model specs"); ``trust`` lets a file run its own code;
    ``architecture`` is the factory spec a state dict or ``.safetensors`` file needs."""

    spec: str
    trust: bool = False
    architecture: str | None = None
    #: The example's optimizer is made on first need, not with the model (``models.load_model``):
    #: a front end that shows the tensors first makes it afterwards.
    defer_optimizer: bool = False

    def call(self) -> str:
        """The request as the code it runs (the history's "call" column)."""
        trust = ", trust=True" if self.trust else ""
        arch = f", architecture={self.architecture!r}" if self.architecture else ""
        return f"load_model({self.spec!r}{trust}{arch})"


@dataclass(frozen=True)
class BenchmarkRequest:
    """One latency measurement: ``runs`` samples (or ``min_time`` seconds of them) of ``mode``.

    ``input_shape`` None: the model's own example input; else input specs
    (``core.files.inputs.parse_inputs``: several inputs, each with its dtype) or one bare shape.
    """

    mode: str = BenchMode.FORWARD.value
    runs: int | None = DEFAULT_RUNS
    min_time: float | None = None
    input_shape: InputsLike | None = None
    #: After the plain measurement, time every module too (``Session.attribute``).
    per_module: bool = False
    #: Independent runs, one after another, each with its own warm-up (``core.measure.repeats``):
    #: the result keeps each run's samples, so a comparison sees how runs differ.
    repeat: int = 1
    #: Runs 2..``repeat`` each in a fresh process that loads the model again, as ``bench
    #: --repeat`` takes them (``core.measure.fresh_runs``); where ``capabilities.fresh_processes``.
    fresh_processes: bool = False

    def call(self) -> str:
        """The request in words, for the history ("forward ×100 · input 1x3")."""
        text = f"{self.mode} ×{self.runs}" if self.runs is not None else f"{self.mode} ≥{self.min_time} s"
        specs = as_specs(self.input_shape)
        if specs is not None:
            text += " · input " + "; ".join("x".join(map(str, s.shape)) + (f":{s.dtype}" if s.dtype else "") for s in specs)
        if self.repeat > 1:
            text += f" · {self.repeat} runs" + (" in fresh processes" if self.fresh_processes else "")
        return text


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class ModelInfo:
    """What a front end shows about the loaded model, besides its placement."""

    spec: str
    class_name: str
    source: str
    #: Shape of each tensor of the example input; () when the model brings none.
    example_input_shapes: tuple[tuple[int, ...], ...] = ()
    notes: tuple[str, ...] = ()
    #: Known before any move: where a rollback could not be exact (``core.moves.caveats.vouch``).
    move_warnings: tuple[str, ...] = ()
    #: Quantized modules whose packed weights a device move would leave behind.
    packed_weights: bool = False

    @property
    def has_example_input(self) -> bool:
        return bool(self.example_input_shapes)


@dataclass(frozen=True)
class ModelState:
    """The model after a load or a move: facts about it and where every tensor lives."""

    info: ModelInfo
    placement: Placement


# --------------------------------------------------------------------------- what a front end drives


@dataclass(frozen=True)
class SessionCapabilities:
    """What a session can do, as data: a front end asks these, never the session's class."""

    #: The model lives in another process (an agent, maybe on another machine), reached over a pipe.
    remote: bool
    #: ``attribute``: per-module time, FLOPs and shapes (a remote session's come with a
    #: per-module ``measure`` and are handed over by ``attribute``).
    per_module_timing: bool = True
    #: ``fit``: "will one step fit on this device?".
    fit: bool = True
    #: ``train_step``: one real training step on the model.
    train_step: bool = True
    #: The lessons (``core.lessons``) run on this session's model.
    lessons: bool = True
    #: ``measure``'s ``should_stop`` ends a measurement early, its samples kept as its result.
    stop_early: bool = True
    #: The samples are timed in this process: a front end parks its own threads around them
    #: (the window's ``sample_gate``). A remote session's are timed in the agent's process.
    timed_here: bool = True
    #: The front end's sampler reads this machine's devices; else the session's machine
    #: streams its readings (``RemoteSession.start_memory``).
    memory_sampled_here: bool = True
    #: ``BenchmarkRequest.fresh_processes``: later runs in fresh processes of this machine.
    fresh_processes: bool = True


#: A ``Session`` in this process: it can do everything.
LOCAL = SessionCapabilities(remote=False)
#: A ``RemoteSession``: loads, moves, measures (per module too) and reports; no fit, training
#: step or lesson yet; its samples are timed, and its memory read, on the agent's machine.
REMOTE = SessionCapabilities(
    remote=True, fit=False, train_step=False, lessons=False, stop_early=False, timed_here=False, memory_sampled_here=False,
    fresh_processes=False,
)


class FrontEndSession(Protocol):
    """What a front end (the window's worker) may ask of a session, local or remote.

    ``Session`` and ``core.remote.session.RemoteSession`` implement it with the same result
    types; ``capabilities`` says what one of them can do. Progress callbacks may be given
    floats or whole numbers; every callback runs on the calling thread.
    """

    @property
    def capabilities(self) -> SessionCapabilities: ...

    #: The devices' memory record on this machine's clock; the report reads it.
    timeline: MemoryTimeline

    @property
    def loaded(self) -> LoadedModel | None:
        """The model object in this process; None when there is none, or it lives elsewhere."""
        ...

    def require_model(self) -> ModelInfo:
        """The open model's facts, locally and remotely alike; ``InspectorError`` when none is open."""
        ...

    def load(
        self, request: LoadRequest, *, should_cancel: ShouldCancel | None = None, run: RunBlocking[LoadedModel] | None = None
    ) -> ModelState: ...

    def state(self) -> ModelState: ...

    def move(
        self,
        request: MoveRequest,
        *,
        progress: Callable[[float, float], None] | None = None,
        should_cancel: ShouldCancel | None = None,
    ) -> MoveResult: ...

    def measure(
        self,
        request: BenchmarkRequest,
        *,
        on_sample: Callable[[int, float], None] | None = None,
        progress: Callable[[float, float], None] | None = None,
        should_cancel: ShouldCancel | None = None,
        should_stop: ShouldCancel | None = None,
    ) -> LatencyResult: ...

    def attribute(
        self,
        request: BenchmarkRequest,
        *,
        progress: Callable[[float, float], None] | None = None,
        should_cancel: ShouldCancel | None = None,
    ) -> Attribution: ...

    def train_step(self, input_shape: InputsLike | None = None) -> TrainStepResult: ...

    def fit(self, request: FitRequest | ClusterRequest, *, should_cancel: ShouldCancel | None = None) -> FitResult: ...

    def report(self, *, with_memory: bool = True) -> TimingReport: ...
