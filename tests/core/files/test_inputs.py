"""Input specs: one parser for every front end, and the tensors made from a spec."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from inspector.core.errors import InputError
from inspector.core.files.inputs import InputSpec, as_specs, format_inputs, make_tensors, parse_inputs, parse_shape
from inspector.core.files.models import LoadedModel
from inspector.core.session import BenchmarkRequest
from inspector.core.measure.model_input import make_input
from inspector.core.measure.timing import measure_latency


@pytest.mark.parametrize(
    "text, shape",
    [("1,3,224,224", (1, 3, 224, 224)), (" 64, 3 ", (64, 3)), ("(1, 3)", (1, 3)), ("8x16", (8, 16)), ("5", (5,))],
)
def test_parse_shape_reads_what_users_type(text, shape):
    assert parse_shape(text) == shape


@pytest.mark.parametrize("text", ["1,x", "", "0,-1", "1,,2", "1.5,2", "abc", "()"])
def test_parse_shape_rejects_junk_with_an_input_error(text):
    with pytest.raises(InputError, match="input shape"):
        parse_shape(text)


def test_several_inputs_each_with_its_dtype_read_and_write_back():
    specs = parse_inputs(" 10,32,512; 20,32,512 ")
    assert specs == (InputSpec((10, 32, 512)), InputSpec((20, 32, 512)))
    assert parse_inputs("8,128:int64") == (((8, 128), "int64"),)  # a plain (shape, dtype) tuple too
    assert format_inputs(parse_inputs("8,128:int64;3,4")) == "8,128:int64; 3,4"
    assert as_specs((5, 3)) == (InputSpec((5, 3)),)  # one bare shape: one floating input


@pytest.mark.parametrize(
    "text, words",
    [("1,2;", "empty input"), ("1,2:complex", "not an input dtype"), ("1,2:", "names no dtype"), ("1,0; 2", "positive")],
)
def test_bad_input_specs_say_what_is_wrong(text, words):
    with pytest.raises(InputError, match=words):
        parse_inputs(text)


def test_integer_inputs_draw_token_ids_the_first_embedding_accepts():
    model = nn.Sequential(nn.Embedding(7, 4), nn.Linear(4, 2))
    (ids,) = make_tensors(parse_inputs("64,50:int64"), model, torch.device("cpu"), torch.float32)
    assert ids.dtype == torch.int64 and ids.shape == (64, 50)
    assert int(ids.min()) >= 0 and int(ids.max()) < 7
    result = measure_latency(LoadedModel(spec="lm", module=model), runs=2, input_shape=parse_inputs("64,50:int64"))
    assert result.input_shape == (64, 50)


def _transformer() -> LoadedModel:
    module = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32)
    return LoadedModel(spec="torch.nn:Transformer", module=module)


@pytest.mark.parametrize("mode", ["forward", "train-step"])
def test_a_transformer_benchmarks_with_its_two_inputs(mode):
    loaded = _transformer()
    src, tgt = make_input(loaded, parse_inputs("5,2,16; 4,2,16"))
    assert (src.shape, tgt.shape, src.dtype) == ((5, 2, 16), (4, 2, 16), torch.float32)
    result = measure_latency(loaded, mode=mode, runs=2, input_shape=parse_inputs("5,2,16; 4,2,16"))
    assert result.input_shapes == ((5, 2, 16), (4, 2, 16))
    assert result.to_dict()["input_shapes"] == [[5, 2, 16], [4, 2, 16]]
    assert BenchmarkRequest(mode=mode, input_shape=parse_inputs("5,2,16; 4,2,16")).call().endswith("input 5x2x16; 4x2x16")


def test_a_transformer_given_one_input_names_it_and_what_is_missing():
    with pytest.raises(InputError) as caught:
        measure_latency(_transformer(), runs=1, input_shape=parse_inputs("5,2,16"))
    message = caught.value.message
    assert "(5, 2, 16)" in message and "tgt" in message and "separate inputs with ';'" in message


def test_a_transformer_given_a_wrong_feature_size_names_both_shapes():
    with pytest.raises(InputError) as caught:
        measure_latency(_transformer(), runs=1, input_shape=parse_inputs("5,2,16; 4,2,8"))
    message = caught.value.message
    assert "(5, 2, 16), (4, 2, 8)" in message and "d_model" in message
