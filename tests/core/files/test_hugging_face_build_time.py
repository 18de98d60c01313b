"""Issue 43, item 5: a config within every bound can still declare a long build. The load says
how long before it starts (from builds of one and two layers), and the window's Cancel stops it
in the middle: nothing is loaded, and the app carries on."""

from __future__ import annotations

import pytest

from inspector.cli import main
from inspector.core.errors import Cancelled
from inspector.core.files import load_model
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


def test_the_estimate_comes_from_one_and_two_layer_builds_and_scales_with_the_layers(monkeypatch):
    built: list[int] = []
    cost = {1: 3.0, 2: 5.0}  # seconds a build of n layers "takes": 1 s of set-up, 2 s a layer
    clock = iter([0.0, cost[1], 100.0, 100.0 + cost[2]])
    monkeypatch.setattr(build_time.time, "perf_counter", lambda: next(clock))

    class Config:
        num_hidden_layers = 126
        layer_types = ["full"] * 126

    def build(config):
        built.append((config.num_hidden_layers, len(config.layer_types)))

    assert build_time.estimate_seconds(build, Config()) == pytest.approx(3.0 + 2.0 * 125)
    assert built == [(1, 1), (2, 2)]  # a per-layer list is cut to match
    Config.num_hidden_layers = 4
    assert build_time.estimate_seconds(build, Config()) is None  # few layers: built without an estimate


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
