"""The Session: one loaded model and everything measured on it, for every front end.

The window's ModelWorker, the CLI's ``bench`` and (later) a remote agent each drive one
``Session``: ``load`` a model, ``move`` it, ``measure`` its latency, read its ``state()``
and build its ``report()``. The session keeps the ledger (the moves and latency results
since the load, and the memory timeline the front end's sampler fills) so no front end
keeps its own copy.

Requests come in as frozen dataclasses and results go out as frozen dataclasses of plain
values; failures the move engine sees come back inside ``MoveResult``, everything else is
an ``InspectorError``. Only one thread may use a session at a time (it owns the tensors).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from torch import nn

from inspector.core.files import models
from inspector.core.moves import transaction as moves
from inspector.core.placement import tensor_rows as placement
from inspector.core.moves import caveats, rollback
from inspector.core.errors import InspectorError
from inspector.core.files.inputs import InputsLike
from inspector.core.measure.memory_log import MemoryTimeline
from inspector.core.placement.model_memory import model_bytes
from inspector.core.files.models import LoadedModel
from inspector.core.messages import Text
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import MoveResult
from inspector.core.placement.tensor_rows import Placement

from inspector.core.session_face import (  # the session's face, re-exported for its callers
    Progress as Progress,
    ShouldCancel as ShouldCancel,
    RunBlocking as RunBlocking,
    LoadRequest as LoadRequest,
    BenchmarkRequest as BenchmarkRequest,
    ModelInfo as ModelInfo,
    ModelState as ModelState,
    SessionCapabilities as SessionCapabilities,
    LOCAL as LOCAL,
    REMOTE as REMOTE,
    FrontEndSession as FrontEndSession,
)

if TYPE_CHECKING:
    # Imported where used: the window's first second loads a model and lists its tensors,
    # and should not pay for timing, attribution, fit, training or the report (issue 12).
    from inspector.core.measure.attribution import Attribution
    from inspector.core.measure.fit import FitRequest, FitResult
    from inspector.core.measure.fit_cluster import ClusterRequest
    from inspector.core.measure.measurement import LatencyResult
    from inspector.core.measure.training import TrainStepResult
    from inspector.core.report.schema import TimingReport

# --------------------------------------------------------------------------- session


class Session:
    """One model at a time, and the moves and latency results measured on it since its load.

    ``timeline`` is the devices' memory record: the front end's sampler fills it, the report
    reads it. It outlives a load (it is the devices' history, and shows the load itself).
    """

    def __init__(self, timeline: MemoryTimeline | None = None, *, in_window: bool = False) -> None:
        """``in_window``: the session of the window, whose notes name its controls, not bench's options."""
        self.timeline = timeline if timeline is not None else MemoryTimeline()
        self._in_window = in_window
        self._loaded: LoadedModel | None = None
        self._moves: list[MoveResult] = []
        self._latencies: list[LatencyResult] = []
        self._attributions: list[Attribution] = []
        self._fits: list[FitResult] = []
        #: How the model was loaded: a cluster plan's CPU ranks load it the same way (None: adopted).
        self._loaded_by: LoadRequest | None = None
        #: A placement taken right after a load or move, until ``state()`` hands it out
        #: (the window asks for one after each move: the snapshot is taken once).
        self._fresh: Placement | None = None
        self._info: ModelInfo | None = None  # the open model's facts, as ``state()`` last gave them

    @property
    def capabilities(self) -> SessionCapabilities:
        from inspector.core.launcher import app_workers_possible

        # A bundled app cannot start itself again (``launcher``): no runs in fresh processes there.
        return LOCAL if app_workers_possible() else dataclasses.replace(LOCAL, fresh_processes=False)

    # ----- what it holds

    @property
    def loaded(self) -> LoadedModel | None:
        return self._loaded

    @property
    def moves(self) -> tuple[MoveResult, ...]:
        return tuple(self._moves)

    @property
    def latencies(self) -> tuple[LatencyResult, ...]:
        return tuple(self._latencies)

    @property
    def attributions(self) -> tuple[Attribution, ...]:
        return tuple(self._attributions)

    @property
    def fits(self) -> tuple[FitResult, ...]:
        return tuple(self._fits)

    def require_loaded(self) -> LoadedModel:
        """The model object in this process; ``InspectorError`` when none is open."""
        if self._loaded is None:
            raise InspectorError(Text("failure.no_model"))
        return self._loaded

    def require_model(self) -> ModelInfo:
        """The open model's facts, as a remote session gives the agent's (the face's one type);
        ``InspectorError`` when none is open. The model object itself: ``require_loaded``."""
        loaded = self.require_loaded()
        if self._info is None:
            self._info = _info_of(loaded)
        return self._info

    # ----- commands

    def load(
        self, request: LoadRequest, *, should_cancel: ShouldCancel | None = None, run: RunBlocking[LoadedModel] | None = None
    ) -> ModelState:
        """Load a model in place of the current one (kept if the load fails); a new ledger starts.

        ``run``: how the factory or file runs (``RunBlocking``); the model it makes is adopted
        on the calling thread, which owns it from then on."""

        def work() -> LoadedModel:
            return models.load_model(
                request.spec, trust=request.trust, architecture=request.architecture,
                defer_optimizer=request.defer_optimizer, should_cancel=should_cancel,
            )  # fmt: skip

        loaded = work() if run is None else run(work, should_cancel or _never)
        self._loaded, self._loaded_by = loaded, request
        self._new_ledger()
        return self.state()

    def adopt(self, loaded: LoadedModel) -> ModelState:
        """Take a model loaded elsewhere (a notebook, a test) as this session's; a new ledger starts."""
        self._loaded, self._loaded_by = loaded, None
        self._new_ledger()
        return self.state()

    def move(
        self,
        request: MoveRequest,
        *,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
    ) -> MoveResult:
        """Move the model as a transaction (``core.moves.transaction.move_model``); a failed move comes
        back as a result with ``ok`` False, the model as before, and is recorded too."""
        result = moves.move_model(self.require_loaded(), request, progress=progress, should_cancel=should_cancel)
        self._moves.append(result)
        self._record_model()  # a failed move too: the record shows the rollback held
        return result

    def measure(
        self,
        request: BenchmarkRequest,
        *,
        on_sample: Callable[[int, float], None] | None = None,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
        runs_elsewhere: int = 0,
        should_stop: ShouldCancel | None = None,
        say_one_process: bool = True,
    ) -> LatencyResult:
        """Measure latency (``core.measure.timing.measure_latency``) and record the result;
        ``request.repeat`` runs of it one after another (``core.measure.repeats``), kept apart,
        or, with ``request.fresh_processes``, every run in a fresh process that loads the model
        as this session did (``core.measure.fresh_runs``). A single run of a short CPU call says
        its figure is one process's (``one_process``).
        ``runs_elsewhere``: further runs of this request taken in other processes (``bench
        --repeat``): this one keeps only its share of the samples a measurement holds.
        ``should_stop()``: True ends the measurement early, its samples kept as its result.
        ``say_one_process``: False for a run whose remedy is not a rerun here (a torchrun rank)."""
        from inspector.core.measure import ModelSource, fresh_runs, one_process_note, repeats, run_control, timing

        control = run_control.RunControl(on_sample=on_sample, progress=progress, should_cancel=should_cancel,
                                         should_stop=should_stop, max_samples=repeats.run_share(1 + runs_elsewhere))  # fmt: skip
        loaded, by, r = self.require_loaded(), self._loaded_by, request
        if r.fresh_processes and by is not None:
            from inspector.core.report.latency_reader import latency_entry

            source = ModelSource.of(by.spec, by.architecture, by.trust)
            result = fresh_runs.measure_runs_fresh(loaded, source, repeat=r.repeat, mode=r.mode, runs=r.runs,
                                                   min_time=r.min_time, input_shape=r.input_shape,
                                                   read_entry=latency_entry, control=control)  # fmt: skip
        else:
            if r.repeat > 1:
                result = repeats.measure_runs(loaded, repeat=r.repeat, mode=r.mode, runs=r.runs, min_time=r.min_time,
                                              input_shape=r.input_shape, control=control)  # fmt: skip
            else:
                result = timing.measure_latency(loaded, mode=r.mode, runs=r.runs, min_time=r.min_time,
                                                input_shape=r.input_shape, control=control)  # fmt: skip
            if r.fresh_processes:  # an adopted model: no load a process could repeat
                result = dataclasses.replace(result, notes=(*result.notes, Text("bench.fresh_runs_no_source")))
        # One process's figure, where it may not repeat (issue 46); not said by one of several runs.
        note = one_process_note(result, in_window=self._in_window) if runs_elsewhere == 0 and say_one_process else None
        if note is not None:
            result = dataclasses.replace(result, notes=(*result.notes, note))
        self._latencies.append(result)
        return result

    def attribute(
        self,
        request: BenchmarkRequest,
        *,
        progress: Progress | None = None,
        should_cancel: ShouldCancel | None = None,
    ) -> Attribution:
        """Per-module time, FLOPs and shapes (``core.measure.attribution``), recorded for the report."""
        from inspector.core.devices.discovery import device_id
        from inspector.core.measure import attribution
        from inspector.core.measure.model_input import model_device

        runs = min(request.runs or attribution.DEFAULT_RUNS, attribution.DEFAULT_RUNS)
        loaded = self.require_loaded()
        # The plain forward just timed, where the model is (the window runs it first): decides the gating.
        last = self._latencies[-1] if self._latencies else None
        forward_ms = None
        if last is not None and last.mode == "forward" and last.device == device_id(model_device(loaded.module)):
            forward_ms = last.min_ms
        result = attribution.measure_attribution(
            loaded,
            runs=runs,
            input_shape=request.input_shape,
            progress=progress,
            should_cancel=should_cancel,
            forward_ms=forward_ms,
        )
        self._attributions.append(result)
        return result

    def train_step(self, input_shape: InputsLike | None = None) -> TrainStepResult:
        """One real training step on the model itself (``core.measure.training.train_step``): its
        weights change, and its gradients and optimizer state appear in ``state()``."""
        from inspector.core.measure import training

        return training.train_step(self.require_loaded(), input_shape)

    def fit(self, request: FitRequest | ClusterRequest, *, should_cancel: ShouldCancel | None = None) -> FitResult:
        """Will one step fit on ``request.device`` (``core.measure.fit.estimate_fit``), recorded for the report.

        A ``ClusterRequest`` plans a distributed run (``core.measure.plan_cluster``): the answer is
        one rank's, its ``cluster`` the layout and, where its request measures, each CPU rank's
        peak, the ranks loading the model as this session loaded it (an adopted model has no
        load to repeat: planned, not proven). ``should_cancel`` is polled inside the estimate
        and the proof, and ends every rank (``Cancelled``)."""
        from inspector.core.measure import ClusterRequest, ModelSource, fit, plan_cluster

        if isinstance(request, ClusterRequest):
            by = self._loaded_by
            source = ModelSource.of(by.spec, by.architecture, by.trust) if by is not None and request.fit.measure else None
            planned = plan_cluster(self.require_loaded(), dataclasses.replace(request, source=source),
                                   should_cancel=should_cancel)  # fmt: skip
            self._fits.append(planned.as_fit())
            return self._fits[-1]
        result = fit.estimate_fit(self.require_loaded(), request, should_cancel=should_cancel)
        self._fits.append(result)
        return result

    # ----- views

    def state(self) -> ModelState:
        """Facts about the model and a fresh snapshot of where each of its tensors lives."""
        loaded = self.require_loaded()
        fresh, self._fresh = self._fresh, None
        info = self._info = _info_of(loaded)
        taken = fresh if fresh is not None else self._record_model()
        self._fresh = None  # handed out: the next state() looks again
        return ModelState(info, taken)

    def report(
        self,
        *,
        with_memory: bool = True,
        latency: Sequence[LatencyResult] | None = None,
        attribution: Sequence[Attribution] | None = None,
    ) -> TimingReport:
        """The timing report of this session (its keys: docs/cli.md, "The report"), typed as a
        loaded one is (``TimingReport``; its file's JSON is ``to_dict()``): the one way a front
        end builds one (the window's and ``bench``'s alike).

        ``with_memory`` False leaves the memory timeline out: an hour of it is megabytes of
        dicts, and a comparison or a Markdown block never shows it. ``latency`` and
        ``attribution``: what to report in place of the session's own (``bench --repeat``'s
        entries joined with its other processes' runs; ``bench --per-module``'s runs).
        """
        from inspector.core.report import timing_report

        memory = self.timeline.to_report() if with_memory else {}
        return timing_report.build_timing_report(
            self.require_loaded(),
            moves=self._moves,
            latency=self._latencies if latency is None else latency,
            memory=memory,
            attribution=self._attributions if attribution is None else attribution,
            fit=self._fits,
            model_memory=self.timeline.model_report() if with_memory else None,
        )

    def _record_model(self) -> Placement:
        """Snapshot the placement and record the model's bytes per device in the timeline."""
        taken = placement.snapshot(self.require_loaded())
        self.timeline.record_model(model_bytes(taken))
        self._fresh = taken
        return taken

    def _new_ledger(self) -> None:
        self._fresh = self._info = None
        self._moves.clear()
        self._latencies.clear()
        self._attributions.clear()
        self._fits.clear()


def _never() -> bool:
    return False


def _info_of(loaded: LoadedModel) -> ModelInfo:
    return ModelInfo(
        spec=loaded.spec,
        class_name=loaded.class_name,
        source=loaded.source,
        example_input_shapes=_shapes(loaded.example_input),
        notes=tuple(loaded.notes),
        **_move_facts(loaded.module),
    )


def _move_facts(module: nn.Module) -> dict[str, Any]:
    """What a front end needs to price a move without touching the model (``core.moves.price``)."""
    modules = rollback.walk(module)
    return {"move_warnings": tuple(caveats.vouch(modules)), "packed_weights": caveats.has_packed_weights(modules)}


def _shapes(example_input: Any) -> tuple[tuple[int, ...], ...]:
    if example_input is None:
        return ()
    items = example_input if isinstance(example_input, (tuple, list)) else (example_input,)
    return tuple(tuple(getattr(x, "shape", ())) for x in items if hasattr(x, "shape"))
