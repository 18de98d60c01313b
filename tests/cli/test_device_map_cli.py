"""inspect --device-map from the command line: applied, explained, refused in one line."""

import json
import re

import pytest

from inspector.cli import main
from tests.fake_cuda import fake_cuda

FACTORY = '''
import torch
from torch import nn

class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(50, 8)
        self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(3))
        self.lm_head = nn.Linear(8, 50)

    def forward(self, ids):
        x = self.embed_tokens(ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)

def make():
    return LM(), torch.randint(0, 50, (2, 4))
'''


def _setup(tmp_path, mapping):
    (tmp_path / "lm.py").write_text(FACTORY)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(mapping) if not isinstance(mapping, str) else mapping)
    return f"{tmp_path / 'lm.py'}:make", str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_map_is_applied_as_dispatch_model_runs_it(capsys, tmp_path):
    spec, path = _setup(tmp_path, {"embed_tokens": "cpu", "layers.0": "cpu", "layers.1": "meta", "layers.2": "meta", "lm_head": "meta"})
    code, out, err = run(capsys, "inspect", spec, "--device-map", path)
    assert code == 0, err
    assert "applied: 0 B moved in" in out  # tensors sent to meta are dropped, not moved
    assert "the main device is meta; 1.8 KiB of weights streamed to it per forward" in out
    assert "embed_tokens, layers.0  cpu         meta     1.8 KiB           1.8 KiB" in out
    assert "cpu           3  1.8 KiB  embed_tokens, layers.0" in out
    # Activations stay on the main device: the input is the only thing that crosses.
    assert "finding: the input is on cpu but embed_tokens is on meta: 64 B (1 tensor) cross each forward" in out
    assert "finding: one forward streamed 1.8 KiB of weights to meta in 2 module calls (measured with hooks)" in out
    assert "hands" not in out and "Expected all tensors to be on the same device" not in out
    rows = {line.split()[0]: line.split()[4] for line in out.splitlines() if line.startswith(("layers.", "lm_head.", "embed_tokens."))}
    assert rows["layers.0.weight"] == "cpu" and rows["layers.1.weight"] == "meta" and rows["lm_head.bias"] == "meta"


def test_json_carries_the_layout_and_crossings(capsys, tmp_path):
    spec, path = _setup(tmp_path, {"embed_tokens": "meta", "layers": "meta", "lm_head": "meta"})
    code, out, _ = run(capsys, "inspect", spec, "--device-map", path, "--json")
    assert code == 0
    data = json.loads(out)
    dm = data["device_map"]
    assert dm["ok"] and dm["devices"][0]["device"] == "meta" and dm["devices"][0]["modules"] == ["(the whole model)"]
    (crossing,) = dm["crossings"]["crossings"]
    assert crossing["source"] == "the input" and crossing["target"] == "embed_tokens" and crossing["bytes_per_forward"] == 64
    assert {t["device"] for t in data["tensors"]} == {"meta"}


def test_a_bad_map_is_one_line_and_exit_2(capsys, tmp_path):
    spec, path = _setup(tmp_path, "{oops")
    code, out, err = run(capsys, "inspect", spec, "--device-map", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "is not a device map: it is not JSON" in err


def test_an_unknown_module_name_is_exit_2(capsys, tmp_path):
    spec, path = _setup(tmp_path, {"model.decoder": 0})
    code, _, err = run(capsys, "inspect", spec, "--device-map", path)
    assert code == 2 and "names 'model.decoder', which is no module or tensor of the model" in err


def test_a_map_onto_a_gpu_that_cannot_take_tensors_rolls_back_and_exits_1(capsys, tmp_path, monkeypatch):
    fake_cuda(monkeypatch, count=2)
    spec, path = _setup(tmp_path, {"embed_tokens": "meta", "layers": 1, "lm_head": "cpu"})
    code, out, err = run(capsys, "inspect", spec, "--device-map", path)
    assert code == 1
    assert "not applied" in out and err.startswith("error: applying the device map failed")
    devices = {line.split()[4] for line in out.splitlines() if line.startswith(("layers.", "lm_head.", "embed_tokens."))}
    assert devices == {"cpu"}


def test_device_map_and_to_do_not_mix(capsys, tmp_path):
    spec, path = _setup(tmp_path, {"embed_tokens": "cpu"})
    code, _, err = run(capsys, "inspect", spec, "--device-map", path, "--to", "cpu")
    assert code == 2 and "--device-map places each module itself" in err


SPLIT = '''
import torch
from torch import nn

class Pipe(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4).to("meta")

    def forward(self, x):
        return self.b(self.a(x).to("meta"))

def make():
    return Pipe(), torch.randn(3, 4)
'''


def test_a_model_already_split_is_laid_out_and_its_hand_offs_measured(capsys, tmp_path):
    (tmp_path / "split.py").write_text(SPLIT)
    code, out, _ = run(capsys, "inspect", f"{tmp_path / 'split.py'}:make")
    assert code == 0
    assert "The model sits on several devices:" in out
    assert "finding: a on cpu hands 48 B (1 tensor) to the model's forward on meta each forward" in out
    code, out, _ = run(capsys, "inspect", f"{tmp_path / 'split.py'}:make", "--json")
    layout = json.loads(out)["device_layout"]
    assert [(d["device"], d["modules"]) for d in layout["devices"]] == [("cpu", ["a"]), ("meta", ["b"])]


def test_a_model_on_one_device_gets_no_layout_section(capsys):
    code, out, _ = run(capsys, "inspect", "--json")
    assert code == 0 and "device_layout" not in json.loads(out)


GPU_MAP = {"device_map": {"embed_tokens": 0, "layers.0": 0, "layers.1": "cpu", "layers.2": "disk", "lm_head": "disk"},
           "max_memory": {"0": "4KiB", "cpu": "160Mb", "disk": 1.5e9}}  # fmt: skip


def test_explain_reads_a_gpu_map_on_a_machine_without_one_and_moves_nothing(capsys, tmp_path):
    spec, path = _setup(tmp_path, GPU_MAP)
    code, out, err = run(capsys, "inspect", spec, "--device-map", path, "--explain")
    assert code == 0, err
    assert "explained, not applied: nothing was moved" in out
    assert "the main device is cuda:0" in out
    assert re.search(r"\nlayers\.1 +cpu +cuda:0 +288 B +288 B\n", out) and re.search(r"\nlayers\.2, lm_head +disk +cuda:0 ", out)
    assert "finding: layers.1 run on cuda:0, not on cpu" in out
    assert "finding: cpu: max_memory 19.1 MiB = 288 B placed + 1.8 KiB kept free" in out  # 160Mb: megabits
    assert "Activations crossing" not in out and "crossings not measured" not in out
    devices = {line.split()[4] for line in out.splitlines() if line.split() and line.split()[0].endswith((".weight", ".bias"))}
    assert devices == {"cpu"}
    code, out, _ = run(capsys, "inspect", spec, "--device-map", path, "--explain", "--json")
    dm = json.loads(out)["device_map"]
    assert code == 0 and dm["applied"] is False and dm["bytes"] == 0 and dm["crossings"] is None
    plan = dm["plan"]
    assert plan["main_device"] == "cuda:0" and plan["offloaded"] == ["cpu", "disk"]
    assert {e["module"]: e["runs_on"] for e in plan["entries"]} == dict.fromkeys(GPU_MAP["device_map"], "cuda:0")
    budgets = {b["device"]: b for b in plan["budgets"]}
    assert budgets["cpu"]["budget"] == 20_000_000 and budgets["disk"]["budget"] == 1_500_000_000 and budgets["disk"]["left"] is None
    gpu = budgets["cuda:0"]
    assert gpu["placed"] + gpu["reserve"] + gpu["left"] == 4096


@pytest.mark.cpu_only
def test_applying_a_gpu_map_without_a_gpu_points_to_explain(capsys, tmp_path):
    spec, path = _setup(tmp_path, GPU_MAP)
    code, _, err = run(capsys, "inspect", spec, "--device-map", path)
    assert code == 2 and "cuda:0 is not available" in err and "(--explain explains the map without applying it: no GPU needed)" in err


def test_explain_runs_no_forward_so_takes_no_input_shape(capsys, tmp_path):
    spec, path = _setup(tmp_path, GPU_MAP)
    code, _, err = run(capsys, "inspect", spec, "--device-map", path, "--explain", "--input-shape", "2,4:int64")
    assert code == 2 and "--explain moves nothing and runs no forward: drop --input-shape" in err


def test_explain_without_a_map_is_one_line(capsys):
    code, _, err = run(capsys, "inspect", "--explain")
    assert code == 2 and "--explain explains a device map: add --device-map FILE.json" in err


def test_explain_says_what_is_held_at_once_and_that_string_gpu_names_leave_the_main_device_to_chance(capsys, tmp_path):
    """Issue 47 item 11: the line names what accelerate's hooks hold at once (one module's own
    weights, in its call), and a map naming GPUs "cuda:0"/"cuda:1" is told that accelerate's
    main device then depends on the hash seed, and how to fix it."""
    spec, path = _setup(tmp_path, {"embed_tokens": "cuda:0", "layers.0": "cuda:0", "layers.1": "cuda:1",
                                   "layers.2": "cpu", "lm_head": "cpu"})  # fmt: skip
    code, out, err = run(capsys, "inspect", spec, "--device-map", path, "--explain")
    assert code == 0, err
    # lm_head: Linear(8, 50), 450 floats, the largest module streamed (layers.2 holds 72)
    assert "at most 1.8 KiB of them held at once (in the call of lm_head)" in out
    assert ("finding: the main device is not fixed: accelerate's dispatch_model takes "
            "list(set(device_map.values()) - {'cpu', 'disk'})[0]") in out
    assert "(cuda:0, cuda:1)" in out and "this explanation assumes cuda:0" in out and "integer ids (0, 1)" in out
    spec, path = _setup(tmp_path, {"embed_tokens": 0, "layers.0": 0, "layers.1": 1, "layers.2": "cpu", "lm_head": "cpu"})
    code, out, err = run(capsys, "inspect", spec, "--device-map", path, "--explain")
    assert code == 0 and "the main device is cuda:0" in out and "not fixed" not in out
