"""``bench`` builds its report as a ``TimingReport`` and keeps it one until it is written (issue
37, item 2): ``save_report`` is handed the type, and the file is what a plain dict of the same
report gives, once a script's dict is read at the edge (``TimingReport.lenient``, issue 44)."""

from __future__ import annotations

import json

from inspector.cli import main
from inspector.core import report as report_face
from inspector.core.report import timing_report
from inspector.core.report.schema import TimingReport
from tests.report_edge import typed


def test_bench_hands_save_report_the_timing_report_it_built_and_a_dict_read_at_the_edge_writes_the_same_file(
    capsys, tmp_path, monkeypatch
):
    handed = []
    real_save = report_face.save_report  # (the tests' conftest wraps it to validate every report)

    def spy(report, path, **options):
        handed.append(report)
        return real_save(report, path, **options)

    monkeypatch.setattr(report_face, "save_report", spy)  # the CLI reads it through the report face
    out_file = tmp_path / "r.json"

    code = main(["bench", "--device", "cpu", "--runs", "4", "--output", str(out_file)])

    _, err = capsys.readouterr()
    assert code == 0, err
    assert "report written" in err
    [report] = handed
    assert isinstance(report, TimingReport)
    assert report.latency[0].count == 4 and report.latency[0].device == "cpu"
    written = out_file.read_text(encoding="utf-8")
    assert written == timing_report.render_json(report)
    loaded = timing_report.load_report(out_file)
    assert loaded.to_dict() == json.loads(written) and loaded.latency[0].samples_ms == report.latency[0].samples_ms

    # A plain dict (a script's) is read once at the edge, and written as the same file.
    again = real_save(typed(report.to_dict()), tmp_path / "again.json")
    assert again.read_text(encoding="utf-8") == written
    csv_typed = real_save(report, tmp_path / "typed.csv").read_bytes()
    assert real_save(typed(report.to_dict()), tmp_path / "plain.csv").read_bytes() == csv_typed


def test_bench_json_prints_the_reports_file_form(capsys):
    code = main(["bench", "--device", "cpu", "--runs", "3", "--json"])

    out, err = capsys.readouterr()
    assert code == 0, err
    printed = json.loads(out)
    assert printed["schema_version"] == timing_report.SCHEMA_VERSION
    assert len(printed["latency"][0]["samples_ms"]) == 3
    # What --json prints is the report the file would hold, read back as the same type.
    assert TimingReport.from_dict(printed).latency[0].samples_ms == tuple(printed["latency"][0]["samples_ms"])


def test_bench_builds_its_report_through_the_sessions_report_as_the_window_does(capsys, monkeypatch):
    """Issue 44 §6: one path to a report. ``bench`` asks its ``Session`` for it (the window's
    worker does the same), handing in only what the session did not measure itself."""
    from inspector.core.session import Session

    built = []
    real_report = Session.report

    def spy(self, **options):
        built.append((self, options))
        return real_report(self, **options)

    monkeypatch.setattr(Session, "report", spy)
    code = main(["bench", "--device", "cpu", "--runs", "3", "--json"])

    out, err = capsys.readouterr()
    assert code == 0, err
    [(session, options)] = built
    assert json.loads(out)["latency"][0]["samples_ms"] == list(session.latencies[0].samples_ms)
    assert [r.samples_ms for r in options["latency"]] == [r.samples_ms for r in session.latencies]
