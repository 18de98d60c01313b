"""The Session every front end drives, used directly: no Qt, no thread, no CLI."""

from __future__ import annotations

import json

import pytest
import torch

from inspector.core.devices.discovery import memory_reading
from inspector.core.errors import InputError, InspectorError
from inspector.core.measure.memory_log import MemoryTimeline
from inspector.core.files.models import Net, example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.report.timing_report import load_report, save_report
from inspector.core.files.inputs import parse_inputs
from inspector.core.session import BenchmarkRequest, LoadRequest, Session
from inspector.core.vocabulary import BenchMode
from tests.report_edge import typed

_CNN = """
import torch
from torch import nn

def make():
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4),
    )
    return model, torch.randn(2, 3, 16, 16)
"""

_TIED = """
from torch import nn

class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(50, 8)
        self.head = nn.Linear(8, 50, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, ids):
        return self.head(self.embed(ids))

def make():
    return Tied()
"""


def test_a_session_records_the_moves_and_measurements_its_report_holds(tmp_path):
    timeline = MemoryTimeline()
    session = Session(timeline)
    state = session.load(LoadRequest("example"))
    assert (state.info.class_name, state.info.example_input_shapes) == ("Net", ((64, 3),))
    assert {r.device for r in state.placement.tensors} == {"cpu"}

    moved = session.move(MoveRequest("to", "cpu", "float64"))
    latency = session.measure(BenchmarkRequest(runs=5))
    timeline.add([memory_reading("cpu")])

    assert moved.ok
    assert session.moves == (moved,) and session.latencies == (latency,)
    assert {r.dtype for r in session.state().placement.tensors if r.kind == "parameter"} == {"float64"}
    report = session.report().to_dict()
    assert [m["call"] for m in report["moves"]] == ["model.to('cpu', dtype=torch.float64)"]
    assert [(e["device"], e["dtype"], len(e["samples_ms"])) for e in report["latency"]] == [("cpu", "float64", 5)]
    assert "cpu" in report["memory"]
    # The report is the file a user saves and opens again, unchanged.
    path = save_report(typed(report), tmp_path / "session.json")
    assert load_report(path).to_dict()["moves"] == json.loads(json.dumps(report["moves"]))
    # The comparison and the Markdown block leave the (large) memory timeline out.
    assert session.report(with_memory=False).to_dict()["memory"] == {}


def test_a_new_load_starts_a_new_ledger_and_a_failed_one_keeps_the_old_model(tmp_path):
    session = Session()
    session.load(LoadRequest("example"))
    session.move(MoveRequest("cpu"))
    session.measure(BenchmarkRequest(runs=3))

    with pytest.raises(InspectorError, match="no_such_module_xyz"):
        session.load(LoadRequest("no_such_module_xyz:make"))
    assert session.state().info.class_name == "Net"  # still there, with its ledger
    assert len(session.moves) == 1 and len(session.latencies) == 1

    factory = tmp_path / "cnn.py"
    factory.write_text(_CNN)
    state = session.load(LoadRequest(f"{factory}:make"))
    assert state.info.class_name == "Sequential" and state.info.example_input_shapes == ((2, 3, 16, 16),)
    assert session.moves == () and session.latencies == ()
    report = session.report().to_dict()
    assert report["model"]["class"] == "Sequential" and report["moves"] == [] and report["latency"] == []


def test_a_cnn_with_batchnorm_is_timed_in_train_step_mode_without_touching_its_weights(tmp_path):
    factory = tmp_path / "cnn.py"
    factory.write_text(_CNN)
    session = Session()
    session.load(LoadRequest(f"{factory}:make"))
    loaded = session.require_loaded()
    before = {k: v.clone() for k, v in loaded.module.state_dict().items()}

    result = session.measure(BenchmarkRequest(mode=BenchMode.TRAIN_STEP, runs=3))

    assert result.mode == "train-step" and len(result.samples_ms) == 3
    after = loaded.module.state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)  # running stats too


def test_tied_weights_are_one_tensor_in_the_state_and_a_failed_move_changes_nothing(tmp_path):
    factory = tmp_path / "tied.py"
    factory.write_text(_TIED)
    session = Session()
    state = session.load(LoadRequest(f"{factory}:make"))
    assert not state.info.has_example_input
    shared = [r for r in state.placement.tensors if r.shares_with]
    assert len(shared) == 1  # head.weight is embed.weight

    failed = session.move(MoveRequest("to", "cuda:97"))

    assert not failed.ok and session.moves == (failed,)
    assert session.state().placement == state.placement  # rolled back: same places, dtypes, sharing
    # Without an example input the user must give a shape: a clear error, nothing recorded.
    with pytest.raises(InputError, match="input"):
        session.measure(BenchmarkRequest(runs=3))
    assert session.latencies == ()


def test_without_a_model_every_command_says_to_open_one():
    session = Session()
    for command in (
        session.state,
        session.report,
        lambda: session.move(MoveRequest("cpu")),
        lambda: session.measure(BenchmarkRequest(runs=1)),
    ):
        with pytest.raises(InspectorError, match="no model is loaded"):
            command()


def test_a_model_loaded_elsewhere_can_be_adopted():
    session = Session()
    loaded = example_model()
    state = session.adopt(loaded)
    assert session.require_loaded() is loaded and isinstance(loaded.module, Net)
    assert state.placement.totals.count == 4


def test_requests_read_as_the_calls_they_make():
    assert LoadRequest("m.pt", trust=True, architecture="a.py:make").call() == (
        "load_model('m.pt', trust=True, architecture='a.py:make')"
    )
    assert LoadRequest("example").call() == "load_model('example')"
    assert BenchmarkRequest(mode="train-step", runs=50, input_shape=(1, 3)).call() == "train-step ×50 · input 1x3"


def test_per_module_times_and_fit_answers_are_part_of_the_sessions_report():
    from inspector.core.measure.fit import FitRequest

    session = Session()
    session.load(LoadRequest("example"))
    attribution = session.attribute(BenchmarkRequest(runs=3, per_module=True))
    answer = session.fit(FitRequest(device="cpu", optimizer="sgd", measure=False))

    assert session.attributions == (attribution,) and session.fits == (answer,)
    report = session.report(with_memory=False).to_dict()
    assert {m["name"] for m in report["modules"]} >= {"fc1", "fc2"}
    assert [f["device"] for f in report["fit"]] == ["cpu"]
    session.load(LoadRequest("example"))  # a new model: a new ledger
    assert session.attributions == () and session.fits == ()


def test_one_real_training_step_on_a_transformer_takes_its_two_inputs_from_the_field_syntax(small_transformer):
    session = Session()
    session.load(LoadRequest(small_transformer))
    module = session.require_loaded().module
    before = {n: p.detach().clone() for n, p in module.named_parameters()}
    result = session.train_step(parse_inputs("5,2,16; 4,2,16"))
    assert result.input_shapes == ((5, 2, 16), (4, 2, 16))
    # A real step: the weights changed, and every parameter now has a grad and momentum.
    assert any(not torch.equal(p.detach(), before[n]) for n, p in module.named_parameters())
    kinds = [t.kind for t in session.state().placement.tensors]
    parameters = sum(1 for _ in module.parameters())
    assert kinds.count("grad") == parameters and kinds.count("optimizer_state") >= parameters
