"""``bench --per-module`` says next to its "Top modules" table when the per-module figures
are rough, and why, in the report too; a model whose figures hold gets no such words.

The models run on a fake clock (tests/module_clock.py), so the figures are known exactly."""

from __future__ import annotations

import json

import pytest

from inspector.cli import main
from inspector.core.measure import attribution
from tests.module_clock import CLOCK, factory_source


@pytest.fixture
def fake_clock(monkeypatch):
    monkeypatch.setattr(attribution, "_clock", CLOCK)
    monkeypatch.setattr(CLOCK, "hook_read_ns", 0)  # each factory sets its own; put back after


def _bench(capsys, tmp_path, source: str, *more: str):
    factory = tmp_path / "pair.py"
    factory.write_text(source)
    report = tmp_path / "r.json"
    code = main(["bench", f"{factory}:make", "--device", "cpu", "--runs", "3", "--per-module", "--output", str(report), *more])
    out, err = capsys.readouterr()
    return code, out, err, report


def test_module_times_that_exceed_the_forward_are_flagged_above_the_table(capsys, tmp_path, fake_clock):
    # Leaves of 3 µs that wait 1 ms whenever the hooks are on; 20 µs a hook pair.
    code, out, err, report = _bench(capsys, tmp_path, factory_source(3_000, hooked_ns=1_000_000, hook_read_ns=10_000))
    assert code == 0, err
    block = out[out.index("Top modules on cpu"):]
    lines = block.splitlines()
    assert lines[1].startswith("  caution, per-module figures not reliable: the hooks add ")
    assert lines[2].startswith("  caution, per-module figures not reliable: the modules' self times add up to ")
    assert "the forward measured without hooks" in lines[2] and lines[3].startswith("MODULE")
    assert "is taken out of the modules' times" in err  # the per-module line on stderr says what was done
    (entry,) = json.loads(report.read_text())["attribution"]
    assert entry["sum_ratio"] > 1.1 and [w[:30] for w in entry["warnings"]] == [
        "the hooks add 686.7 µs per mod", "the modules' self times add up",
    ]


def test_module_times_that_hold_get_no_flag(capsys, tmp_path, fake_clock):
    # Leaves of 2 ms, a hook pair of 2 µs (a model of a few ms): 1.002× with hooks, the sum 1.0×.
    code, out, err, report = _bench(capsys, tmp_path, factory_source(2_000_000, hook_read_ns=1_000))
    assert code == 0, err
    assert "Top modules on cpu" in out and "caution" not in out and "not reliable" not in out
    (entry,) = json.loads(report.read_text())["attribution"]
    assert entry["warnings"] == [] and entry["sum_ratio"] == pytest.approx(1.0)


def test_the_markdown_report_says_it_above_the_modules(capsys, tmp_path, fake_clock):
    code, _, err, _ = _bench(capsys, tmp_path, factory_source(1_000, hook_read_ns=2_000), "--output", str(tmp_path / "r.md"))
    assert code == 0, err
    md = (tmp_path / "r.md").read_text()
    assert "> ⚠ per-module figures not reliable: cpu: the hooks add 4.0 µs per module call, more than the modules' own time" in md
