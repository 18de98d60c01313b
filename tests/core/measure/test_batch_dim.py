"""The batch a throughput multiplies by is the one the model says: a sequence-first
``nn.Transformer``'s input ``10,32,512`` is a batch of 32 (issue 45 item 1)."""

from __future__ import annotations

import torch
from torch import nn

from inspector.core.files.inputs import parse_inputs
from inspector.core.files.models import LoadedModel
from inspector.core.measure.batch_dim import batch_dimension, batch_size
from inspector.core.measure.timing import measure_latency
from inspector.core.report.latency_reader import latency_entry


def _transformer(batch_first: bool) -> nn.Module:
    return nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16,
                          batch_first=batch_first)  # fmt: skip


class Mixed(nn.Module):
    """Layers that disagree on where the batch is: nobody can say."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.LSTM(4, 4, batch_first=True)
        self.b = nn.GRU(4, 4)


class Declares(nn.Module):
    """A factory's model that says it itself, whatever its layers say."""

    batch_first = True

    def __init__(self) -> None:
        super().__init__()
        self.rnn = nn.LSTM(4, 4)


class Hostile(nn.Module):
    batch_first = "yes"  # not a bool: says nothing


def test_the_model_says_which_dimension_is_the_batch() -> None:
    assert batch_dimension(_transformer(False)) == 1
    assert batch_dimension(_transformer(True)) == 0
    assert batch_dimension(nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))) == 0
    assert batch_dimension(nn.LSTM(4, 4)) == 1
    assert batch_dimension(Mixed()) is None
    assert batch_dimension(Declares()) == 0
    assert batch_dimension(Hostile()) == 0
    assert batch_size(_transformer(False), (10, 32, 512)) == 32
    assert batch_size(Mixed(), (10, 32, 512)) is None
    assert batch_size(nn.LSTM(4, 4), (7,)) is None  # no such dimension
    assert batch_size(nn.Linear(3, 2), ()) is None


def test_a_measurement_of_a_sequence_first_transformer_states_its_batch_and_a_report_keeps_it() -> None:
    loaded = LoadedModel(spec="t", module=_transformer(False))
    result = measure_latency(loaded, runs=2, warmup=1, input_shape=parse_inputs("10,4,8; 6,4,8"))
    assert result.input_shape == (10, 4, 8) and result.batch == 4
    entry = result.to_dict()
    assert entry["batch"] == 4
    assert latency_entry(entry, "latency[0]").batch == 4 and latency_entry(entry).batch == 4
    torch.manual_seed(0)
    plain = measure_latency(LoadedModel(spec="n", module=nn.Linear(3, 2)), runs=2, warmup=1, input_shape=(5, 3))
    assert plain.batch == 5
