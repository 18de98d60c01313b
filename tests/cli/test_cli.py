"""The headless CLI, driven as a user would: arguments in, text/JSON and exit code out."""

import json

import pytest

from inspector.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.cpu_only
def test_version_names_app_python_torch_and_qt(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("torch-device-inspector ")
    assert lines[1].startswith("Python ")
    assert lines[2].startswith("torch ") and "CPU-only build" in lines[2]
    assert lines[3].startswith("Qt ")


@pytest.mark.cpu_only
def test_devices_table_lists_cpu_and_says_why_no_gpu(capsys):
    code, out, _ = run(capsys, "devices")
    assert code == 0
    header, rule, first = out.splitlines()[:3]
    assert header.split()[:2] == ["ID", "NAME"]
    assert first.startswith("cpu ")
    assert "note: no accelerator is listed: this PyTorch build has no CUDA support" in out


def test_devices_json_has_contract_keys(capsys):
    code, out, _ = run(capsys, "devices", "--json")
    assert code == 0
    data = json.loads(out)
    cpu = data["devices"][0]
    assert {"id", "type", "name", "total_bytes", "free_bytes"} <= set(cpu)
    assert cpu["id"] == "cpu" and cpu["total_bytes"] > cpu["free_bytes"] > 0


def test_inspect_example_prints_four_parameters_on_cpu(capsys):
    code, out, _ = run(capsys, "inspect")
    assert code == 0
    assert "Model: example (Net) — 4 tensors, 11 elements, 44 B" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("fc")]
    assert [(r[0], r[2], r[4]) for r in rows] == [
        ("fc1.weight", "2x3", "cpu"),
        ("fc1.bias", "2", "cpu"),
        ("fc2.weight", "1x2", "cpu"),
        ("fc2.bias", "1", "cpu"),
    ]
    assert "By device: cpu 44 B" in out


def test_inspect_json_contract(capsys):
    code, out, _ = run(capsys, "inspect", "example", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["totals"]["count"] == 4 and data["totals"]["bytes"] == 44
    assert data["tensors"][0] == {
        "name": "fc1.weight", "kind": "parameter", "module": "fc1", "shape": [2, 3],
        "dtype": "float32", "device": "cpu", "bytes": 24, "elements": 6,
        "requires_grad": True, "shares_with": None, "storage": "dense", "dense_bytes": 24,
        "storage_id": 0, "counted_bytes": 24, "is_view": False,
    }
    assert data["warnings"] == [] and "move" not in data


def test_inspect_with_dtype_cast_moves_and_reports(capsys):
    code, out, _ = run(capsys, "inspect", "--dtype", "float64", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["move"]["ok"] is True
    assert "float64" in data["move"]["call"]
    assert {t["dtype"] for t in data["tensors"]} == {"float64"}
    assert data["totals"]["bytes"] == 88


@pytest.mark.cpu_only
def test_cuda_method_on_cpu_machine_fails_clearly_and_model_is_restored(capsys):
    code, out, err = run(capsys, "inspect", "--method", "cuda")
    assert code == 1
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert "torch.cuda.is_available()" in err  # the tutorial's portable recipe
    assert "Traceback" not in err
    assert "By device: cpu 44 B" in out  # placement after the failed move: untouched


def test_a_string_that_names_no_device_is_bad_input(capsys):
    code, _, err = run(capsys, "inspect", "--to", "tpu")
    assert code == 2
    assert err == "error: 'tpu' is not a device name (try cpu, cuda, cuda:0, mps or xpu)\n"


@pytest.mark.parametrize("command", [["inspect", "--to"], ["bench", "--runs", "2", "--device"],
                                     ["fit", "example", "--optimizer", "sgd", "--no-measure", "--device"]])  # fmt: skip
@pytest.mark.parametrize(("name", "said"), [
    ("", "'' is not a device name (try cpu, cuda, cuda:0, mps or xpu)"),
    ("cpu:1", "cpu:1 is not a device: PyTorch's cpu is one device, cpu (index 0 at most)"),
    ("mps:2", "mps:2 is not a device: PyTorch's mps is one device, mps (index 0 at most)"),
])  # fmt: skip
def test_an_empty_name_or_a_second_cpu_is_refused_by_every_command(capsys, command, name, said):
    """Issue 43: ``fit --device ''`` planned for the CPU while the others refused it, and
    ``cpu:1`` was taken for the CPU without a word (PyTorch reads it so)."""
    code, out, err = run(capsys, *command, name)
    assert code == 2 and out == "" and err == f"error: {said}\n"


@pytest.mark.cpu_only
def test_an_absent_device_is_a_failed_move_in_both_commands(capsys, tmp_path):
    code, _, err = run(capsys, "inspect", "--to", "cuda")
    assert code == 1 and "no CUDA support" in err
    out_file = tmp_path / "r.json"
    code, _, err = run(capsys, "bench", "--device", "cpu", "--device", "cuda", "--runs", "3", "--output", str(out_file))
    assert code == 1 and "no CUDA support" in err.splitlines()[-1]
    report = json.loads(out_file.read_text())  # the CPU's figures are kept
    assert [m["ok"] for m in report["moves"]] == [True, False]
    assert [entry["device"] for entry in report["latency"]] == ["cpu"]


@pytest.mark.cpu_only
def test_failed_move_with_json_still_says_why_on_stderr(capsys):
    code, out, err = run(capsys, "inspect", "--method", "cuda", "--json")
    assert code == 1
    json.loads(out)  # stdout stays parseable
    assert err.startswith("error: ")


def test_missing_model_file_is_bad_input(capsys, tmp_path):
    code, _, err = run(capsys, "inspect", str(tmp_path / "nope.pt"))
    assert code == 2
    assert err.startswith("error: ") and "nope.pt" in err


class _Payload:
    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        import pathlib

        return (pathlib.Path.touch, (pathlib.Path(self.target),))


def test_malicious_checkpoint_is_refused_and_its_payload_never_runs(capsys, tmp_path):
    marker = tmp_path / "pwned"
    ckpt = tmp_path / "evil.pt"
    import torch

    torch.save({"weights": torch.zeros(2), "x": _Payload(str(marker))}, ckpt)
    assert not marker.exists()
    code, _, err = run(capsys, "inspect", str(ckpt))
    assert code == 2
    assert "--trust" in err
    assert not marker.exists()


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["inspect", "--method", "teleport"])
    assert exc.value.code == 2


@pytest.mark.parametrize("suffix", [".json", ".csv", ".md", ".html", ".zip"])
def test_bench_writes_the_report_by_suffix(capsys, tmp_path, suffix):
    out_file = tmp_path / f"report{suffix}"
    code, out, err = run(capsys, "bench", "--device", "cpu", "--runs", "5", "--output", str(out_file))
    assert code == 0, err
    assert out.splitlines()[0].split()[:3] == ["DEVICE", "DTYPE", "MODE"]
    assert out.splitlines()[2].split()[:3] == ["cpu", "float32", "forward"]
    assert out_file.stat().st_size > 0
    if suffix == ".json":
        from inspector.core.report.timing_report import load_report

        report = load_report(out_file).to_dict()
        assert len(report["latency"]) == 1 and len(report["latency"][0]["samples_ms"]) == 5
        assert report["moves"][0]["target"] == "cpu" and report["moves"][0]["ok"] is True
        assert "cpu" in report["memory"] and report["memory"]["cpu"]
    if suffix == ".zip":  # every section its own table
        import zipfile

        with zipfile.ZipFile(out_file) as archive:
            assert {"samples.csv", "latency.csv", "moves.csv", "memory.csv"} <= set(archive.namelist())
            import csv
            import io

            rows = list(csv.DictReader(io.StringIO(archive.read("samples.csv").decode())))
            # The 5 timed samples, and the warm-up: 3 calls asked for, more where they were not yet steady.
            assert sum(r["phase"] == "timed" for r in rows) == 5
            assert sum(r["phase"] == "warmup" for r in rows) >= 3


def test_bench_wrong_input_shape_names_the_shape(capsys):
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--input-shape", "8,5")
    assert code == 2
    assert "8, 5" in err or "8x5" in err or "(8, 5)" in err


def test_bench_train_step_json(capsys):
    code, out, _ = run(capsys, "bench", "--device", "cpu", "--runs", "3", "--mode", "train-step", "--json")
    assert code == 0
    report = json.loads(out[out.index("{"):])
    assert report["latency"][0]["mode"] == "train-step"


def test_bench_rejects_unknown_report_suffix_before_working(capsys, tmp_path):
    code, _, err = run(capsys, "bench", "--output", str(tmp_path / "r.xlsx"))
    assert code == 2
    assert ".json" in err and ".html" in err


@pytest.mark.cuda
def test_first_move_to_a_gpu_says_its_time_includes_the_cuda_context():
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "inspect", "--to", "cuda:0", "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    move = json.loads(proc.stdout)["move"]
    assert move["ok"] and "first use of cuda:0" in move["note"]


def test_tiny_moves_do_not_claim_zero_bandwidth(capsys):
    code, out, _ = run(capsys, "inspect", "--dtype", "float64")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("moved: model.to(torch.float64): 44 B in ")
    assert "0.00 GB/s" not in first


def test_bench_defaults_to_the_devices_the_method_can_reach(capsys, monkeypatch):
    from tests.fake_cuda import fake_cuda

    fake_cuda(monkeypatch, count=8)
    code, out, err = run(capsys, "bench", "--method", "cpu", "--runs", "2")
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["cpu"]


def test_bench_stops_asking_a_device_that_cannot_be_read(capsys, tmp_path, monkeypatch):
    """A device whose memory cannot be read must not leak a thread traceback or kill the run."""
    from inspector.core.measure import memory_log

    real = memory_log.memory_reading

    def flaky(device):
        if device == "cpu":
            raise RuntimeError("driver went away")
        return real(device)

    monkeypatch.setattr(memory_log, "memory_reading", flaky)
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--output", str(tmp_path / "r.json"))
    assert code == 0, err
    assert "Traceback" not in err
    assert json.loads((tmp_path / "r.json").read_text())["memory"] == {}


def test_a_device_failing_to_measure_keeps_the_others_results(capsys, tmp_path, monkeypatch):
    from inspector.cli import bench
    from inspector.core.measure import timing
    from inspector.core.errors import InspectorError

    # Two targets on this one-device machine: the CPU twice, the second running out of memory.
    monkeypatch.setattr(bench, "_bench_targets", lambda args: ["cpu", "cpu"])
    real, calls = timing.measure_latency, []

    def measure(loaded, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise InspectorError("out of memory while timing", kind="oom")
        return real(loaded, **kwargs)

    monkeypatch.setattr(timing, "measure_latency", measure)
    out_file = tmp_path / "r.json"
    code, _, err = run(capsys, "bench", "--runs", "2", "--output", str(out_file))
    assert code == 1
    assert err.splitlines()[-1] == "error: cpu: out of memory while timing"
    report = json.loads(out_file.read_text())
    assert len(report["latency"]) == 1 and len(report["moves"]) == 2


def test_bench_refuses_an_unwritable_report_folder_before_measuring(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out, err = run(capsys, "bench", "--runs", "2", "--output", str(blocker / "r.json"))
    assert code == 2
    assert "file is not a folder" in err and out == ""


def test_pinned_needs_a_host_to_gpu_move(capsys):
    code, _, err = run(capsys, "inspect", "--pinned")
    assert code == 2 and "--pinned needs" in err


def test_an_empty_model_says_it_has_no_tensors(capsys):
    code, out, _ = run(capsys, "inspect", "torch.nn:Identity")
    assert code == 0
    assert "By device: (no tensors)" in out


@pytest.mark.cuda
def test_bench_pinned_puts_pageable_and_pinned_moves_in_one_report(capsys, tmp_path):
    out_file = tmp_path / "r.json"
    code, _, err = run(capsys, "bench", "--device", "cuda:0", "--pinned", "--runs", "3", "--output", str(out_file))
    assert code == 0, err
    moves = json.loads(out_file.read_text())["moves"]
    assert [(m["target"], m["pinned"]) for m in moves] == [("cuda:0", False), ("cpu", False), ("cuda:0", True)]


# ---------------------------------------------------------------- fit

FIT_KEYS = {
    "parameters_bytes", "gradients_bytes", "optimizer_state_bytes", "activations_bytes",
    "estimated_peak_bytes", "measured_peak_bytes", "free_bytes", "fits",
    "device", "dtype", "optimizer", "mode",
}


def test_fit_json_has_the_contract_keys_and_exact_adam_state(capsys):
    code, out, _ = run(capsys, "fit", "example", "--device", "cpu", "--dtype", "bfloat16", "--optimizer", "adam", "--json")
    assert code == 0
    data = json.loads(out)
    assert FIT_KEYS <= set(data)
    assert (data["device"], data["dtype"], data["optimizer"], data["mode"]) == ("cpu", "bfloat16", "adam", "train-step")
    # 11 bfloat16 parameters in 4 tensors: grads alike; Adam: two moments + a float32 step each
    assert data["parameters_bytes"] == 22 and data["gradients_bytes"] == 22
    assert data["optimizer_state_bytes"] == 2 * 22 + 4 * 4
    # The CPU's proof is the process's peak RSS: a step of a few bytes may touch no new page.
    assert data["fits"] is True and data["measured_peak_bytes"] >= 0 and data["ratio"] >= 0
    assert data["measured_reason"].startswith("process peak RSS over one real step")
    assert data["measured_gap"] is None  # under a MiB apart: nothing to explain


def test_fit_text_names_the_verdict_and_the_measured_peak(capsys):
    code, out, _ = run(capsys, "fit", "--optimizer", "sgd", "--mode", "forward", "--no-measure")
    assert code == 0
    assert out.startswith("Will it fit? example (Net) on cpu, float32, optimizer sgd, forward, input 64x3")
    assert "  fits             yes (margin " in out
    assert "not measured (the proof was not asked for)" in out


def test_fit_needs_an_optimizer_and_rejects_a_bad_input_shape(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["fit", "example"])
    assert exc.value.code == 2
    capsys.readouterr()
    code, _, err = run(capsys, "fit", "--optimizer", "sgd", "--input-shape", "3,x")
    assert code == 2 and err.startswith("error: '3,x' is not an input shape")


def test_bench_per_module_puts_modules_in_the_report_and_says_its_overhead(capsys, tmp_path):
    out_file = tmp_path / "r.json"
    code, out, err = run(capsys, "bench", "--device", "cpu", "--runs", "3", "--per-module", "--output", str(out_file))
    assert code == 0
    assert "Top modules on cpu" in out and "fc1" in out
    assert "per-module on cpu: forward" in err and "without" in err and "the hooks' overhead" in err
    report = json.loads(out_file.read_text())
    assert [m["name"] for m in report["modules"]] == ["", "fc1", "fc2"]
    assert report["modules"][1]["output_shapes"] == [[64, 2]] and report["modules"][1]["flops"] == 2 * 64 * 3 * 2
    overhead = report["attribution"][0]
    assert overhead["overhead_ratio"] == overhead["forward_with_hooks_ms"] / overhead["forward_without_hooks_ms"]


def test_bench_without_per_module_has_no_modules_key(capsys):
    code, out, _ = run(capsys, "bench", "--device", "cpu", "--runs", "2", "--json")
    assert code == 0
    assert "modules" not in json.loads(out) and "attribution" not in json.loads(out)


def test_a_torchrun_rank_leaves_without_the_interpreters_teardown(monkeypatch):
    """Tearing down torch.distributed's threads at exit sometimes aborted a rank (SIGABRT)
    after its work was sent, and torchrun failed the job; a rank exits at once instead,
    its output flushed. Any other command exits the usual way."""
    import os

    from inspector import cli
    from inspector.cli import exits

    left: list[int] = []

    class Left(Exception):
        pass

    def leave(status: int) -> None:
        left.append(status)
        raise Left

    monkeypatch.setattr(os, "_exit", leave)
    monkeypatch.setattr(cli, "main", lambda: 0)
    monkeypatch.setattr(exits, "_LEAVE_AT_ONCE", False)
    with pytest.raises(SystemExit) as ended:
        cli.entry()
    assert ended.value.code == 0 and left == []

    def rank() -> int:
        exits._LEAVE_AT_ONCE = True  # as cmd_bench does under torchrun
        return 3

    monkeypatch.setattr(cli, "main", rank)
    with pytest.raises(Left):
        cli.entry()
    assert left == [3]


def test_bench_under_torchrun_asks_to_leave_at_once(monkeypatch):
    from inspector.cli import bench, exits

    monkeypatch.setattr(exits, "_LEAVE_AT_ONCE", False)
    monkeypatch.setattr(bench, "_bench_ranks", lambda args, env, shape, output: 0)
    for name, value in (("RANK", "1"), ("LOCAL_RANK", "1"), ("WORLD_SIZE", "2")):
        monkeypatch.setenv(name, value)
    assert main(["bench", "example", "--runs", "3"]) == 0
    assert exits._LEAVE_AT_ONCE


def test_top_level_help_lists_every_command(capsys):
    # "95 % confidence" in a sub-command's help once crashed argparse's % formatting here.
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    for command in ("devices", "inspect", "bench", "fit", "compare", "agent"):
        assert command in out
    assert "latency ratios with 95 %" in out
