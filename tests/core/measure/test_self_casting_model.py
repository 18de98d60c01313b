"""A model that casts itself while it is measured (issue 32, item 17): the result says the
dtype it ran in, and that it changed, in forward and training-step mode alike."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from inspector.core.files.models import LoadedModel
from inspector.core.measure.timing import measure_latency


class CastsItself(nn.Module):
    """float32 until its first forward, which casts it to float64 for good."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        if self.calls == 1:
            self.double()
        return self.fc(x.to(self.fc.weight.dtype))


@pytest.mark.parametrize("mode", ["forward", "train-step"])
def test_the_result_names_the_dtype_the_model_ran_in(mode):
    loaded = LoadedModel(module=CastsItself(), example_input=torch.randn(4, 8), spec="casts")
    result = measure_latency(loaded, mode=mode, runs=3, warmup=1)
    assert result.dtype == "float64"
    assert "the model cast itself from float32 to float64 while it ran: reported as float64" in " ".join(result.notes)


def test_a_model_that_keeps_its_dtype_gets_no_note():
    loaded = LoadedModel(module=nn.Linear(8, 8), example_input=torch.randn(4, 8), spec="plain")
    result = measure_latency(loaded, runs=3, warmup=1)
    assert result.dtype == "float32" and not any("cast itself" in n for n in result.notes)
