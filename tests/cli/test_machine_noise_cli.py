"""bench prints what the machine did to a run next to its figures, and the report keeps it."""

from __future__ import annotations

import json

from inspector.cli import main
from inspector.core.measure import machine_noise
from inspector.core.measure.machine_noise import MachineNoise, described


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_bench_says_what_the_machine_did_and_the_report_keeps_it(capsys, monkeypatch, tmp_path):
    def said(self, samples):  # a run that other processes disturbed, whatever this machine did
        return described(MachineNoise(measured=True, other_cpu_share=0.03, steal_share=0.08, involuntary_switches=1,
                                      sampling_threads=2, samples=samples, cpu_ticks=400, cores=2))  # fmt: skip

    monkeypatch.setattr(machine_noise.MachineWatch, "_said", said)
    report = tmp_path / "r.json"
    code, out, err = _run(capsys, "bench", "--device", "cpu", "--runs", "20", "--output", str(report))
    assert code == 0
    line = next(x for x in err.splitlines() if x.startswith("note: cpu float32 forward: "))
    assert "3.0% of the run's CPU went to other processes" in line
    assert "the hypervisor took 8.0% of the CPU (steal)" in line
    assert "caused by the machine, not the model" in line or line.endswith("p95 not reliable")
    machine = json.loads(report.read_text())["latency"][0]["machine"]
    assert machine["other_cpu_share"] == 0.03 and machine["steal_share"] == 0.08 and machine["disturbed"] is True
