"""Comparing two timing reports: rows a user reads side by side (Qt-free)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from inspector.core.report.compare import compare_reports, describe_ratio
from tests.report_edge import typed


def _latency(device, median, *, dtype="float32", mode="forward", shape=(64, 3), p5=None, p95=None, n=10):
    return {
        "device": device, "dtype": dtype, "mode": mode, "input_shape": list(shape),
        "samples_ms": [median] * n, "median_ms": median,
        "p5_ms": p5 if p5 is not None else median * 0.9, "p95_ms": p95 if p95 is not None else median * 1.2,
    }  # fmt: skip


def _move(source, target, seconds, nbytes, *, ok=True, dtype=None, method="to", pinned=False):
    return {
        "call": f"model.to({target!r})", "method": method, "source": source, "target": target,
        "dtype": dtype, "pinned": pinned, "seconds": seconds, "bytes": nbytes,
        "gbps": nbytes / seconds / 1e9 if ok else None, "ok": ok, "error": None if ok else {"kind": "oom"},
    }  # fmt: skip


def _report(latency=(), moves=(), *, torch_version="2.6.0", devices=None, created="2025-01-01T00:00:00+00:00"):
    devices = devices or [{"id": "cpu", "type": "cpu", "name": "Some CPU", "total_bytes": 16 << 30}]
    return {
        "schema_version": 1, "created": created,
        "environment": {"python": "3.11.9", "torch": torch_version, "cuda": None, "os": "Linux",
                        "system_memory_bytes": 16 << 30, "devices": {"devices": devices, "notes": []}},
        "model": {"spec": "example", "class": "Net", "parameters": 11, "bytes": 44},
        "moves": list(moves), "latency": list(latency), "memory": {},
    }  # fmt: skip


GPU = {"id": "cuda:0", "type": "cuda", "name": "NVIDIA H200", "total_bytes": 140 << 30}


def test_latency_rows_pair_the_same_device_and_dtype_and_give_the_ratio():
    a = _report([_latency("cpu", 2.0), _latency("cuda:0", 0.5)], devices=[GPU])
    b = _report([_latency("cpu", 1.0), _latency("cuda:0", 0.5, n=12), _latency("cuda:0", 0.25, dtype="bfloat16")])
    rows = {(r.device, r.dtype): r for r in compare_reports(typed(a), typed(b), label_b="server").latency}

    assert set(rows) == {("cpu", "float32"), ("cuda:0", "float32"), ("cuda:0", "bfloat16")}
    cpu = rows["cpu", "float32"]
    assert (cpu.median_a, cpu.median_b, cpu.ratio) == (2.0, 1.0, 0.5)
    assert cpu.verdict == "server 2.00× faster"
    assert rows["cuda:0", "float32"].verdict == "no clear difference"
    only_b = rows["cuda:0", "bfloat16"]
    assert only_b.median_a is None and only_b.ratio is None
    assert only_b.verdict == "not compared: A's cuda:0 run differs in dtype (bfloat16 vs float32)"
    # Within each report: how much faster than that report's own CPU.
    assert rows["cuda:0", "float32"].speedup_vs_cpu_a == pytest.approx(4.0)
    assert rows["cuda:0", "float32"].speedup_vs_cpu_b == pytest.approx(2.0)
    assert rows["cuda:0", "float32"].device_name_a == "NVIDIA H200"


def test_different_input_shapes_or_modes_are_not_compared_with_each_other():
    a = _report([_latency("cpu", 1.0, shape=(64, 3))])
    b = _report([_latency("cpu", 9.0, shape=(1, 3)), _latency("cpu", 5.0, mode="train-step", shape=(64, 3))])
    rows = compare_reports(typed(a), typed(b)).latency
    assert len(rows) == 3
    assert all(r.ratio is None for r in rows)
    # ...and say plainly how each pair differs, never "×" of any kind.
    assert [r.verdict for r in rows] == [
        "not compared: B's cpu run differs in input shape (64x3 vs 1x3)",
        "not compared: A's cpu run differs in input shape (1x3 vs 64x3)",
        "not compared: A's cpu run differs in mode (train-step vs forward)",
    ]
    assert not any("×" in r.verdict for r in rows)


def _noisy_samples(median, n=200, seed=0):
    """Latency-like samples: lognormal around ``median`` with a heavy right tail."""
    rng = np.random.default_rng(seed)
    return (median * rng.lognormal(0.0, 0.25, n)).tolist()


def _measured(device, samples, **kw):
    entry = _latency(device, float(np.median(samples)), **kw)
    entry["samples_ms"] = samples
    return entry


def test_two_runs_of_the_same_model_and_machine_show_no_clear_difference():
    # Two draws from one distribution: their medians differ by chance, the interval holds 1.
    a = _report([_measured("cpu", _noisy_samples(0.036, seed=1))])
    b = _report([_measured("cpu", _noisy_samples(0.036, seed=2))])
    [row] = compare_reports(typed(a), typed(b)).latency
    assert row.ratio != 1.0 and row.ratio_low < 1 < row.ratio_high
    assert row.verdict == "no clear difference"


def test_a_model_twice_as_slow_is_slower_with_an_interval_excluding_one():
    a = _report([_measured("cpu", _noisy_samples(0.036, seed=1))])
    b = _report([_measured("cpu", _noisy_samples(0.072, seed=2))])
    [row] = compare_reports(typed(a), typed(b), label_b="B").latency
    assert 1 < row.ratio_low < row.ratio < row.ratio_high
    assert 1.7 < row.ratio < 2.3
    assert row.verdict == f"B {row.ratio:.2f}× slower"
    # The interval is seeded: the same two reports always read the same.
    assert compare_reports(typed(a), typed(b)).latency[0].ratio_low == row.ratio_low


def test_a_noisy_run_is_flagged_and_an_old_report_is_judged_from_its_samples():
    noisy = [0.036] * 90 + [3.0] * 10  # p95 is 83× the median
    entry = _measured("cpu", noisy)
    assert "noise" not in entry  # written before schema 2
    [row] = compare_reports(typed(_report([entry]))).latency
    assert row.noise_a == "noisy: p95 is 83× the median; results may not be repeatable"


def test_too_few_samples_give_the_ratio_with_a_question_not_a_verdict():
    a = _report([_measured("cpu", [1.0, 1.1, 0.9])])
    b = _report([_measured("cpu", [2.0, 2.1, 1.9])])
    [row] = compare_reports(typed(a), typed(b)).latency
    assert row.ratio_low is None and row.verdict == "B 2.00× slower? too few samples to tell"


def test_a_re_run_replaces_the_earlier_measurement():
    a = _report([_latency("cpu", 4.0), _latency("cpu", 2.0)])
    (row,) = compare_reports(typed(a), typed(_report([_latency("cpu", 1.0)]))).latency
    assert row.median_a == 2.0 and row.ratio == 0.5


def test_one_report_alone_lists_its_devices_with_speedups_over_its_cpu():
    report = _report([_latency("cpu", 3.0), _latency("cuda:0", 0.3)], devices=[GPU])
    comparison = compare_reports(typed(report), label_a="server.json")
    assert comparison.label_b is None
    assert [(r.device, r.speedup_vs_cpu_a) for r in comparison.latency] == [("cpu", None), ("cuda:0", pytest.approx(10.0))]
    assert all(r.ratio is None and r.verdict == "" for r in comparison.latency)
    assert all(not r.differs and r.b == "" for r in comparison.environment)


def test_move_rows_compare_bandwidth_of_successful_moves_of_the_same_kind():
    gib = 1 << 30
    a = _report(moves=[_move("cpu", "cuda:0", 1.0, gib), _move("cpu", "cuda:0", 3.0, gib),
                       _move("cpu", "cuda:0", 9.0, gib, ok=False)])  # fmt: skip
    b = _report(moves=[_move("cpu", "cuda:0", 0.5, gib), _move("cpu", "cuda:0", 0.4, gib, pinned=True)])
    rows = {(r.route, r.pinned): r for r in compare_reports(typed(a), typed(b)).moves}

    plain = rows["cpu → cuda:0", False]
    assert (plain.count_a, plain.failed_a) == (3, 1)
    assert plain.seconds_a == pytest.approx(2.0)  # median of the two that worked
    assert plain.gbps_a == pytest.approx((gib / 1e9 + gib / 3e9) / 2)
    assert plain.ratio == pytest.approx(plain.gbps_b / plain.gbps_a)
    assert plain.ratio > 1 and plain.verdict.startswith("B") and "faster" in plain.verdict
    pinned = rows["cpu → cuda:0", True]
    assert pinned.count_a == 0 and pinned.gbps_a is None and pinned.verdict == "only in B"


def test_environment_rows_flag_what_differs():
    a = _report(torch_version="2.6.0")
    b = _report(torch_version="2.11.0", devices=[{"id": "cpu", "name": "Some CPU", "total_bytes": 16 << 30}, GPU])
    rows = {(r.section, r.name): r for r in compare_reports(typed(a), typed(b)).environment}
    assert rows["environment", "PyTorch"].differs
    assert (rows["environment", "PyTorch"].a, rows["environment", "PyTorch"].b) == ("2.6.0", "2.11.0")
    assert not rows["environment", "Python"].differs
    assert rows["environment", "System memory"].a == "16.0 GiB"
    assert rows["device", "cuda:0"].a == "—" and rows["device", "cuda:0"].b == "NVIDIA H200 · 140.0 GiB"
    assert not rows["device", "cpu"].differs
    assert ("environment", "CUDA") not in rows  # None on both sides says nothing


def test_partial_and_odd_entries_do_not_break_the_comparison():
    a = {"latency": [{"device": "cpu", "dtype": "float32", "median_ms": None, "samples_ms": []}, "junk"],
         "moves": [{"source": "cpu"}], "environment": {"devices": [{"id": "cpu"}]}}  # fmt: skip
    comparison = compare_reports(typed(a), typed({}))
    assert comparison.latency[0].median_a is None
    assert comparison.moves[0].count_a == 1 and comparison.moves[0].gbps_a is None
    json.dumps(comparison.to_dict())  # plain values throughout


def test_describe_ratio_reads_from_bs_side():
    assert describe_ratio(0.5, "B") == "B 2.00× faster"
    assert describe_ratio(2.0, "B") == "B 2.00× slower"
    assert describe_ratio(2.0, "B", higher_is_better=True) == "B 2.00× faster"
    assert describe_ratio(1.02, "B") == "about the same"
    assert describe_ratio(None, "B") == ""


def test_one_model_file_named_from_two_folders_is_the_same_model(tmp_path, monkeypatch):
    from inspector.cli import main

    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "models.py").write_text(
        "import torch\nfrom torch import nn\n\ndef build():\n    return nn.Linear(4, 4), torch.randn(2, 4)\n"
    )
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "models.py").write_text((folder / "models.py").read_text())
    monkeypatch.chdir(folder)
    paths = {}
    for name, spec in (("a", "models.py:build"), ("b", "../work/models.py:build"), ("c", "../other/models.py:build")):
        paths[name] = tmp_path / f"{name}.json"
        assert main(["bench", spec, "--device", "cpu", "--runs", "10", "--output", str(paths[name])]) == 0
    reports = {k: json.loads(p.read_text()) for k, p in paths.items()}
    assert reports["a"]["model"]["resolved_spec"] == f"{folder / 'models.py'}:build"

    def spec_row(a, b):
        return {(r.section, r.name): r for r in compare_reports(typed(a), typed(b)).environment}["model", "Model"]

    same = spec_row(reports["a"], reports["b"])
    assert (same.a, same.b) == ("models.py:build", "../work/models.py:build") and not same.differs
    # A copy of the file elsewhere is another file: it may have changed since.
    assert spec_row(reports["a"], reports["c"]).differs


def test_each_latency_entry_and_the_environment_carry_the_thread_counts(tmp_path):
    import torch

    from inspector.cli import main

    path = tmp_path / "r.json"
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        assert main(["bench", "example", "--device", "cpu", "--runs", "10", "--output", str(path)]) == 0
    finally:
        torch.set_num_threads(before)
    report = json.loads(path.read_text())
    assert report["latency"][0]["threads"] == 1
    assert report["environment"]["torch_interop_threads"] == torch.get_num_interop_threads()
    # A report with 1 thread against one with 2 says so where the two were made.
    other = json.loads(path.read_text())
    other["environment"]["torch_threads"] = 2
    rows = {(r.section, r.name): r for r in compare_reports(typed(report), typed(other)).environment}
    assert rows["environment", "PyTorch threads"].differs
