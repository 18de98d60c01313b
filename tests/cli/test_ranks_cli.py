"""Two torchrun ranks on the CPU with gloo: one report with both ranks; a failed rank is said."""

import json
import os
from pathlib import Path

from inspector.core.report.timing_report import load_report
from tests.warm_python import run_python

REPO = Path(__file__).resolve().parents[2]


def _torchrun(tmp_path, *argv, timeout=120):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")}
    env["OMP_NUM_THREADS"] = "1"
    # A rank that dies of a signal (a SIGABRT was seen once under load) prints every thread's
    # Python stack to its stderr, which the failing assertion shows.
    env["PYTHONFAULTHANDLER"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), str(tmp_path), env.get("PYTHONPATH", "")) if p)
    # The launcher forks from a warm interpreter (its own import torch is seconds); the two
    # ranks it starts are fresh processes, as under a user's torchrun.
    cmd = ["-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2", "-m", "inspector", "bench", *argv]
    return run_python(cmd, cwd=tmp_path, env=env, timeout=timeout)


def test_two_ranks_write_one_report_with_both_and_one_trace(tmp_path):
    proc = _torchrun(tmp_path, "--runs", "5", "--output", "report.json", "--trace", "trace.json")
    # All of stderr: a rank's own message comes before torchrun's long summary of the failure.
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["report.json", "trace.json"]
    report = load_report(tmp_path / "report.json").to_dict()  # the window opens it the same way
    ranks = report["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1]
    assert all(r["world_size"] == 2 and r["ok"] and r["device"] == "cpu" and r["host"] for r in ranks)
    assert [r["local_rank"] for r in ranks] == [0, 1]
    assert all(len(r["latency"][0]["samples_ms"]) == 5 and r["moves"] for r in ranks)
    trace = json.loads((tmp_path / "trace.json").read_text())
    samples = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["name"].startswith("sample ")]
    assert sorted({e["pid"] for e in samples}) == [0, 1]
    assert len(samples) == 10
    # the report table comes once, from rank 0
    assert proc.stdout.count("RANK") == 1


def test_a_failing_rank_is_recorded_and_the_run_exits_1(tmp_path):
    (tmp_path / "flaky.py").write_text(
        "import os\nimport torch\n"
        "def make():\n"
        "    if os.environ['RANK'] == '1':\n"
        "        raise RuntimeError('rank one cannot build this model')\n"
        "    return torch.nn.Linear(4, 2), torch.randn(3, 4)\n"
    )
    proc = _torchrun(tmp_path, "flaky.py:make", "--runs", "3", "--output", "report.json")
    assert proc.returncode == 1
    report = json.loads((tmp_path / "report.json").read_text())
    by_rank = {r["rank"]: r for r in report["ranks"]}
    assert by_rank[0]["ok"] and not by_rank[1]["ok"]
    assert "rank one cannot build this model" in by_rank[1]["error"]
    assert "1 of 2 ranks failed (rank 1" in proc.stderr
