import json

import torch
from torch import nn

from inspector.core.placement import tensor_rows as placement
from inspector.core.files.models import LoadedModel, example_model


def rows_by_name(p):
    return {(r.name, r.kind): r for r in p.tensors}


def test_example_net_has_four_parameters_11_elements_44_bytes():
    p = placement.snapshot(example_model())
    params = [r for r in p.tensors if r.kind == "parameter"]
    assert [(r.name, r.shape) for r in params] == [
        ("fc1.weight", (2, 3)),
        ("fc1.bias", (2,)),
        ("fc2.weight", (1, 2)),
        ("fc2.bias", (1,)),
    ]
    assert all(r.device == "cpu" and r.dtype == "float32" and r.requires_grad for r in params)
    assert (p.totals.count, p.totals.elements, p.totals.bytes) == (4, 11, 44)
    assert p.totals.by_device == {"cpu": 44}
    assert p.totals.by_dtype == {"float32": 44}
    assert p.warnings == ()
    assert params[0].module == "fc1"


def test_batchnorm_buffers_include_int64_num_batches_tracked():
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))
    p = placement.snapshot(model)
    rows = rows_by_name(p)
    assert rows[("1.running_mean", "buffer")].shape == (4,)
    tracked = rows[("1.num_batches_tracked", "buffer")]
    assert tracked.dtype == "int64" and tracked.shape == () and tracked.bytes == 8
    assert not tracked.requires_grad
    assert p.totals.by_dtype["int64"] == 8


def test_tied_weights_are_listed_twice_but_counted_once():
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(10, 4)
            self.head = nn.Linear(4, 10, bias=False)
            self.head.weight = self.embed.weight

    p = placement.snapshot(Tied())
    names = [r.name for r in p.tensors if r.kind == "parameter"]
    assert names == ["embed.weight", "head.weight"]
    assert rows_by_name(p)[("head.weight", "parameter")].shares_with == "embed.weight"
    assert p.totals.count == 1
    assert p.totals.bytes == 10 * 4 * 4


def test_grads_and_optimizer_state_rows_appear_once_present():
    loaded = example_model()
    loaded.optimizer = torch.optim.Adam(loaded.module.parameters())
    assert not [r for r in placement.snapshot(loaded).tensors if r.kind != "parameter"]
    loaded.module(loaded.example_input).sum().backward()
    loaded.optimizer.step()
    p = placement.snapshot(loaded)
    rows = rows_by_name(p)
    assert rows[("fc1.weight.grad", "grad")].shape == (2, 3)
    assert rows[("fc1.weight.grad", "grad")].module == "fc1"
    assert rows[("fc1.weight.exp_avg", "optimizer_state")].shape == (2, 3)
    assert rows[("fc1.weight.exp_avg_sq", "optimizer_state")].module == "fc1"
    # 4 params + 4 grads + 4 * (step, exp_avg, exp_avg_sq)
    assert p.totals.count == 4 + 4 + 12
    assert p.warnings == ()  # Adam's scalar CPU `step` is not a finding


def test_optimizer_state_left_behind_by_a_cast_is_flagged():
    loaded = example_model()
    loaded.optimizer = torch.optim.SGD(loaded.module.parameters(), lr=0.1, momentum=0.9)
    loaded.module(loaded.example_input).sum().backward()
    loaded.optimizer.step()
    loaded.module.to(torch.float64)  # Module.to() leaves the momentum buffers as they were
    p = placement.snapshot(loaded)
    codes = [w.code for w in p.warnings]
    assert codes == ["optimizer_state_elsewhere"]
    w = p.warnings[0]
    assert "fc1.weight.momentum_buffer" in w.names and len(w.names) == 4
    assert "Module.to() does not move optimizer state" in w.message


def test_split_model_and_stray_buffer_are_flagged():
    # "meta" stands in for a second device on this CPU-only machine.
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    model[1].to("meta")
    p = placement.snapshot(model)
    codes = {w.code for w in p.warnings}
    assert {"split_model", "buffer_elsewhere"} <= codes
    split = next(w for w in p.warnings if w.code == "split_model")
    assert "cpu" in split.message and "meta" in split.message
    assert p.devices == ("cpu", "meta")


def test_to_dict_is_json_ready_with_contract_keys():
    d = placement.snapshot(example_model()).to_dict()
    text = json.dumps(d)
    assert set(d) == {"tensors", "totals", "warnings"}
    assert {"name", "kind", "shape", "dtype", "device", "bytes", "requires_grad"} <= set(d["tensors"][0])
    assert {"count", "elements", "bytes", "by_device", "by_dtype"} <= set(d["totals"])
    assert json.loads(text)["tensors"][0]["shape"] == [2, 3]


def test_snapshot_accepts_a_bare_module():
    p = placement.snapshot(nn.Linear(3, 2))
    assert p.totals.count == 2
    assert isinstance(LoadedModel("x", nn.Identity()).module, nn.Identity)


# ----------------------------------------------------------------- issue 32, item 4: views


def test_views_of_one_storage_are_counted_once_and_say_whose_storage_they_view():
    from tests.view_models import MIB, build

    module, _ = build()
    p = placement.snapshot(module)
    rows = rows_by_name(p)
    # What is allocated: one 4 MiB storage, not 4 + 4 + 4 + 2 = 14 MiB.
    assert (p.totals.count, p.totals.bytes) == (1, 4 * MIB)
    assert p.totals.by_device == {"cpu": 4 * MIB} and p.totals.by_dtype == {"float32": 4 * MIB}
    weight = rows[("weight", "parameter")]
    assert (weight.shares_with, weight.counted_bytes, weight.is_view) == (None, 4 * MIB, False)
    for name, own in (("flat", 4 * MIB), ("transposed", 4 * MIB), ("head", 2 * MIB)):
        row = rows[(name, "buffer")]
        # Each tensor keeps its own size; the totals count its memory on the weight.
        assert (row.bytes, row.shares_with, row.is_view, row.counted_bytes) == (own, "weight", True, 0)
        assert row.storage_id == weight.storage_id
    as_json = json.loads(json.dumps(p.to_dict()))
    assert sum(t["counted_bytes"] for t in as_json["tensors"]) == as_json["totals"]["bytes"] == 4 * MIB


def test_a_slice_of_a_bigger_storage_counts_the_whole_storage_it_keeps_alive():
    big = torch.zeros(1000)
    holder = nn.Module()
    holder.register_buffer("first", big[:10])
    holder.register_buffer("second", big[500:510])
    p = placement.snapshot(holder)
    first, second = rows_by_name(p)[("first", "buffer")], rows_by_name(p)[("second", "buffer")]
    assert (first.bytes, second.bytes) == (40, 40)
    assert p.totals.bytes == 4000 and first.counted_bytes == 4000  # the 4 KB stay allocated
    assert second.shares_with == "first" and second.is_view


def test_overlapping_storages_count_their_union_and_separate_ones_their_sum():
    import numpy as np

    array = np.zeros(1000, dtype=np.float32)
    holder = nn.Module()
    # Two storage objects over one array's memory: bytes 0-2400 and 1600-4000 of it.
    holder.register_buffer("a", torch.from_numpy(array[:600]))
    holder.register_buffer("b", torch.from_numpy(array[400:]))
    holder.register_buffer("apart", torch.zeros(10))
    p = placement.snapshot(holder)
    rows = rows_by_name(p)
    assert rows[("a", "buffer")].shares_with is None
    assert rows[("b", "buffer")].shares_with == "a"
    assert p.totals.bytes == 4000 + 40 and p.totals.count == 2


def test_a_tied_weight_is_not_called_a_view():
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(10, 4)
            self.head = nn.Linear(4, 10, bias=False)
            self.head.weight = self.embed.weight

    head = rows_by_name(placement.snapshot(Tied()))[("head.weight", "parameter")]
    assert (head.shares_with, head.is_view, head.counted_bytes) == ("embed.weight", False, 0)


def test_meta_and_empty_tensors_are_never_taken_for_one_storage():
    holder = nn.Module()
    with torch.device("meta"):
        holder.a = nn.Linear(4, 4, bias=False)
        holder.b = nn.Linear(4, 4, bias=False)
    holder.register_buffer("e1", torch.empty(0))
    holder.register_buffer("e2", torch.empty(0))
    p = placement.snapshot(holder)
    assert all(r.shares_with is None for r in p.tensors)
    assert p.totals.count == 4 and p.totals.meta_bytes == 2 * 64
