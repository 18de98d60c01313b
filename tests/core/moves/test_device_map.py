"""Device maps: read as hostile input, applied as a transaction, explained in words.

No GPU here: a real split uses cpu + meta (tensors without data, on which a forward still
runs and gives shapes); meta stands in for the GPU, so it is the main device and the modules
mapped to cpu run there with their weights streamed in, as under accelerate's dispatch_model.
Fake GPUs (tests/fake_cuda.py) exist for discovery only, so a map onto them fails half-way,
which is exactly what the rollback test needs.
"""

import json
import os

import pytest
import torch
from torch import nn

from inspector.core.moves.crossings import measure_crossings
from inspector.core.moves.device_map import apply_device_map, compress_names, explain, measure
from inspector.core.moves.device_map_file import MAX_FILE_BYTES, parse_device_map, read_device_map
from inspector.core.errors import InputError
from inspector.core.units import format_bytes
from tests.fake_cuda import GiB, fake_cuda


class Decoder(nn.Module):
    """The shape of a causal LM: embedding, numbered layers, a head, a buffer of its own."""

    def __init__(self, layers=4, width=16, vocab=50):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(width, width), nn.LayerNorm(width)) for _ in range(layers))
        self.lm_head = nn.Linear(width, vocab)

    def forward(self, ids):
        x = self.embed_tokens(ids)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)


def _state(module):
    return {k: (v.device, v.dtype, v.clone()) for k, v in module.state_dict(keep_vars=True).items()}


def test_a_map_split_between_cpu_and_meta_is_applied_and_laid_out():
    model = Decoder()
    dmap = parse_device_map({"embed_tokens": "cpu", "layers.0": "cpu", "layers.1": "cpu", "layers.2": "meta", "layers.3": "meta", "lm_head": "meta"})
    result = apply_device_map(model, dmap)
    assert result.ok, result.error
    assert model.layers[1][0].weight.device.type == "cpu"
    assert model.layers[2][0].weight.device.type == "meta" and model.lm_head.bias.device.type == "meta"
    by_device = {share.device: share for share in result.layout}
    assert by_device["cpu"].modules == ("embed_tokens", "layers.0–1")
    assert by_device["meta"].modules == ("layers.2–3", "lm_head")
    head = model.lm_head.weight.nbytes + model.lm_head.bias.nbytes
    assert by_device["meta"].bytes == 2 * sum(p.nbytes for p in model.layers[2].parameters()) + head


def test_modules_mapped_to_cpu_run_on_the_main_device_with_their_weights_streamed_in():
    model = Decoder(width=16)
    dmap = parse_device_map({"embed_tokens": "cpu", "layers.0": "cpu", "layers.1": "meta", "layers.2": "meta", "layers.3": "meta", "lm_head": "meta"})
    ids = torch.randint(0, 50, (2, 8))
    result = measure(model, dmap, apply_device_map(model, dmap), ids)
    # Activations stay on the main device: only the input crosses, into embed_tokens (run on meta).
    (c,) = result.crossings.crossings
    assert (c.source, c.source_device, c.target, c.target_device) == ("the input", "cpu", "embed_tokens", "meta")
    streamed = sum(p.nbytes for p in (*model.embed_tokens.parameters(), *model.layers[0].parameters()))
    assert result.crossings.streamed_bytes == streamed == result.plan.streamed_bytes
    assert result.crossings.streamed_calls == 3  # embed_tokens, layers.0.0, layers.0.1: each holds weights
    assert f"one forward streamed {streamed / 1024:.1f} KiB of weights to meta in 3 module calls (measured with hooks)" in result.findings
    assert model.embed_tokens.weight.device.type == "cpu"  # the weights are given back after each call
    assert result.crossings.output_device == "meta" and result.crossings.error is None


def test_an_input_on_another_device_than_its_first_module_is_said_in_words():
    model = Decoder()
    dmap = parse_device_map({"embed_tokens": "meta", "layers": "meta", "lm_head": "meta"})
    result = measure(model, dmap, apply_device_map(model, dmap), torch.randint(0, 50, (3, 5)))
    assert result.findings[0] == "the input is on cpu but embed_tokens is on meta: 120 B (1 tensor) cross each forward"


def test_a_transformer_with_two_inputs_names_both_hand_offs():
    torch.manual_seed(0)
    model = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=32)
    dmap = parse_device_map({"encoder": "meta", "decoder.layers.0": "meta", "decoder.layers.1": "meta", "decoder.norm": "meta"})
    src, tgt = torch.randn(5, 2, 16), torch.randn(4, 2, 16)
    result = measure(model, dmap, apply_device_map(model, dmap), (src, tgt))
    ends = {(c.source, c.target): c.bytes_per_forward for c in result.crossings.crossings}
    assert ends == {("the input", "encoder"): src.nbytes, ("the input", "decoder.layers.0"): tgt.nbytes}


def test_attention_streamed_per_called_module_fails_as_under_dispatch_model_and_says_why():
    # nn.MultiheadAttention reads out_proj.weight without calling out_proj: dispatch_model
    # never streams it in, so the forward fails there too (preload_module_classes is the fix).
    torch.manual_seed(0)
    model = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32)
    dmap = parse_device_map({"encoder": "cpu", "decoder": "meta"})
    result = measure(model, dmap, apply_device_map(model, dmap), (torch.randn(5, 2, 16), torch.randn(4, 2, 16)))
    assert result.crossings.error is not None
    assert any("needs preload_module_classes=[its class name]" in f for f in result.findings)
    assert all(p.device.type == "cpu" for p in model.encoder.parameters())  # every loan given back


def test_a_model_that_moves_its_own_activations_is_measured_without_a_map():
    class Pipeline(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(4, 4)
            self.b = nn.Linear(4, 4).to("meta")

        def forward(self, x):
            return self.b(self.a(x).to("meta"))

    report = measure_crossings(Pipeline(), torch.randn(3, 4))
    (c,) = report.crossings
    assert (c.source, c.source_device, c.target_device, c.bytes_per_forward) == ("a", "cpu", "meta", 48)
    assert c.target == "the model's forward"


def test_a_map_that_fails_half_way_leaves_the_model_exactly_as_it_was(monkeypatch):
    fake_cuda(monkeypatch, count=2)  # listed, but no tensor can go there
    model = Decoder()
    model.lm_head.weight.grad = torch.randn_like(model.lm_head.weight)
    params_before = {name: p for name, p in model.named_parameters()}
    before = _state(model)
    dmap = parse_device_map({"embed_tokens": "cpu", "layers": "meta", "lm_head": 1})
    result = apply_device_map(model, dmap)
    assert not result.ok
    assert result.error.message.startswith("applying the device map failed") and result.error.message.endswith("the model is as it was before")
    after = _state(model)
    assert {k: (d, t) for k, (d, t, _) in after.items()} == {k: (d, t) for k, (d, t, _) in before.items()}
    assert all(torch.equal(after[k][2], before[k][2]) for k in before)
    assert all(p is params_before[name] for name, p in model.named_parameters())  # same objects, meta ones too
    assert model.lm_head.weight.grad is not None and model.lm_head.weight.grad.device.type == "cpu"


def test_tied_weights_move_once_and_a_conflicting_entry_is_named():
    model = Decoder()
    model.lm_head = nn.Linear(16, 50, bias=False)
    model.lm_head.weight = model.embed_tokens.weight
    dmap = parse_device_map({"embed_tokens": "meta", "layers": "cpu", "lm_head": "cpu"})
    result = apply_device_map(model, dmap)
    assert result.ok
    assert model.lm_head.weight is model.embed_tokens.weight and model.embed_tokens.weight.device.type == "meta"
    assert any("lm_head.weight is tied to a weight the map put on meta" in f for f in result.findings)


def test_buffers_the_map_leaves_out_are_named():
    model = nn.BatchNorm1d(4)
    model.register_buffer("extra", torch.zeros(2))
    result = apply_device_map(model, parse_device_map({"weight": "meta", "bias": "meta"}))
    assert result.ok
    assert "4 buffers are not in the map and stay where they were: running_mean, running_var, num_batches_tracked and 1 more" in result.findings


def test_modules_on_the_cpu_are_explained_by_the_budget_when_the_file_has_it(monkeypatch):
    fake_cuda(monkeypatch, count=2)
    model = Decoder(layers=6)
    entries = {"embed_tokens": 0, **{f"layers.{i}": (0 if i < 3 else "cpu") for i in range(6)}, "lm_head": "cpu"}
    dmap = parse_device_map({"device_map": entries, "max_memory": {"0": "11KiB", "cpu": "64GiB"}})
    findings = explain(model, dmap, [])
    placed = model.embed_tokens.weight.nbytes + 3 * sum(p.nbytes for p in model.layers[0].parameters())
    largest = model.lm_head.weight.nbytes + model.lm_head.bias.nbytes  # the largest layer streamed in
    left = 11 * 1024 - placed - largest
    assert findings[0].startswith("layers.3–5, lm_head run on cuda:0, not on cpu: at every forward accelerate's AlignDevicesHook")
    budget = (f"cuda:0: max_memory 11.0 KiB = {format_bytes(placed)} placed + {format_bytes(largest)} kept free for the "
              f"largest layer still to place (lm_head) + {format_bytes(left)} left")  # fmt: skip
    assert budget in findings
    first = sum(p.nbytes for p in model.layers[3][0].parameters())
    assert first > left
    assert findings[findings.index(budget) + 1] == (
        f"the next layer, layers.3.0 ({format_bytes(first)}), did not fit in the {format_bytes(left)} left on cuda:0, "
        "so accelerate went on to cpu"
    )


def test_without_budgets_a_spill_onto_the_cpu_says_the_gpu_had_room(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=1)
    gpus[0].free_bytes = 40 * GiB
    model = Decoder()
    dmap = parse_device_map({"embed_tokens": 0, "layers": 0, "lm_head": "cpu"})
    findings = explain(model, dmap, [])
    assert findings[0].startswith("lm_head runs on cuda:0") or findings[0].startswith("lm_head run on cuda:0")
    (room,) = [f for f in findings if "though cuda:0 has" in f]
    assert room.startswith("lm_head is on cpu (") and "the map, not the memory, put them there" in room


def test_names_compress_to_ranges():
    names = ["m.layers.0", "m.layers.1", "m.layers.2", "m.norm", "m.layers.5", "m.layers.6"]
    assert compress_names(names) == ["m.layers.0–2", "m.norm", "m.layers.5–6"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "is not a device map: it is not JSON (line 1)"),
        (b"[1, 2]", "a device map is a JSON object"),
        (b"{}", "the device map is empty"),
        (b'{"a": "gpu7"}', "device map entry 'a': 'gpu7' is not a device name"),
        (b'{"a": -1}', "device map entry 'a': -1 is not a GPU index"),
        (b'{"a": true}', "device map entry 'a': True is not a device"),
        (b'{"a": "floppy"}', "device map entry 'a': 'floppy' is not a device name"),
        (b'{"a": "cpu:1"}', "device map entry 'a': 'cpu:1' is not a device: PyTorch's cpu is one device"),
        (b'{"device_map": {"a": 0}, "max_memory": {"tpu": "1GB"}}', "max_memory key 'tpu': 'tpu' is not a device name"),
        (b'{"device_map": {"a": 0}, "no_split_module_classes": ["os.system"]}', "no_split_module_classes is ['os.system']"),
        (b'{"device_map": {"a": 0}, "max_memory": {"0": "10"}}', "max_memory for '0' is '10', not a size as accelerate reads it"),
        (b'{"device_map": {"a": 0}, "max_memory": {"0": -1}}', "max_memory for '0' is -1, not a size"),
        (b'{"device_map": {"a": 0}, "max_memory": {"0": 1e999}}', "max_memory for '0' is inf, not a size"),
        (b'{"a": NaN}', "it is not JSON"),
        (b'{"a\\u001b[31m": "cpu"}', "'a\\x1b[31m' is not a module name"),
        (b"\xff\xfe", "it is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "it is not JSON"),
        (b'{"device_map": {"a": 0}, "max_memory": {"0": "lots"}}', "max_memory for '0' is 'lots', not a size"),
    ],
)
def test_a_hostile_map_file_is_one_line_of_error(tmp_path, content, message):
    path = tmp_path / "map.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        read_device_map(path)
    assert message in info.value.message
    assert "\n" not in info.value.message and "\x1b" not in info.value.message


def test_a_huge_map_file_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "map.json"
    with path.open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 10)
    with pytest.raises(InputError, match="is larger than 16.0 MiB: not a device map"):
        read_device_map(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and /dev/zero")
def test_a_fifo_or_a_device_as_the_map_is_refused_unopened(tmp_path):
    """Issue 43, item 9: the map is read as every file is (``files.regular_file``): a FIFO hung
    the read, ``/dev/zero`` was read up to the limit."""
    fifo = tmp_path / "map.json"
    os.mkfifo(fifo)
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    for path in (fifo, tmp_path / "zero.json"):
        with pytest.raises(InputError, match="is not a device map: it is not a regular file"):
            read_device_map(path)


def test_unknown_module_names_are_refused_before_anything_moves():
    model = Decoder()
    with pytest.raises(InputError, match=r"names 'model.layers.0' and 1 more, which is no module or tensor of the model \(its modules are named like"):
        apply_device_map(model, parse_device_map({"model.layers.0": 0, "model.norm": "cpu"}))
    assert all(p.device.type == "cpu" for p in model.parameters())


@pytest.mark.cpu_only
def test_an_absent_gpu_is_refused_before_anything_moves():
    model = Decoder()
    with pytest.raises(InputError, match="cuda:0 is not available"):
        apply_device_map(model, parse_device_map({"embed_tokens": 0, "layers": "meta", "lm_head": "meta"}))
    assert all(p.device.type == "cpu" for p in model.parameters())


def test_accelerate_values_read_as_our_device_ids(tmp_path):
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"a": 0, "b": "cuda", "c": "cuda:1", "d": "cpu", "e": "meta", "f": "3"}))
    assert read_device_map(path).as_dict() == {"a": "cuda:0", "b": "cuda:0", "c": "cuda:1", "d": "cpu", "e": "meta", "f": "cuda:3"}


class _Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(8, 16, num_layers=2)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out)


def test_an_lstm_on_the_cpu_runs_on_the_main_device_and_hands_nothing_across():
    model = _Recurrent()
    dmap = parse_device_map({"rnn": "cpu", "head": "meta"})
    result = measure(model, dmap, apply_device_map(model, dmap), torch.randn(5, 3, 8))
    (c,) = result.crossings.crossings
    assert (c.source, c.target, c.target_device, c.bytes_per_forward) == ("the input", "rnn", "meta", 5 * 3 * 8 * 4)
    assert result.crossings.error is None and result.crossings.streamed_bytes == sum(p.nbytes for p in model.rnn.parameters())


def test_a_cnn_with_batchnorm_keeps_its_buffers_on_the_main_device_and_its_mode():
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
    model.train()
    dmap = parse_device_map({"0": "meta", "1": "cpu", "4": "meta"})
    result = measure(model, dmap, apply_device_map(model, dmap), torch.randn(2, 3, 8, 8))
    # dispatch_model keeps a streamed module's parameters in the CPU's RAM, its buffers on the main device.
    assert model[1].weight.device.type == "cpu" and model[1].running_mean.device.type == "meta"
    assert model[1].num_batches_tracked.device.type == "meta"
    assert model.training  # measured in eval mode, given back in train mode
    assert [(c.source, c.target) for c in result.crossings.crossings] == [("the input", "0")]
    assert result.crossings.streamed_bytes == model[1].weight.nbytes + model[1].bias.nbytes


def test_a_model_of_ten_thousand_tensors_is_laid_out_in_ranges():
    model = nn.Sequential(*[nn.Linear(2, 2) for _ in range(5000)])
    dmap = parse_device_map({str(i): ("cpu" if i < 2500 else "meta") for i in range(5000)})
    result = apply_device_map(model, dmap)
    assert result.ok
    assert {s.device: (s.modules, s.tensors) for s in result.layout} == {"cpu": (("0–2499",), 5000), "meta": (("2500–4999",), 5000)}


def test_a_meta_model_cannot_be_mapped_to_real_devices_and_says_why():
    with torch.device("meta"):
        model = nn.Linear(4, 4)
    result = apply_device_map(model, parse_device_map({"": "cpu"}))
    assert not result.ok and "load its weights first" in result.error.message
    assert model.weight.device.type == "meta"


def test_tensors_sent_to_meta_are_not_counted_as_moved():
    model = Decoder()
    dmap = parse_device_map({"embed_tokens": "cpu", "layers": "meta", "lm_head": "meta"})
    result = apply_device_map(model, dmap)
    assert result.ok and result.bytes == 0  # dropped, not copied anywhere
    assert {s.device: s.bytes for s in result.layout}["meta"] == sum(p.nbytes for p in (*model.layers.parameters(), *model.lm_head.parameters()))


def test_crossings_leave_no_hook_behind_and_say_when_hooks_cannot_be_added():
    model = Decoder()
    measure_crossings(model, torch.randint(0, 50, (1, 3)))
    assert all(not m._forward_pre_hooks and not m._forward_hooks for m in model.modules())
    scripted = torch.jit.script(nn.Sequential(nn.Linear(2, 2)))
    report = measure_crossings(scripted, torch.randn(1, 2))
    assert report.crossings == () and report.error.startswith("crossings cannot be measured on this model")
