"""fit --gpus N --strategy ...: a distributed plan as a user types it; bad input is one line, exit 2."""

import json

import pytest

from inspector.cli import main

MODEL = '''
import torch
from torch import nn


def make():
    return nn.Sequential(nn.Sequential(nn.Linear(64, 256), nn.Linear(256, 64)),
                         nn.Sequential(nn.Linear(64, 256), nn.Linear(256, 64))), torch.randn(4, 64)
'''


@pytest.fixture
def spec(tmp_path):
    path = tmp_path / "models.py"
    path.write_text(MODEL)
    return f"{path}:make"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("gpus", ["0", "-2", "2.5", "eight", ""])
def test_a_gpu_count_that_is_not_a_positive_whole_number_is_one_line_and_exit_2(capsys, spec, gpus):
    code, out, err = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", gpus, "--strategy", "fsdp")
    assert code == 2 and out == ""
    assert err.startswith("error: --gpus must be a positive whole number, not ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_strategy_the_model_cannot_use_is_one_line_and_exit_2(capsys, spec):
    code, out, err = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", "6", "--strategy", "fsdp-hybrid",
                         "--shard-size", "4", "--no-measure")  # fmt: skip
    assert code == 2 and out == ""
    assert err.startswith("error: fsdp-hybrid needs a shard group of 4 rank(s) to divide the 6 rank(s)")
    assert err.count("\n") == 1


def test_an_unknown_strategy_is_refused_by_the_parser(capsys, spec):
    with pytest.raises(SystemExit) as exited:
        main(["fit", spec, "--optimizer", "adamw", "--gpus", "2", "--strategy", "zero4"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith("error: argument --strategy: invalid choice") and err.count("\n") == 1


def test_more_ranks_than_this_machine_proves_are_planned_and_said_so(capsys, spec):
    code, out, _ = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", "64", "--strategy", "fsdp")
    assert code == 0
    assert out.startswith("Plan the cluster: 64 ranks, fsdp; each rank:")
    assert "planned without proof: 64 ranks are more than this machine proves" in out
    assert "  each  " in out  # the plan's row, with no measurement beside it


def test_the_plan_in_json_names_the_layout_and_one_ranks_figures(capsys, spec):
    code, out, _ = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", "2", "--strategy", "ddp", "--no-measure",
                       "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["strategy"] == "ddp" and data["gpus"] == 2
    assert data["buckets_bytes"] == data["rank_plan"]["parameters_bytes"]
    assert data["ranks"] == [] and "not asked" in data["measured_reason"]


def test_the_smallest_count_for_a_named_gpu(capsys, spec):
    code, out, _ = run(capsys, "fit", spec, "--optimizer", "adamw", "--capacity", "1MiB", "--min-gpus",
                       "--strategy", "fsdp", "--no-measure", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["min_gpus"]["gpus"] == data["gpus"] and data["rank_plan"]["fits"] is True


def test_output_keeps_the_plan_and_each_ranks_measured_peak_in_a_report_that_validates(capsys, spec, tmp_path):
    from tests.core.report.test_report_json_schema import STRICT, problems

    path = tmp_path / "plan.json"
    code, out, err = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", "2", "--strategy", "ddp",
                         "--output", str(path))  # fmt: skip
    assert code == 0 and f"report written: {path}" in err
    report = json.loads(path.read_text())
    assert problems(STRICT, report) == []
    (entry,) = report["fit"]
    plan = entry["cluster"]
    assert (plan["strategy"], plan["gpus"], [r["rank"] for r in plan["ranks"]]) == ("ddp", 2, [0, 1])
    assert all(r["measured_peak_bytes"] > 0 and r["planned_peak_bytes"] == entry["estimated_peak_bytes"] for r in plan["ranks"])
    assert plan["measured_reason"].startswith("2 CPU ranks (gloo)")


def test_output_of_a_plan_not_proven_says_why_in_every_view(capsys, spec, tmp_path):
    path = tmp_path / "plan.md"
    code, _, _ = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", "64", "--strategy", "fsdp", "--output", str(path))
    text = path.read_text()
    assert code == 0 and "each of 64 ranks (fsdp)" in text
    assert "64 ranks, fsdp: each rank's peak; measured: planned without proof: 64 ranks are more" in text


@pytest.mark.parametrize("flags, said", [
    (["--output", "plan.txt"], "error: cannot write the report to plan.txt: the file name must end in"),
    (["--output", "."], "error: cannot write the report to .: it is a folder"),
    (["--output", "plan.md", "--lang", "xx"], "error: --lang 'xx': reports are written in"),
])  # fmt: skip
def test_a_report_that_cannot_be_written_is_one_line_and_exit_2_before_any_work(capsys, spec, tmp_path, monkeypatch, flags, said):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "fit", spec, "--optimizer", "adamw", "--gpus", "2", "--strategy", "ddp", *flags)
    assert code == 2 and out == "" and err.startswith(said) and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["models.py"]  # nothing written, no rank's folder left
