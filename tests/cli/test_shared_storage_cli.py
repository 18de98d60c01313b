"""`inspect` on a model whose buffers view its parameter's storage (issue 32, item 4): the
sizes are what is allocated, each storage once, and each row says whose memory it views."""

from __future__ import annotations

import json

from inspector.cli import main
from tests.view_models import MIB, write_factory


def test_inspect_json_counts_a_storage_once_however_many_tensors_view_it(tmp_path, capsys):
    spec = write_factory(tmp_path)
    assert main(["inspect", spec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    totals = data["totals"]
    assert (totals["bytes"], totals["by_device"], totals["by_dtype"]) == (4 * MIB, {"cpu": 4 * MIB}, {"float32": 4 * MIB})
    tensors = {t["name"]: t for t in data["tensors"]}
    # Each tensor's own `bytes` keeps its meaning; the views say whose storage they are.
    assert [tensors[n]["bytes"] for n in ("weight", "flat", "transposed", "head")] == [4 * MIB, 4 * MIB, 4 * MIB, 2 * MIB]
    assert {n: tensors[n]["shares_with"] for n in ("flat", "transposed", "head")} == dict.fromkeys(
        ("flat", "transposed", "head"), "weight"
    )
    assert len({t["storage_id"] for t in data["tensors"]}) == 1


def test_inspect_table_says_4_mib_and_names_the_viewed_tensor(tmp_path, capsys):
    spec = write_factory(tmp_path)
    assert main(["inspect", spec]) == 0
    out = capsys.readouterr().out
    assert "4 tensors in 1 storage, 1,048,576 elements, 4.0 MiB" in out
    assert "By device: cpu 4.0 MiB" in out and "14.0 MiB" not in out
    head_row = next(line for line in out.splitlines() if line.startswith("head "))
    assert "2.0 MiB (view of weight)" in head_row


def test_the_timing_report_counts_the_storage_once(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = write_factory(tmp_path)
    assert main(["bench", spec, "--device", "cpu", "--runs", "2", "--output", "r.json"]) == 0
    model = json.loads((tmp_path / "r.json").read_text())["model"]
    assert (model["bytes"], model["by_device"], model["by_dtype"]) == (4 * MIB, {"cpu": 4 * MIB}, {"float32": 4 * MIB})
