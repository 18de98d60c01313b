"""A move's result carries the request it ran with, read once (issue 37 §3).

What a user relies on: the result of a move names the exact device, dtype and method it ran
with, and the code the window shows comes from that same reading; the device string the user
typed is parsed once for the whole move (its mark, the move, its result, its code and the
report), not once per reader; and the result crosses the agent's wire with its request.
"""

from __future__ import annotations

import json

import pytest
import torch

from inspector.core.devices import discovery as devices
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.models import example_model
from inspector.core.moves import request as request_module
from inspector.core.moves.request import MoveRequest, ResolvedRequest, call_code, resolve_request
from inspector.core.moves.transaction import MoveResult, move_model
from inspector.core.remote.wire import decode, encode
from inspector.core.report.snippets import move_snippet


@pytest.fixture
def device_reads(monkeypatch):
    """Every device string a move reads (``parse_device``), and every device ``resolve_device``
    is handed as a string (which it would parse again)."""
    parsed: list[str] = []
    as_strings: list[str] = []
    parse, resolve = request_module.parse_device, devices.resolve_device

    def counting_parse(spec):
        parsed.append(spec)
        return parse(spec)

    def resolving(spec):
        if isinstance(spec, str):
            as_strings.append(spec)
        return resolve(spec)

    monkeypatch.setattr(request_module, "parse_device", counting_parse)
    monkeypatch.setattr(devices, "resolve_device", resolving)
    return parsed, as_strings


def test_a_move_result_names_the_device_dtype_and_method_it_ran_with():
    result = move_model(example_model(), MoveRequest("to", "cpu", "bf16"))
    assert result.ok
    ran = result.request
    assert isinstance(ran, ResolvedRequest)
    assert ran.method == "to" and ran.device == "cpu" and ran.dtype == "bf16"  # as the user typed it
    assert ran.torch_device == torch.device("cpu") and ran.torch_dtype is torch.bfloat16  # what it meant
    assert ran.call == result.call == "model.to('cpu', dtype=torch.bfloat16)"
    assert (result.method, result.dtype, result.target) == ("to", "bfloat16", "cpu")


def test_one_move_reads_its_device_string_once(device_reads):
    parsed, as_strings = device_reads
    asked = MoveRequest("to", "cpu", "float64", pinned=True)
    # What the window does with one move: read it, mark the plot with its call, make the move,
    # show the code from the result, write the report.
    ran = resolve_request(asked)
    mark = call_code(ran)
    result = move_model(example_model(), ran)
    code = move_snippet(result.request)
    entry = result.to_dict()
    assert parsed == ["cpu"]  # once, for all of them
    assert as_strings == []  # and no one handed the string to resolve_device to parse again
    assert mark == result.call == entry["call"] == "model.to('cpu', dtype=torch.float64)"
    assert code == move_snippet(asked) == 'device = torch.device("cpu")\nmodel = model.to(device, dtype=torch.float64)'


def test_cuda_moves_read_their_index_once(device_reads):
    parsed, as_strings = device_reads
    for typed, index in (("1", 1), ("cuda:2", 2), (None, None)):
        ran = resolve_request(MoveRequest("cuda", typed))
        assert ran.torch_device == (None if index is None else torch.device("cuda", index))
        assert call_code(ran) == ("model.cuda()" if index is None else f"model.cuda({index})")
    assert parsed == ["cuda:2"]  # "1" is an index, and None names no device
    assert as_strings == []


def test_a_move_to_a_device_pytorch_cannot_read_says_so_as_before():
    result = move_model(example_model(), MoveRequest("to", "gpu0"))
    assert not result.ok and result.error.kind == "device"
    assert result.call == result.request.call == "model.to('gpu0')"
    assert result.request.unreadable and result.request.torch_device is None
    with pytest.raises(InputError, match="'gpu0' is not a device name"):
        move_snippet(result.request)  # the window's "no snippet for this move: ..."


def test_a_second_cpu_is_no_device_in_the_window_and_the_agent_either():
    result = move_model(example_model(), MoveRequest("to", "cpu:1"))
    assert not result.ok and result.error.kind == "device"
    assert result.error.message == "cpu:1 is not a device: PyTorch's cpu is one device, cpu (index 0 at most)"
    assert move_model(example_model(), MoveRequest("to", "cpu:0")).ok


def test_an_absent_device_is_a_result_that_carries_its_request():
    result = move_model(example_model(), MoveRequest("to", "cuda:7", "fp16"))
    assert not result.ok and result.error.kind == "device"
    assert result.request.torch_device == torch.device("cuda", 7) and result.request.dtype_read == "float16"
    assert result.call == result.request.call == "model.to('cuda:7', dtype=torch.float16)"
    assert move_snippet(result.request) == move_snippet(MoveRequest("to", "cuda:7", "fp16"))


def test_the_report_entry_is_the_same_with_the_request_carried():
    result = move_model(example_model(), MoveRequest("to", "cpu"))
    entry = result.to_dict()
    assert "request" not in entry and "started_ns" not in entry
    assert set(entry) == {
        "call", "method", "source", "target", "dtype", "pinned", "seconds", "bytes", "gbps", "ok", "error",
        "memory_before", "memory_after", "note", "peak_bytes", "warnings",
    }  # fmt: skip


def test_a_result_crosses_the_wire_with_its_request():
    result = move_model(example_model(), MoveRequest("to", "cpu", "bfloat16"))
    sent = json.loads(json.dumps(encode(result)))
    assert "torch_device" not in sent["request"]  # its spelling goes: device_read
    back = decode(MoveResult, sent, "move")
    assert back.request == result.request
    assert back.request.torch_device == torch.device("cpu") and back.request.torch_dtype is torch.bfloat16
    assert move_snippet(back.request) == move_snippet(result.request)


def test_a_result_from_an_older_agent_is_still_read():
    result = move_model(example_model(), MoveRequest("to", "cpu"))
    sent = encode(result)
    del sent["request"]
    assert decode(MoveResult, sent, "move").request is None  # (the remote session fills it in)


@pytest.mark.parametrize(
    "field, value",
    [("method", "cpu(); import os; model.cpu"), ("dtype_read", "float32); import os; (torch.float32"),
     ("device_read", "cuda:0'); import os; ('")],
)  # fmt: skip
def test_a_request_an_agent_sends_back_cannot_write_code(field, value):
    # The code view writes code from the request a result carries: one an agent wrote is read
    # as an attacker might have written it, and only a method, dtype and device it names pass.
    sent = encode(move_model(example_model(), MoveRequest("to", "cpu", "float32")))
    sent["request"][field] = value
    with pytest.raises(InspectorError):
        decode(MoveResult, sent, "move")
