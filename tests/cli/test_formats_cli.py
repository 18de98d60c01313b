"""bench --trace, bench --memory-snapshot and devices --prometheus from the command line."""

import json

import pytest
from prometheus_client.parser import text_string_to_metric_families

from inspector.cli import main
from inspector.core.errors import InputError
from inspector.core.report.timing_report import load_report


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bench_trace_has_one_complete_event_per_sample_and_warm_up_call(capsys, tmp_path):
    path = tmp_path / "trace.json"
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "7", "--trace", str(path), "--output", str(tmp_path / "r.json"))
    assert code == 0, err
    trace = json.loads(path.read_text())
    complete = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert all(isinstance(e["ts"], (int, float)) and e["dur"] >= 0 for e in complete)
    samples = [e for e in complete if e["name"].startswith("sample ")]
    report = json.loads((tmp_path / "r.json").read_text())
    latency = report["latency"][0]
    assert len(samples) == 7 == len(latency["samples_ms"])
    assert [e["args"]["ms"] for e in samples] == latency["samples_ms"]
    assert len([e for e in complete if e["name"].startswith("warm-up call")]) == len(latency["warmup_samples_ms"])
    moves = [e for e in complete if e["tid"] == 1 and not e["name"].startswith("bookkeeping: ")]
    assert [e["args"]["call"] for e in moves] == [m["call"] for m in report["moves"]]
    assert "trace written" in err


@pytest.mark.parametrize(("name", "why"), [("trace.txt", "must end in .json"), ("nowhere/trace.json", "does not exist")])
def test_a_trace_path_that_cannot_work_is_refused_before_measuring(capsys, tmp_path, name, why):
    code, _, err = run(capsys, "bench", "--runs", "1", "--trace", str(tmp_path / name))
    assert code == 2 and why in err and "moved:" not in err


@pytest.mark.cpu_only
def test_memory_snapshot_on_the_cpu_says_it_needs_cuda_before_measuring(capsys, tmp_path):
    code, out, err = run(capsys, "bench", "--runs", "1", "--memory-snapshot", str(tmp_path / "s.pickle"))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: --memory-snapshot needs CUDA")
    assert "moved:" not in err and out == ""
    assert not (tmp_path / "s.pickle").exists()


def test_devices_prometheus_parses(capsys):
    code, out, _ = run(capsys, "devices", "--prometheus")
    assert code == 0
    families = {f.name: f for f in text_string_to_metric_families(out)}
    cpu = families["torch_device_inspector_memory_total_bytes"].samples[0]
    assert cpu.labels["torch_device"] == "cpu" and cpu.value > 0 and cpu.labels["hostname"]
    assert "uuid" not in cpu.labels  # no empty label for a device that has none


def test_devices_prometheus_writes_a_textfile_for_node_exporter_atomically(capsys, tmp_path, monkeypatch):
    from inspector.core import atomic_write

    target = tmp_path / "tdi.prom"
    target.write_text("# the previous minute's metrics\n")
    renames = []
    real_replace = atomic_write.os.replace
    monkeypatch.setattr(atomic_write.os, "replace", lambda a, b: (renames.append((str(a), str(b))), real_replace(a, b))[1])
    code, out, err = run(capsys, "devices", "--prometheus", str(target))
    assert code == 0 and out == "" and err == ""
    assert renames and renames[0][1] == str(target) and renames[0][0] != str(target)  # written aside, then renamed
    families = {f.name: f for f in text_string_to_metric_families(target.read_text())}
    assert families["torch_device_inspector_memory_free_bytes"].samples[0].value > 0
    code, _, err = run(capsys, "devices", "--prometheus", str(tmp_path / "tdi.txt"))
    assert code == 2 and "must end in .prom" in err and not (tmp_path / "tdi.txt").exists()


# ----- issue 43, item 14: the metrics are written by the app's own writer, in a shared folder


def test_a_symlink_planted_at_prometheus_clients_temporary_name_is_not_followed(capsys, tmp_path):
    """``write_to_textfile`` wrote through ``FILE.<pid>.<thread>``, opened without O_EXCL: in
    the collector's shared folder anyone could point that name at a file of the user's."""
    import os
    import threading

    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    target = tmp_path / "tdi.prom"
    planted = tmp_path / f"tdi.prom.{os.getpid()}.{threading.current_thread().ident}"
    planted.symlink_to(victim)
    code, out, err = run(capsys, "devices", "--prometheus", str(target))
    assert code == 0 and out == "" and err == ""
    assert victim.read_text() == "the user's own file\n"
    assert "torch_device_inspector_memory_total_bytes" in target.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([victim.name, target.name, planted.name])


def test_metrics_that_cannot_be_written_are_one_line(capsys, tmp_path, monkeypatch):
    from tests.faults import fill_disk_half_way_through_report_writes
    from tests.unwritable import unwritable

    from inspector.core.atomic_write import TEMP_EXTRA_BYTES, longest_name

    if (longest_name(tmp_path) or 0) + TEMP_EXTRA_BYTES == 255:  # NAME_MAX of most file systems
        long_name = tmp_path / ("m" * 245 + ".prom")  # under NAME_MAX, over it with the temporary suffix
        code, out, err = run(capsys, "devices", "--prometheus", str(long_name))
        assert code == 2 and out == "" and err.count("\n") == 1
        assert err.startswith(f"error: cannot write the metrics to {long_name}: the file name is 250 bytes long")
    folder = tmp_path / "collector"
    folder.mkdir()
    with unwritable(folder):
        code, out, err = run(capsys, "devices", "--prometheus", str(folder / "tdi.prom"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"error: cannot write the metrics to {folder / 'tdi.prom'}: ")
    target = folder / "tdi.prom"
    target.write_text("# the previous minute's metrics\n")
    fill_disk_half_way_through_report_writes(monkeypatch)
    code, out, err = run(capsys, "devices", "--prometheus", str(target))
    assert code == 1 and out == ""
    assert err == f"error: could not write the metrics to {target}: the disk is full\n"
    assert target.read_text() == "# the previous minute's metrics\n" and [p.name for p in folder.iterdir()] == ["tdi.prom"]


def test_devices_prometheus_and_json_do_not_mix(capsys):
    with pytest.raises(SystemExit) as info:
        main(["devices", "--json", "--prometheus"])
    assert info.value.code == 2


def test_a_report_with_malformed_ranks_is_refused(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert run(capsys, "bench", "--device", "cpu", "--runs", "2", "--output", str(path))[0] == 0
    report = json.loads(path.read_text())
    for ranks, why in (
        ([{"rank": "0"}], r"ranks\[0\]\.rank: expected a whole number, not text"),
        ("all", "ranks: expected a list, not text"),
        ([{"rank": 0, "ok": True, "latency": [{}]}], r"ranks\[0\]\.latency\[0\]\.device: missing"),
        ([{"rank": 0, "ok": "yes", "latency": []}], r"ranks\[0\]\.ok: expected true or false, not text"),
    ):
        report["ranks"] = ranks
        path.write_text(json.dumps(report))
        with pytest.raises(InputError, match=why):
            load_report(path)


def test_memory_snapshot_records_around_the_moves_and_timing_and_writes_the_pickle(capsys, tmp_path, monkeypatch):
    """The CUDA path's plumbing, with torch's recorder faked (the real one runs in gpu_check)."""
    import pickle

    import torch

    from inspector.core.moves import transaction as moves
    from tests.fake_cuda import fake_cuda

    fake_cuda(monkeypatch, count=1)
    calls = []
    monkeypatch.setattr(torch.cuda.memory, "_record_memory_history", lambda enabled="all", **kw: calls.append(("record", enabled)))
    monkeypatch.setattr(torch.cuda.memory, "_snapshot", lambda *a, **k: calls.append(("snapshot",)) or {"segments": [], "device_traces": [[]]})
    real_move = moves.move_model
    monkeypatch.setattr(moves, "move_model", lambda *a, **k: calls.append(("move",)) or real_move(*a, **k))
    path = tmp_path / "snap.pickle"
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--memory-snapshot", str(path))
    assert code == 0, err
    assert calls == [("record", "all"), ("move",), ("snapshot",), ("record", None)]
    assert pickle.loads(path.read_bytes()) == {"segments": [], "device_traces": [[]]}
    assert "memory snapshot written" in err and "pytorch.org/memory_viz" in err


def test_a_bench_report_carries_the_models_bytes_over_time_for_its_memory_plot(capsys, tmp_path):
    path = tmp_path / "r.json"
    code, _, err = run(capsys, "bench", "--device", "cpu", "--dtype", "float64", "--runs", "5", "--output", str(path))
    assert code == 0, err
    report = json.loads(path.read_text())
    points = report["model_memory"]
    # The model's curve: its bytes on the CPU before the cast and after (88 B in float64).
    assert points and points[-1]["by_device"]["cpu"]
    assert sum(points[-1]["by_device"]["cpu"].values()) == report["model"]["bytes"]
