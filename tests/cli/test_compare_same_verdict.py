"""The same two files get the same verdict whatever this machine ran before (issue 46 item 1).

``compare`` of one run per side used to borrow the run-to-run noise that earlier ``bench --repeat``
calls had recorded here: the same pair read "B 1.30× slower" after quiet runs (a ±6 % floor),
"within run-to-run noise (±47 %)" with no record and (±428 %) after noisy ones. Now a verdict
depends only on the files and the stated constant (``run_noise.DEFAULT_SIGMA``), and when the files
cannot support a claim the note names the commands that can. Fixed samples; no clock is read."""

from __future__ import annotations

import json

import numpy as np
import pytest

from inspector.cli import main
from inspector.core.files.models import example_model
from inspector.core.measure import run_noise
from inspector.core.report.run_verdicts import Run, run_verdicts
from inspector.core.report.timing_report import build_report, save_report
from tests.cli.test_compare_cli import _entry
from tests.report_edge import typed

#: The records a machine may hold: none, quiet runs (σ 0.02, as the issue's) and noisy ones (σ 0.54).
RECORDS = {"empty": None, "quiet": 0.02, "noisy": 0.54}


def _samples(median: float, seed: int, n: int = 300) -> list[float]:
    """A quiet run: ``n`` calls tight around ``median``."""
    return (median * np.random.default_rng(seed).lognormal(0.0, 0.01, n)).tolist()


def _seed_record(path, sigma: float | None) -> None:
    if sigma is None:
        path.unlink(missing_ok=True)
        return
    records = [{"sd": sigma, "df": 19, "when": "2026-12-01T00:00:00+00:00", "what": "test"}]
    path.write_text(json.dumps({"version": 1, "machines": {run_noise.machine_key(): {"records": records}}}))


@pytest.fixture(scope="module")
def base():
    return build_report(example_model())


def _save(base, tmp_path, name: str, samples: list[float]) -> str:
    report = json.loads(json.dumps(base))
    report["latency"] = [_entry(samples)]
    return str(save_report(typed(report), tmp_path / name))


def _verdicts(capsys, monkeypatch, tmp_path, a: str, b: str) -> dict[str, dict]:
    """compare --json of ``a`` and ``b`` under each record: its latency row."""
    path = tmp_path / "run_noise.json"
    monkeypatch.setenv(run_noise.ENV_FILE, str(path))
    rows = {}
    for name, sigma in RECORDS.items():
        _seed_record(path, sigma)
        assert main(["compare", a, b, "--json"]) == 0
        [rows[name]] = json.loads(capsys.readouterr().out)["latency"]
    return rows


@pytest.mark.parametrize("median_b, verdict", [
    (1.30, "no clear difference: within run-to-run noise (±47 %)"),  # the old quiet record claimed it
    (2.00, "B 2.00× slower"),  # the old noisy record hid it
])  # fmt: skip
def test_the_same_two_files_get_one_verdict_with_an_empty_a_quiet_and_a_noisy_record(
    capsys, monkeypatch, tmp_path, base, median_b, verdict
):
    a, b = _save(base, tmp_path, "a.json", _samples(1.0, 1)), _save(base, tmp_path, "b.json", _samples(median_b, 2))
    rows = _verdicts(capsys, monkeypatch, tmp_path, a, b)
    assert {name: row["verdict"] for name, row in rows.items()} == dict.fromkeys(RECORDS, verdict)
    assert len({(row["ratio_low"], row["ratio_high"], row["run_noise_note"]) for row in rows.values()}) == 1


def test_files_that_cannot_support_a_claim_say_so_and_name_the_commands_that_can(capsys, monkeypatch, tmp_path, base):
    a, b = _save(base, tmp_path, "a.json", _samples(1.0, 1)), _save(base, tmp_path, "b.json", _samples(1.10, 2))
    note = _verdicts(capsys, monkeypatch, tmp_path, a, b)["quiet"]["run_noise_note"]
    assert note.startswith("one run on each side: how far a rerun lands is unknown, so no difference under ±47 %")
    assert "bench A --against B" in note and "bench --repeat 5" in note
    assert "this machine" not in note.replace("whatever this machine ran before", "")


def test_the_windows_summary_verdicts_do_not_read_the_record_either(monkeypatch, tmp_path):
    path = tmp_path / "run_noise.json"
    monkeypatch.setenv(run_noise.ENV_FILE, str(path))
    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, tuple(_samples(1.0, 3)))
    slow = Run("meta · float32", "float32", "forward", (64, 3), 1.3, tuple(_samples(1.3, 4)))
    said = set()
    for sigma in RECORDS.values():
        _seed_record(path, sigma)
        said.add(str(run_verdicts([fast, slow])[1].short))
    assert said == {"no clear difference: within run-to-run noise (±47 %)"}
