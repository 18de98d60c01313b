"""A move's price from the placement snapshot (what the window shows before a move) agrees
with ``preview_move`` on the live model, and says where a rollback could not be exact."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from inspector.core.moves import price as move_price
from inspector.core.placement import tensor_rows as placement
from inspector.core.files.models import LoadedModel
from inspector.core.moves.price import preview_move
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.session import LoadRequest, Session


def _cnn_with_grads() -> LoadedModel:
    torch.manual_seed(0)
    module = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Flatten(), nn.Linear(4 * 6 * 6, 2))
    module(torch.randn(2, 3, 8, 8)).sum().backward()  # grads, and BatchNorm's running stats
    return LoadedModel(spec="cnn", module=module)


@pytest.mark.parametrize(
    "request_",
    [MoveRequest("to", dtype="float64"), MoveRequest("to", dtype="bfloat16"), MoveRequest("to", "cpu"), MoveRequest("cpu")],
    ids=["float64", "bfloat16", "to-cpu", "cpu"],
)
def test_the_price_from_the_placement_is_the_preview_of_the_live_model(request_):
    loaded = _cnn_with_grads()
    held = move_price.held_bytes(placement.snapshot(loaded))
    assert move_price.price(held, request_) == preview_move(loaded, request_)


def test_the_price_line_states_the_peak_as_a_multiple_of_the_model():
    loaded = _cnn_with_grads()
    held = move_price.held_bytes(placement.snapshot(loaded))
    line = move_price.price_line(held, MoveRequest("to", dtype="float64"))
    assert "on cpu for a moment (3.0x the model's bytes there)" in line
    assert "originals are kept until it succeeds" in line
    assert "nothing to copy" in move_price.price_line(held, MoveRequest("cpu"))


def test_after_a_cast_the_price_follows_the_new_dtypes():
    loaded = _cnn_with_grads()
    assert move_model(loaded, MoveRequest("to", dtype="bfloat16")).ok
    held = move_price.held_bytes(placement.snapshot(loaded))
    preview = move_price.price(held, MoveRequest("to", dtype="float64"))
    assert preview == preview_move(loaded, MoveRequest("to", dtype="float64"))
    # bfloat16 -> float64 copies take 4x the floating bytes.
    assert preview.copy_bytes["cpu"] > 3.5 * preview.model_bytes["cpu"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="says why model.cuda() cannot run here")
def test_a_move_that_cannot_be_made_says_why_instead_of_a_price():
    held = move_price.held_bytes(placement.snapshot(_cnn_with_grads()))
    assert "needs a CUDA GPU" in move_price.price_line(held, MoveRequest("cuda"))




def test_the_session_states_what_a_rollback_cannot_vouch_for_and_the_price_names_it(tmp_path):
    factory = tmp_path / "own_apply.py"
    factory.write_text(
        "import torch\n\nclass OwnApply(torch.nn.Linear):\n"
        "    def _apply(self, fn, recurse=True):\n        return super()._apply(fn, recurse)\n\n"
        "def make():\n    return OwnApply(3, 2)\n"
    )
    session = Session()
    state = session.load(LoadRequest(f"{factory}:make"))
    assert any("OwnApply has its own _apply()" in w for w in state.info.move_warnings)
    assert not state.info.packed_weights
    held = move_price.held_bytes(state.placement)
    line = move_price.price_line(held, MoveRequest("to", dtype="float64"), warnings=state.info.move_warnings)
    assert "OwnApply has its own _apply()" in line
