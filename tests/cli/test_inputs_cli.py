"""Several inputs on the command line: a Transformer's src and tgt, token ids, one parser."""

import json

import pytest

from inspector.cli import main



def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def transformer(small_transformer):
    return small_transformer


@pytest.mark.parametrize("mode", ["forward", "train-step"])
def test_bench_a_transformer_with_its_two_inputs(capsys, transformer, mode):
    code, out, _ = run(capsys, "bench", transformer, "--device", "cpu", "--runs", "2", "--mode", mode,
                       "--input-shape", "5,2,16; 4,2,16", "--json")  # fmt: skip
    assert code == 0
    entry = json.loads(out[out.index("{"):])["latency"][0]
    assert entry["input_shapes"] == [[5, 2, 16], [4, 2, 16]] and entry["mode"] == mode


def test_bench_a_transformer_with_one_input_says_which_is_missing(capsys, transformer):
    code, _, err = run(capsys, "bench", transformer, "--device", "cpu", "--runs", "1", "--input-shape", "5,2,16")
    assert code == 2
    assert "(5, 2, 16)" in err and "tgt" in err and "separate inputs with ';'" in err


def test_bench_token_ids_and_a_bad_dtype(capsys):
    code, out, _ = run(capsys, "bench", "inspector.core.files.presets:TokenModel", "--device", "cpu", "--runs", "1",
                       "--input-shape", "2,8:int64", "--json")  # fmt: skip
    assert code == 0
    assert json.loads(out[out.index("{"):])["latency"][0]["input_dtypes"] == ["int64"]
    code, _, err = run(capsys, "bench", "--device", "cpu", "--input-shape", "2,8:complex")
    assert code == 2 and "not an input dtype" in err


def test_fit_and_inspect_read_the_same_syntax(capsys, transformer):
    code, out, _ = run(capsys, "fit", transformer, "--device", "cpu", "--optimizer", "sgd", "--no-measure",
                       "--input-shape", "5,2,16; 4,2,16", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["input_shapes"] == [[5, 2, 16], [4, 2, 16]]
    code, _, err = run(capsys, "inspect", "--device-map", "missing.json", "--input-shape", "1,2;;")
    assert code == 2 and "empty input" in err


def test_a_state_dict_without_architecture_names_the_cli_flag(capsys, tmp_path):
    import torch

    from inspector.core.files.models import Net

    path = tmp_path / "weights.pth"
    torch.save(Net().state_dict(), path)
    code, _, err = run(capsys, "inspect", str(path))
    assert code == 2 and "holds only weights" in err and "(--arch SPEC)" in err
