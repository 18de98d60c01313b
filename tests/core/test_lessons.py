"""The tutorial's lessons teach what PyTorch really does: each test checks the fact a lesson
shows against PyTorch itself, on this machine (no accelerator: the other device is meta)."""

from __future__ import annotations

import pytest
import torch

from inspector.core import lessons
from inspector.core.session import LoadRequest, Session


@pytest.fixture
def session():
    s = Session()
    s.load(LoadRequest("example"))
    return s


@pytest.mark.cpu_only
def test_lesson_1_answers_cpu_and_says_why_without_cuda():
    choice = lessons.device_choice()
    assert choice.device == "cpu" and not choice.cuda_available
    assert choice.reason  # a CPU-only build or no driver, in words
    assert choice.gpu_count == 0


def test_lesson_2_a_tensor_to_another_device_is_a_new_tensor_and_x_stays():
    moved = lessons.tensor_to("meta")
    assert not moved.same_object
    # the device as PyTorch prints it: ``meta``, not ``meta:0``
    assert str(torch.empty(1, device="meta").device) == "meta"
    assert (moved.x_device_before, moved.x_device_after, moved.y_device) == ("cpu", "cpu", "meta")
    # already there: PyTorch hands back x itself, and the lesson says so rather than hiding it
    assert lessons.tensor_to("cpu").same_object


def test_lesson_2_a_module_moves_in_place_keeping_its_parameter_objects(session):
    live, cast = lessons.module_to(session, "cpu")
    assert live.live and live.returned_same_module and live.same_parameters
    assert not live.new_data  # already on the CPU: nothing to convert
    assert live.move is not None and live.move.ok and session.moves[-1] is live.move  # in the history
    assert not cast.live and cast.returned_same_module and cast.same_parameters and cast.new_data
    assert set(cast.before) == {"cpu float32"} and set(cast.after) == {"cpu float64"}
    assert cast.names == ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias")
    assert all(p.dtype == torch.float32 for p in session.loaded.module.parameters())  # live model keeps its dtype


@pytest.mark.cpu_only
def test_lesson_3_cuda_fails_with_pytorchs_message_and_to_device_works(session):
    weights = [p.detach().clone() for p in session.loaded.module.parameters()]
    result = lessons.cuda_versus_to(session, "cpu")
    assert not result.cuda_ok and result.cuda_move is None
    with pytest.raises((AssertionError, RuntimeError)) as raised:
        torch.nn.Linear(1, 1).cuda()
    assert result.cuda_error == str(raised.value) and result.cuda_error_type == type(raised.value).__name__
    assert result.to_ok
    assert all(torch.equal(a, b) for a, b in zip(weights, session.loaded.module.parameters()))


@pytest.mark.cpu_only
def test_lesson_4_state_made_before_the_move_stays_behind_and_is_flagged(session):
    order = lessons.optimizer_order(session.loaded, "cpu")
    assert order.target == "torch.float64"
    assert order.after_state and set(order.after_state) == {"cpu float64"}
    assert order.before_state and set(order.before_state) == {"cpu float32"}
    assert "float32" in order.before_finding and not order.after_finding
    assert session.loaded.optimizer is None or not session.loaded.optimizer.state  # the live one: no step


@pytest.mark.cpu_only
def test_lesson_4_says_what_the_next_step_really_does_on_the_cpu(session):
    """The CPU stand-in (a cast to float64) is a dtype mismatch: SGD's next step runs, with no
    error and no second device, and keeps its momentum in float32. The lesson reports that."""
    order = lessons.optimizer_order(session.loaded, "cpu")
    assert (order.next_step_error_type, order.next_step_error) == ("", "")
    assert set(order.next_step_state) == {"cpu float32"} and set(order.next_step_parameters) == {"cpu float64"}
    # PyTorch itself, the same way: the step runs and the buffer keeps its dtype
    net = torch.nn.Linear(3, 2)
    sgd = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    net(torch.randn(4, 3)).sum().backward()
    sgd.step()
    net.to(torch.float64)
    net(torch.randn(4, 3, dtype=torch.float64)).sum().backward()
    sgd.step()
    assert {s["momentum_buffer"].dtype for s in sgd.state.values()} == {torch.float32}


@pytest.mark.cpu_only
def test_lesson_4_starts_where_the_tutorial_does_whatever_the_live_model_was_cast_to(session):
    session.loaded.module.to(torch.float64)  # the user cast the example before opening the lesson
    order = lessons.optimizer_order(session.loaded, "cpu")
    assert set(order.before_state) == {"cpu float32"} and set(order.next_step_parameters) == {"cpu float64"}
    assert "float32" in order.before_finding
    assert all(p.dtype == torch.float64 for p in session.loaded.module.parameters())  # the live model as it was


def test_the_quoted_gpu_message_is_the_one_sgds_device_check_raises():
    """What lesson 4 quotes for a GPU: SGD's foreach path (CUDA's default) groups each parameter
    with its momentum buffer, and the grouping refuses a pair on two devices. Checked here with
    the CPU and meta, which this machine has."""
    from torch.optim.optimizer import _get_foreach_kernels_supported_devices

    assert "cuda" in _get_foreach_kernels_supported_devices()  # SGD's default on CUDA parameters
    net = torch.nn.Linear(3, 2)
    sgd = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, foreach=True)
    net(torch.randn(4, 3)).sum().backward()
    sgd.step()
    for state in sgd.state.values():
        state["momentum_buffer"] = state["momentum_buffer"].to("meta")
    with pytest.raises(RuntimeError) as raised:
        sgd.step()
    assert str(raised.value) == lessons.GPU_OPTIMIZER_STATE_MISMATCH


def test_lesson_5_quotes_pytorchs_device_mismatch_and_the_fix_works(session):
    result = lessons.device_mismatch(session.loaded)
    assert (result.model_device, result.input_device) == ("cpu", "meta")
    with pytest.raises(RuntimeError) as raised:
        session.loaded.module(torch.randn(4, 3, device="meta"))
    assert result.error == str(raised.value) and result.error_type == "RuntimeError"
    assert result.fixed_output_shape == (4, 1) and result.fixed_output_device == "cpu"
