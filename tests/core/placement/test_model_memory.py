"""The model's own bytes per device, as the memory plot and the report show them: recorded
by the Session after each load and move, drawn as steps (no Qt here)."""

from __future__ import annotations

import time

import numpy as np
import torch

from inspector.core.measure.memory_log import MemoryTimeline
from inspector.core.placement.model_memory import ModelBytes, model_bytes, model_bytes_from_dict, step_series
from inspector.core.files.models import LoadedModel, example_model
from inspector.core.moves.request import MoveRequest
from inspector.core.placement.tensor_rows import snapshot
from inspector.core.session import LoadRequest, Session


def test_bytes_per_device_and_kind_count_tied_weights_once_and_meta_not_at_all():
    embed = torch.nn.Embedding(50, 8)
    head = torch.nn.Linear(8, 50, bias=False)
    head.weight = embed.weight
    tied = torch.nn.Sequential(embed, head, torch.nn.BatchNorm1d(50))
    found = model_bytes(snapshot(tied)).by_device["cpu"]
    assert found["parameter"] == 50 * 8 * 4 + 2 * 50 * 4  # the tied weight once, BN's affine
    assert found["buffer"] == (50 + 50) * 4 + 8  # running mean/var + num_batches_tracked
    assert found["grad"] == found["optimizer_state"] == 0

    with torch.device("meta"):
        meta = torch.nn.Linear(1000, 1000)
    assert model_bytes(snapshot(meta)).by_device == {}


def test_grads_and_optimizer_state_are_counted_where_they_live():
    loaded = example_model()  # Linear(3,2) -> Linear(2,1): 11 float32 parameters
    loaded.optimizer = torch.optim.Adam(loaded.module.parameters())
    loaded.module(loaded.example_input).sum().backward()
    loaded.optimizer.step()  # Adam's exp_avg and exp_avg_sq per parameter, and a step scalar
    kinds = model_bytes(snapshot(loaded)).by_device["cpu"]
    assert kinds["parameter"] == kinds["grad"] == 44
    assert kinds["optimizer_state"] >= 2 * 44


def test_a_sessions_moves_draw_a_staircase_of_the_models_bytes():
    timeline = MemoryTimeline()
    session = Session(timeline)
    session.load(LoadRequest("example"))
    for dtype in ("float64", "float16", "float32", "float64", "bfloat16"):  # five moves
        session.move(MoveRequest("to", "cpu", dtype))
        session.state()  # the window asks after each move: no second record, no new snapshot
    series = timeline.model_series("cpu", until=timeline.model_report()[-1]["t"] + 1.0)
    levels = [int(v) for v, nxt in zip(series["total"], [*series["total"][1:], None]) if v != nxt]
    assert levels == [44, 88, 22, 44, 88, 22]  # one level per load/move: 11 parameters × itemsize
    assert np.all(np.diff(series["t"]) >= 0)
    # Vertical steps: each change happens at one instant (two points, same t).
    changes = np.flatnonzero(np.diff(series["total"]) != 0)
    assert np.all(series["t"][changes] == series["t"][changes + 1])
    assert len(timeline.model_report()) == 6


def test_a_failed_move_records_nothing_new_because_nothing_moved():
    timeline = MemoryTimeline()
    session = Session(timeline)
    session.load(LoadRequest("example"))
    result = session.move(MoveRequest("to", "cuda:0"))  # no GPU here: fails, rolled back
    assert not result.ok
    assert [entry["by_device"] for entry in timeline.model_report()] == [{"cpu": {
        "parameter": 44, "buffer": 0, "grad": 0, "optimizer_state": 0}}]  # fmt: skip


def test_a_device_the_model_left_drops_to_zero_and_the_last_level_holds():
    on_cpu = ModelBytes({"cpu": {"parameter": 100}})
    on_gpu = ModelBytes({"cuda:0": {"parameter": 100}})
    records = [(1.0, on_cpu), (2.0, on_gpu)]
    cpu = step_series(records, "cpu", until=5.0)
    gpu = step_series(records, "cuda:0", until=5.0)
    assert cpu["t"].tolist() == [1.0, 2.0, 2.0, 5.0] and cpu["total"].tolist() == [100, 100, 0, 0]
    assert gpu["total"].tolist() == [0, 0, 100, 100] and gpu["parameter"].tolist() == [0, 0, 100, 100]
    assert step_series([], "cpu", 1.0)["t"].size == 0


def test_clearing_the_timeline_keeps_where_the_model_is_and_reports_round_trip():
    timeline = MemoryTimeline()
    timeline.record_model(ModelBytes({"cpu": {"parameter": 8}}), time.time() - 5)
    timeline.record_model(ModelBytes({"cpu": {"parameter": 8}}))  # the same: no new record
    assert len(timeline.model_report()) == 1
    timeline.clear()
    (entry,) = timeline.model_report()
    assert entry["t"] == 0.0 and entry["by_device"]["cpu"]["parameter"] == 8

    again = MemoryTimeline()
    again.add_model_report(timeline.model_report() + [{"t": "x"}, "junk", {"t": 1, "by_device": "junk"}])
    (read_back,) = again.model_report()  # the malformed entries are skipped
    assert read_back["by_device"]["cpu"]["parameter"] == 8 and read_back["by_device"]["cpu"]["grad"] == 0
    assert model_bytes_from_dict({"cpu": {"parameter": True, "grad": "1", "buffer": float("inf")}}).by_device == {}


def test_the_report_holds_the_models_bytes_after_each_move():
    session = Session(MemoryTimeline())
    session.load(LoadRequest("example"))
    session.move(MoveRequest("to", "cpu", "float64"))
    entries = session.report().to_dict()["model_memory"]
    assert [e["by_device"]["cpu"]["parameter"] for e in entries] == [44, 88]
    assert "model_memory" not in session.report(with_memory=False).to_dict()


def test_adopting_a_model_records_it_too():
    session = Session(MemoryTimeline())
    session.adopt(LoadedModel("adopted", torch.nn.Linear(4, 4)))
    assert session.timeline.model_devices() == ["cpu"]
    assert session.timeline.model_at(1e9) == ModelBytes({"cpu": {
        "parameter": 80, "buffer": 0, "grad": 0, "optimizer_state": 0}})  # fmt: skip
    assert session.timeline.model_at(-1.0) is None
