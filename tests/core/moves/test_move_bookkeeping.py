"""The move's own bookkeeping: what it must not cost a user (collections, long frees)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
import torch
from torch import nn

from inspector.core.moves import rollback
from inspector.core.devices.discovery import device_id
from inspector.core.files.models import LoadedModel
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model

CAST = MoveRequest("to", dtype="float64")


def _many_layers(count: int = 1500) -> LoadedModel:
    torch.manual_seed(0)
    return LoadedModel(spec="many", module=nn.Sequential(*[nn.Linear(4, 4) for _ in range(count)]))


@pytest.fixture
def automatic_collection() -> Iterator[None]:
    """Automatic collection on, as a script has it (a window's tests leave it off: pyqtgraph's
    collector runs it from a timer), and back as it was after."""
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_a_move_sets_off_no_garbage_collection(automatic_collection) -> None:
    """The log keeps a tuple per tensor: 3,000 of them set off a dozen collections, older
    generations among them (a full one walks every object of the process); plain Module.to
    sets off none. One young collection may come as the collector is turned back on."""
    loaded = _many_layers()
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        result = move_model(loaded, CAST, progress=lambda done, total: None)
    finally:
        gc.callbacks.remove(count)
    assert result.ok and collections in ([], [0])
    assert gc.isenabled()  # back on after the move


def test_the_collector_is_off_during_a_move_and_stays_as_the_window_left_it(automatic_collection) -> None:
    loaded = _many_layers(10)
    seen: list[bool] = []
    assert move_model(loaded, CAST, should_cancel=lambda: seen.append(gc.isenabled()) or False).ok
    assert seen and not any(seen) and gc.isenabled()
    gc.disable()  # as pyqtgraph's GarbageCollector leaves it in the window
    assert move_model(loaded, MoveRequest("to", dtype="float32")).ok
    assert not gc.isenabled()


def test_originals_are_freed_in_batches_that_hand_the_gil_over(monkeypatch) -> None:
    """A batch ends after RELEASE_BATCH_BYTES (then the GIL is handed over) or after
    RELEASE_BATCH_TENSORS small ones; the last items go first and every item goes."""
    monkeypatch.setattr(rollback, "RELEASE_BATCH_BYTES", 100)
    monkeypatch.setattr(rollback, "RELEASE_BATCH_TENSORS", 3)
    items = [f"item{i}" for i in range(10)]
    sizes = [10, 10, 10, 10, 150, 10, 60, 50, 10, 10]
    left: list[list[str]] = []
    monkeypatch.setattr(rollback.time, "sleep", lambda seconds: left.append(list(items)))
    rollback._release_in_batches(items, sizes)
    assert items == []
    # From the end: 10+10+50 (3 items), then 60+10+150 crosses 100 (hand over),
    # then 10+10+10 (3 items), then the first 10.
    assert left == [[f"item{i}" for i in range(4)]]


def test_the_models_bytes_per_device_count_each_tensor_once() -> None:
    """Tied weights, a buffer shared by two modules, grads, an integer buffer, a sparse
    buffer and a part on the meta device: each tensor once, on its own device."""
    from inspector.core.moves.price import preview_move

    embedding = nn.Embedding(10, 4)
    head = nn.Linear(4, 10, bias=False)
    head.weight = embedding.weight  # tied
    norm = nn.BatchNorm1d(4)  # float buffers and an int64 counter
    shared = torch.ones(3)
    first, second = nn.Module(), nn.Module()
    first.register_buffer("shared", shared)
    second.register_buffer("shared", shared)
    first.register_buffer("mask", torch.eye(3).to_sparse())
    with torch.device("meta"):
        ghost = nn.Linear(8, 8)
    model = nn.Sequential(embedding, head, norm, first, second, ghost)
    head(embedding(torch.tensor([1, 2]))).sum().backward()  # grads on the tied weight

    tensors: dict[int, torch.Tensor] = {}
    for t in [*model.parameters(), *model.buffers()]:
        tensors[id(t)] = t
        if isinstance(t, nn.Parameter) and t.grad is not None:
            tensors[id(t.grad)] = t.grad
    expected: dict[str, int] = {}
    for t in tensors.values():
        size = rollback.nbytes(t)
        where = device_id(t.device)
        expected[where] = expected.get(where, 0) + size
    assert set(expected) == {"cpu", device_id(torch.device("meta"))}
    assert preview_move(LoadedModel(spec="mixed", module=model), CAST).model_bytes == expected


def test_a_big_original_is_kept_as_a_tensor_whose_freeing_lets_go_of_the_gil() -> None:
    """Freeing a storage object holds the GIL while the memory goes back (~30 ms for
    256 MiB: the window would stall); freeing a Tensor does not. So a small original is
    logged as its storage (cheaper), a big one as a Tensor alias."""
    from inspector.core.moves.seam import Seam

    model = nn.Sequential(nn.Linear(4, 4), nn.Linear(1024, 512, bias=False))  # a 2 MiB weight
    log = rollback.ConversionLog(swap=False)
    seam = Seam(log, 1, None, None, pin=False)
    with seam.install(model):
        model.to(torch.float64)
    kept = {tuple(t.shape): type(alias) for t, alias, *_ in log.entries}
    assert kept[(4, 4)] is tuple  # (storage, dtype)
    assert kept[(512, 1024)] is torch.Tensor
    log.release()
