"""Will it fit on a big model: Cancel stops the estimate and the proof from inside the step,
and the user's model is left exactly as it was."""

import pytest
import torch
from torch import nn

from inspector.core.errors import Cancelled
from inspector.core.fit import FitRequest, estimate_fit
from inspector.core.models import LoadedModel


def _many_tensors(layers: int) -> LoadedModel:
    torch.manual_seed(0)
    return LoadedModel(spec="many", module=nn.Sequential(*[nn.Linear(2, 2) for _ in range(layers)]),
                       example_input=torch.randn(4, 2))


class _CancelAfter:
    """``should_cancel`` that says yes from its ``n``-th poll on, and counts the polls."""

    def __init__(self, n: int | None) -> None:
        self.n, self.polls, self.after_yes = n, 0, 0

    def __call__(self) -> bool:
        self.polls += 1
        if self.n is not None and self.polls > self.n:
            self.after_yes += 1
        return self.n is not None and self.polls >= self.n


def _snapshot(module: nn.Module) -> list[tuple[nn.Parameter, torch.Tensor]]:
    return [(p, p.detach().clone()) for p in module.parameters()]


def _assert_untouched(module: nn.Module, before: list[tuple[nn.Parameter, torch.Tensor]]) -> None:
    after = list(module.parameters())
    assert len(after) == len(before)
    for p, (q, values) in zip(after, before):
        assert p is q  # the same Parameter objects
        assert torch.equal(p.detach(), values) and p.grad is None and p.device.type == "cpu"
    assert not module._forward_hooks and not module._forward_pre_hooks


def test_the_estimate_polls_cancel_every_few_operators():
    # 1,000 tensors: about 30,000 operators (forward, backward, Adam's per-parameter loop).
    loaded = _many_tensors(500)
    polls = _CancelAfter(None)
    result = estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", measure=False), should_cancel=polls)
    assert result.optimizer_state_bytes == 500 * (4 * 4 + 2 * 4) * 2 + 1000 * 4  # exp_avg, exp_avg_sq, step
    assert polls.polls >= 500  # at least one poll per ~60 operators: a Cancel lands within milliseconds


@pytest.mark.parametrize("cancel_at", [1, 100, 600, 3000])  # copying, forward, backward, optimizer step
def test_cancel_mid_estimate_on_a_big_model_stops_and_leaves_the_model_untouched(cancel_at):
    loaded = _many_tensors(5000)  # 10,000 tensors
    before = _snapshot(loaded.module)
    should_cancel = _CancelAfter(cancel_at)
    with pytest.raises(Cancelled):
        estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam"), should_cancel=should_cancel)
    assert should_cancel.after_yes == 0  # stopped at the first yes
    _assert_untouched(loaded.module, before)


def test_cancel_during_the_proof_step_stops_it_too():
    loaded = _many_tensors(300)
    before = _snapshot(loaded.module)
    estimate_only = _CancelAfter(None)
    estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", measure=False), should_cancel=estimate_only)
    should_cancel = _CancelAfter(estimate_only.polls + 20)  # past the estimate, inside the real step
    with pytest.raises(Cancelled, match="proof"):
        estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam"), should_cancel=should_cancel)
    _assert_untouched(loaded.module, before)
