"""Will it fit on a big model: Cancel stops the estimate and the proof from inside the step,
and the user's model is left exactly as it was."""

import pytest
import torch
from torch import nn

from inspector.core.errors import Cancelled
from inspector.core.measure.fit import FitRequest, estimate_fit
from inspector.core.files.models import LoadedModel


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


# 200 tensors: big enough that every phase (copying, forward, backward, Adam's per-parameter
# loop) spans many polls (over a hundred in all), small enough for the default suite (a
# 10,000-tensor estimate takes a minute of FakeTensor dispatch; the polls are per operator, so
# the phases scale alike: 500 tensors cost about 10 s of the suite).
_LAYERS = 100


@pytest.fixture(scope="module")
def polls_of_a_whole_estimate() -> int:
    polls = _CancelAfter(None)
    result = estimate_fit(_many_tensors(_LAYERS), FitRequest(device="cpu", optimizer="adam", measure=False),
                          should_cancel=polls)
    assert result.optimizer_state_bytes == _LAYERS * (4 * 4 + 2 * 4) * 2 + 2 * _LAYERS * 4  # exp_avg(_sq), step
    return polls.polls


def test_the_estimate_polls_cancel_every_few_operators(polls_of_a_whole_estimate):
    # about 15,000 operators (forward, backward, Adam's loop): at least one poll per ~60 of
    # them, so a Cancel lands within milliseconds
    assert polls_of_a_whole_estimate >= _LAYERS


@pytest.mark.parametrize("fraction", [0.0, 0.05, 0.3, 0.9])  # copying, forward, backward, optimizer step
def test_cancel_mid_estimate_on_a_big_model_stops_and_leaves_the_model_untouched(fraction,
                                                                                  polls_of_a_whole_estimate):
    loaded = _many_tensors(_LAYERS)
    before = _snapshot(loaded.module)
    should_cancel = _CancelAfter(max(1, int(fraction * polls_of_a_whole_estimate)))
    with pytest.raises(Cancelled):
        estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam"), should_cancel=should_cancel)
    assert should_cancel.after_yes == 0  # stopped at the first yes
    _assert_untouched(loaded.module, before)


def test_cancel_during_the_proof_step_stops_it_too():
    loaded = _many_tensors(100)
    before = _snapshot(loaded.module)
    estimate_only = _CancelAfter(None)
    estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam", measure=False), should_cancel=estimate_only)
    should_cancel = _CancelAfter(estimate_only.polls + 20)  # past the estimate, inside the real step
    with pytest.raises(Cancelled, match="proof"):
        estimate_fit(loaded, FitRequest(device="cpu", optimizer="adam"), should_cancel=should_cancel)
    _assert_untouched(loaded.module, before)
