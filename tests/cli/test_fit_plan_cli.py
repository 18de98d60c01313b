"""fit for a device you name: --gpu, --capacity, --margin, --max-batch, as a user types them."""

import json
from pathlib import Path

import pytest
import torch

from inspector.cli import main
from inspector.core.measure import find_preset

GiB = 1 << 30


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_named_gpu_is_planned_for_and_the_answer_says_its_rules_and_allowances(capsys):
    code, out, _ = run(capsys, "fit", "example", "--gpu", "RTX 4090", "--optimizer", "adamw", "--no-measure")
    assert code == 0
    # (the card is named as planned: on a machine with CUDA it would say "planned (cuda:0 is here)")
    planned = "planned: not on this machine" if not torch.cuda.is_available() else "planned (cuda:0 is here)"
    assert out.startswith(f"Will it fit? example (Net) on RTX 4090, {planned}, float32, optimizer adamw, train-step (loop output-freed), input 64x3")
    assert "  capacity         23.6 GiB (what PyTorch reports for the card" in out and "  usable           22.6 GiB" in out
    capacity = [line for line in out.splitlines() if line.startswith("capacity: ")]
    assert len(capacity) == 1 and "torch.cuda.get_device_properties(i).total_memory reports for the RTX 4090" in capacity[0]
    assert "25386352640 bytes" in capacity[0] and "https://github.com/" in capacity[0]
    assert "  reserved peak    " in out and "  fits             yes (margin " in out
    rules = [line for line in out.splitlines() if line.startswith("rule: ")]
    allowances = [line for line in out.splitlines() if line.startswith("allowance, not a rule: ")]
    assert len(rules) == 1 and "CUDACachingAllocator.cpp" in rules[0]
    assert len(allowances) == 2 and "CUDA context" in allowances[0] and "cuBLAS" in allowances[1]


def test_a_capacity_and_the_largest_batch_in_json(capsys):
    code, out, _ = run(capsys, "fit", "example", "--device", "cpu", "--capacity", "4KiB", "--optimizer", "sgd",
                       "--mode", "forward", "--max-batch", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    search = data["max_batch"]
    # The example's forward on the CPU: 44 B of weights, then per row 3 + 2 + 1 floats (the input, fc1's
    # and fc2's outputs, fc1's freed only after fc2's exists): 44 + 24 * B <= 4096, so B = 168.
    assert (search["batch"], search["next_batch"]) == (168, 169)
    assert search["peak_bytes"] == 44 + 24 * 168 and search["next_peak_bytes"] == 44 + 24 * 169
    assert data["input_shapes"] == [[168, 3]] and data["capacity_bytes"] == 4096 and data["named_device"] == "4.0 KiB"
    assert data["fits"] is True and data["free_bytes"] == 4096 and data["margin_bytes"] == 4096 - (44 + 24 * 168)


def test_a_margin_is_kept_free(capsys):
    code, out, _ = run(capsys, "fit", "--capacity", "4KiB", "--margin", "1KiB", "--optimizer", "sgd", "--mode", "forward",
                       "--max-batch", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["max_batch"]["batch"] == (3072 - 44) // 24


def test_the_largest_batch_text_says_the_steps_it_took(capsys):
    code, out, _ = run(capsys, "fit", "--capacity", "4KiB", "--optimizer", "sgd", "--mode", "forward", "--max-batch",
                       "--no-measure")  # fmt: skip
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("  largest batch"))
    assert "168 (4.0 KiB peak); batch 169 needs 4.0 KiB, over 4.0 KiB;" in line and line.endswith("traced steps")


@pytest.mark.parametrize(("argv", "message"), [
    (["--gpu", "Voodoo 2"], "is not a GPU in the presets table"),
    (["--capacity", "lots"], "'lots' is not a memory size"),
    (["--gpu", "Apple M 16GB", "--device", "cuda"], "is a mps device, not cuda"),
])  # fmt: skip
def test_a_bad_device_name_is_bad_input(capsys, argv, message):
    code, _, err = run(capsys, "fit", "--optimizer", "sgd", *argv)
    assert code == 2 and err.startswith("error: ") and message in err


def test_llama_3_8b_in_bf16_with_adamw_at_2048_tokens_does_not_fit_what_an_h100_reports(capsys, tmp_path):
    # The plan: on an 80 GiB "H100" it said "fits yes (margin 114.0 MiB)", and without
    # architectures (LlamaConfig().save_pretrained writes none) it planned LlamaModel, without its head.
    pytest.importorskip("transformers")
    config = json.loads((Path(__file__).parents[2] / "benchmarks/configs/llama-3-8b/config.json").read_text())
    del config["architectures"]
    folder = tmp_path / "llama-3-8b"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config))
    code, out, _ = run(capsys, "fit", str(folder), "--gpu", "H100", "--dtype", "bfloat16", "--optimizer", "adamw",
                       "--input-shape", "1,2048:int64", "--no-measure", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["capacity_bytes"] == find_preset("H100").memory_bytes < 79.3 * GiB  # what the card reports
    assert "torch.cuda.get_device_properties(i).total_memory" in data["capacity_source"]
    assert data["fits"] is False and data["margin_bytes"] < 0
    assert data["model_class"] == "LlamaForCausalLM" and data["parameters_bytes"] == 2 * 8_030_261_248
    assert any("names no model class" in n and "LlamaForCausalLM" in n for n in data["notes"])
