"""Issue 43, item 5: a config within every bound can still declare a long build. The load says
how long before it starts (from builds of one and two layers), and the window's Cancel stops it
in the middle: nothing is loaded, and the app carries on. Every build is bounded by the modules
and parameters it registers (review of issue 43: Swin's ``depths: [10000000]`` built for ever,
as no estimate reads a list), and ``depths`` is checked with the config's other sizes."""

from __future__ import annotations

import json

import pytest
from torch import nn

from inspector.cli import main
from inspector.core.errors import Cancelled
from inspector.core.files import load_model
from inspector.core.files.load_errors import ModelLoadError
from inspector.core.files.hugging_face import build_time
from tests.hf_folders import llama_with


def test_a_long_build_is_announced_with_its_estimate_before_it_starts(tmp_path, monkeypatch):
    folder = llama_with(tmp_path, "deep", num_hidden_layers=40)
    said: list[str] = []
    monkeypatch.setattr(build_time, "LONG_BUILD_S", 0.0)  # any estimate counts as long here
    loaded = load_model(str(folder), say=said.append)
    [sentence] = said
    assert sentence.startswith("building 40 layers on the meta device: about ") and "s here" in sentence
    assert sentence in loaded.notes  # and kept with the load
    assert sum(1 for name, _ in loaded.module.named_parameters() if name.endswith("self_attn.q_proj.weight")) == 40


def test_a_build_estimated_under_the_threshold_says_nothing():
    class Config:
        num_hidden_layers = 40

    said: list[str] = []
    assert build_time.announce(Config(), build_time.LONG_BUILD_S - 0.1, said.append) is None
    assert build_time.announce(Config(), None, said.append) is None
    assert said == []
    assert build_time.announce(Config(), build_time.LONG_BUILD_S + 0.1, said.append) is not None and len(said) == 1


def swin_with(root, name: str, depths: list[int]):
    """A tiny Swin whose stages have ``depths`` layers (a list no ``num_hidden_layers`` shows)."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    config = {"model_type": "swin", "architectures": ["SwinModel"], "depths": depths, "num_heads": [1] * len(depths),
              "embed_dim": 8, "image_size": 32, "patch_size": 4, "window_size": 2}  # fmt: skip
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def test_the_estimate_comes_from_one_and_two_layer_builds_and_scales_with_the_layers(monkeypatch, tmp_path):
    built: list[int] = []
    cost = {1: 3.0, 2: 5.0}  # seconds a build of n layers "takes": 1 s of set-up, 2 s a layer
    clock = iter([0.0, cost[1], 100.0, 100.0 + cost[2]])
    monkeypatch.setattr(build_time.time, "perf_counter", lambda: next(clock))

    class Config:
        num_hidden_layers = 126
        layer_types = ["full"] * 126

    def build(config):
        built.append((config.num_hidden_layers, len(config.layer_types)))

    assert build_time.estimate_seconds(build, Config(), tmp_path) == pytest.approx(3.0 + 2.0 * 125)
    assert built == [(1, 1), (2, 2)]  # a per-layer list is cut to match
    Config.num_hidden_layers = 4
    assert build_time.estimate_seconds(build, Config(), tmp_path) is None  # few layers: built without an estimate


def test_cancel_stops_the_build_in_the_middle_and_loads_nothing(tmp_path):
    folder = llama_with(tmp_path, "deep", num_hidden_layers=40)
    asked = [0]

    def cancel_on_the_fourth_look() -> bool:
        asked[0] += 1
        return asked[0] >= 4

    with pytest.raises(Cancelled, match="cancelled after 128 tensors: nothing was loaded"):
        load_model(str(folder), should_cancel=cancel_on_the_fourth_look)
    assert asked[0] == 4  # asked every 32 tensors, stopped at the first yes
    # the hook is gone with the build: the next load is not asked, and builds whole
    loaded = load_model(str(folder), should_cancel=lambda: False)
    assert sum(1 for _ in loaded.module.parameters()) > 128


def test_the_cli_says_the_estimate_on_stderr_before_the_placement(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build_time, "LONG_BUILD_S", 0.0)
    assert main(["inspect", str(llama_with(tmp_path, "deep", num_hidden_layers=20))]) == 0
    out, err = capsys.readouterr()
    assert "note: building 20 layers on the meta device: about " in err and "lm_head.weight" in out


def test_a_build_past_the_bound_of_modules_is_refused_in_one_line_having_registered_no_more(tmp_path, monkeypatch):
    folder = swin_with(tmp_path, "deep-swin", [1000])  # within config_values' bounds: the build's own is met
    monkeypatch.setattr(build_time, "BUILD_LIMIT", 500)
    registered = {"modules": 0, "tensors": 0}

    def counting(kind):
        return lambda *_: registered.__setitem__(kind, registered[kind] + 1)

    counters = (nn.modules.module.register_module_module_registration_hook(counting("modules")),
                nn.modules.module.register_module_parameter_registration_hook(counting("tensors")))  # fmt: skip
    try:
        with pytest.raises(ModelLoadError) as refused:
            load_model(str(folder))
    finally:
        for counter in counters:
            counter.remove()
    message = str(refused.value)
    assert "\n" not in message and message.endswith("refused")
    assert "declares a model of more than 500 modules or parameter tensors" in message and str(folder) in message
    assert "Switch Transformers c-2048" in message
    # the work stopped at the bound, not after 1,000 layers of ~12 modules and ~14 tensors each
    assert 500 < max(registered.values()) <= 510 and sum(registered.values()) <= 1020


def test_the_cli_refuses_a_build_past_the_bound_as_bad_input(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build_time, "BUILD_LIMIT", 500)
    assert main(["inspect", str(swin_with(tmp_path, "deep-swin", [1000]))]) == 2
    out, err = capsys.readouterr()
    [line] = err.strip().splitlines()
    assert line.startswith("error: ") and "more than 500 modules or parameter tensors" in line and out == ""


@pytest.mark.parametrize(("depths", "said"), [
    ([10_000_000], "config.json's depths is 10,000,000, more than 1,024"),
    ([600, 600], "config.json's depths add up to 1,200 layers, more than 1,024"),
    ([2, 0], "config.json's depths is 0: it must be a whole number, at least 1"),
])  # fmt: skip
def test_swin_depths_past_the_layers_bound_are_refused_before_any_build(tmp_path, monkeypatch, depths, said):
    built = []
    monkeypatch.setattr(build_time, "stoppable", lambda *args: built.append(args))  # a build would fail here
    with pytest.raises(ModelLoadError, match=said):
        load_model(str(swin_with(tmp_path, "swin", depths)))
    assert built == []


def test_a_tiny_swin_still_builds_under_the_bound(tmp_path):
    loaded = load_model(str(swin_with(tmp_path, "swin", [2, 2])))
    blocks = {name.split(".attention")[0] for name, _ in loaded.module.named_parameters() if ".attention." in name}
    assert len(blocks) == 4  # 2 + 2 Swin layers
