"""A report is one type: loading gives a ``TimingReport``, its readers take it, its file is
written back byte for byte, and a latency entry's statistics are its samples' (issue 37, item 2)."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from inspector.core.files.models import example_model
from inspector.core.measure.timing import measure_latency
from inspector.core.report.compare import compare_reports
from inspector.core.measure.measurement import LatencyResult
from inspector.core.report.schema import TimingReport, latency_entry
from inspector.core.report.timing_report import json_ready
from inspector.core.report.timing_report import load_report, render_json, save_report
from tests.core.report.generated import real_report, scaled, with_latency
from tests.report_edge import typed


@pytest.fixture(scope="module")
def report() -> dict:
    return real_report(runs=8)


def test_a_loaded_report_is_typed_and_saved_again_byte_for_byte(tmp_path, report):
    later = json.loads(json.dumps(report))
    later["modules"] = [{"name": "fc1", "deeply": {"nested": [[[1]]]}}]  # a section nobody types
    first = save_report(typed(later), tmp_path / "first.json")

    loaded = load_report(first)

    assert isinstance(loaded, TimingReport)
    assert loaded.model.class_name == "Net"
    assert loaded.latency[0].device == "cpu" and len(loaded.latency[0].samples_ms) == 8
    again = save_report(loaded, tmp_path / "again.json")
    assert again.read_bytes() == first.read_bytes()
    assert render_json(loaded) == render_json(typed(loaded.to_dict())) == first.read_text()


def test_a_report_built_now_holds_the_measurements_themselves_not_a_reading_of_their_dicts(monkeypatch):
    """Issue 44: typed -> dict -> typed no more for the measurements; what the file holds of
    each reads back equal to it (one type from sampling to file)."""
    from inspector.core.report import latency_reader
    from inspector.core.report.timing_report import build_timing_report

    loaded = example_model()
    result = measure_latency(loaded, runs=7, warmup=1)
    reads = []
    monkeypatch.setattr(latency_reader, "latency_entry", lambda data, at=None: reads.append(data))

    built = build_timing_report(loaded, latency=[result])

    assert built.latency[0] is result and reads == []
    monkeypatch.undo()
    assert TimingReport.lenient(built.to_dict()).latency == (result,)
    assert TimingReport.from_dict(json.loads(render_json(built))).latency == (result,)


def test_a_report_is_a_plain_typed_value_not_a_mapping_of_its_file(tmp_path, report):
    """Issue 44: a report is read once, at the edge; past it, the writer, the views and the
    comparison take the type, and its untyped sections come through ``section``."""
    loaded = load_report(save_report(typed(report), tmp_path / "r.json"))

    assert not isinstance(loaded, Mapping)
    with pytest.raises(TypeError):
        loaded["latency"]  # noqa: B018 -- the file's keys are not the report's attributes
    assert loaded.section("modules") == [] and loaded.section("latency") == report["latency"]
    with pytest.raises(AttributeError):
        render_json(report)  # a script's dict is read first (``TimingReport.lenient``)
    alone = compare_reports(loaded)
    assert compare_reports(loaded, typed({})).to_dict() == {**alone.to_dict(), "label_b": "B"}


def test_an_entrys_statistics_are_its_samples_and_agree_with_what_the_file_states(tmp_path, report):
    slower = with_latency(report, [scaled(report["latency"][0], 3.0)])
    stated = slower["latency"][0]

    entry = load_report(save_report(typed(slower), tmp_path / "r.json")).latency[0]

    for key in ("median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms", "iqr_ms"):
        assert getattr(entry, key) == pytest.approx(stated[key], rel=1e-9), key
    assert entry.median_ci_ms == pytest.approx(tuple(stated["median_ci_ms"]))
    # The file's figure is what its samples give, never a field of its own.
    assert "median_ms" not in {f for f in LatencyResult.__dataclass_fields__}
    assert type(entry) is LatencyResult  # the type measure_latency makes (issue 44)


def test_a_measurement_and_its_report_entry_are_one_type_and_its_file_entry_reads_back_as_it_was():
    loaded = example_model()
    result = measure_latency(loaded, runs=12, warmup=1)
    written = json.loads(json.dumps(json_ready(result.to_dict())))

    entry = latency_entry(written, "latency[0]")

    # One type from sampling to file (issue 44): the file's entry, read back, is the measurement
    # itself, every field (the timeline of its calls is the process's, never written).
    assert type(entry) is type(result) is LatencyResult
    assert entry == result and latency_entry(written) == result
    assert entry.timeline is None and result.timeline is not None
    assert entry.key == (result.device, result.dtype, result.mode, result.input_shape)
    assert entry.samples_ms == result.samples_ms
    assert (entry.median_ms, entry.p95_ms, entry.iqr_ms, entry.median_ci_ms) == (
        result.median_ms, result.p95_ms, result.iqr_ms, result.median_ci_ms)  # fmt: skip


@pytest.mark.parametrize(
    "junk",
    [None, [], "report", {"latency": "x"}, {"latency": [{"samples_ms": ["a", -1, 2.0], "input_shape": "3"}]},
     {"moves": [{"ok": "yes", "seconds": -4, "source": 7}], "environment": {"devices": {"devices": 3}}},
     {"memory": {"cpu": [None, {"t": "now"}]}, "ranks": [{"latency": [None]}]}],
)
def test_a_report_nobody_checked_is_read_with_defaults_never_raising(junk):
    read = TimingReport.lenient(junk)

    assert isinstance(read, TimingReport)
    for entry in read.latency:
        assert all(isinstance(v, float) and v >= 0 for v in entry.samples_ms)
    for move in read.moves:
        assert move.ok is False and move.seconds is None
    compare_reports(read, typed(junk) if isinstance(junk, dict) else None)  # the comparison reads it too


def test_comparing_loaded_reports_reads_the_same_rows_as_comparing_their_dicts(tmp_path, report):
    slower = with_latency(report, [scaled(report["latency"][0], 2.0)])
    path_a, path_b = save_report(typed(report), tmp_path / "a.json"), save_report(typed(slower), tmp_path / "b.json")

    as_type = compare_reports(load_report(path_a), load_report(path_b), run_noise=None)
    plain = compare_reports(typed(json.loads(path_a.read_text())), typed(json.loads(path_b.read_text())))

    assert as_type.to_dict() == plain.to_dict()
    assert as_type.latency[0].ratio == pytest.approx(2.0, rel=0.05)


def test_the_views_show_an_old_reports_figures_from_its_samples(tmp_path, report):
    """A schema 1 entry states only its median; the Markdown table shows every figure of its
    samples, and the noise note its samples give."""
    old = json.loads(json.dumps(report))
    old["schema_version"] = 1
    samples = [1.0] * 18 + [40.0, 50.0]  # a noisy run: p95 far above the median
    old["latency"] = [{"device": "cpu", "dtype": "float32", "input_shape": [64, 3], "samples_ms": samples,
                       "median_ms": 1.0}]  # fmt: skip
    old["moves"] = [{"call": "model.to('cuda')", "source": "cpu", "target": "cuda:0", "ok": False,
                     "error": {"kind": "cancelled", "message": ""}}]  # fmt: skip

    loaded = load_report(save_report(typed(old), tmp_path / "old.json"))
    markdown = save_report(loaded, tmp_path / "old.md").read_text(encoding="utf-8")

    (row,) = [line for line in markdown.splitlines() if line.startswith("| cpu | float32")]
    assert loaded.latency[0].p95_ms == pytest.approx(40.5)
    assert "40.5" in row  # p95, from the samples: the file never said it
    assert "cpu float32 forward: noisy" in markdown
    assert "cancelled: cancelled" in markdown  # a move's error kind, when it has no message


def test_a_sessions_report_is_the_type_a_loaded_report_is_and_saves_to_the_same_file(tmp_path):
    from inspector.core.session import BenchmarkRequest, LoadRequest, Session

    session = Session()
    session.load(LoadRequest("example"))
    session.measure(BenchmarkRequest(runs=10))

    built = session.report(with_memory=False)

    assert isinstance(built, TimingReport)
    assert built.latency[0].count == 10 and built.latency[0].median_ms is not None
    path = save_report(built, tmp_path / "session.json")
    loaded = load_report(path)
    assert loaded.latency[0].samples_ms == built.latency[0].samples_ms
    assert loaded.latency[0].median_ms == built.latency[0].median_ms
    assert render_json(loaded) == path.read_text()


def _built_with_every_section() -> TimingReport:
    """A report as the CLI builds it (``build_timing_report``), with a failed move whose message is
    a core text, text no ASCII spells, and the per-module sections nobody types yet."""
    from inspector.core.devices.discovery import memory_reading
    from inspector.core.messages import Text
    from inspector.core.report.timing_report import build_timing_report

    loaded = example_model()
    failed = {"call": "model.to('cuda:7')", "method": "to", "source": "cpu", "target": "cuda:7", "seconds": 0.001,
              "bytes": 44, "gbps": None, "ok": False, "error": Text("remote.no_answer", op="'move'", seconds=3)}  # fmt: skip
    built = build_timing_report(loaded, moves=[failed], latency=[measure_latency(loaded, runs=6, warmup=2)],
                                memory={"cpu": [memory_reading("cpu") for _ in range(2)]})  # fmt: skip
    data = built.to_dict()
    data["model"]["notes"] = ["模型：示例 (Net)"]
    data["modules"] = [{"name": "fc1", "type": "Linear", "device": "cpu", "self_ms": 0.02, "output_shapes": [[64, 2]]}]
    data["attribution"] = [{"device": "cpu", "forward_with_hooks_ms": 0.1, "forward_without_hooks_ms": 0.05,
                            "warnings": ["the hooks add 50 % to the forward"]}]  # fmt: skip
    return TimingReport.lenient(data)


@pytest.mark.parametrize("suffix", [".json", ".csv", ".md", ".html", ".zip"])
def test_a_built_report_is_written_as_its_dict_is_in_every_format(tmp_path, suffix):
    """The CLI hands ``save_report`` the ``TimingReport`` it built; the window hands it the dict
    (``to_dict()``): the same report gives the same bytes either way, in every format."""
    built = _built_with_every_section()
    assert isinstance(built, TimingReport) and built.latency[0].count == 6

    as_type = save_report(built, tmp_path / f"typed{suffix}", language="zh_CN").read_bytes()
    plain = save_report(typed(built.to_dict()), tmp_path / f"plain{suffix}", language="zh_CN").read_bytes()

    assert as_type == plain
    if suffix in (".md", ".html"):  # the untyped sections are read from the file's dict, through the type too
        text = as_type.decode("utf-8")
        assert "fc1" in text and "the hooks add 50 % to the forward" in text


def test_a_built_report_saved_and_loaded_is_the_same_report_and_the_same_file(tmp_path):
    built = _built_with_every_section()

    path = save_report(built, tmp_path / "r.json")
    loaded = load_report(path)

    assert path.read_text(encoding="utf-8") == render_json(built) == render_json(typed(built.to_dict()))
    assert loaded.to_dict() == json.loads(render_json(built))  # the sections nobody types kept as they were
    assert loaded.moves[0].error == str(built.moves[0].error) and "'move' within 3 s" in loaded.moves[0].error
    assert loaded.latency[0].samples_ms == built.latency[0].samples_ms
    assert loaded.latency[0].median_ms == built.latency[0].median_ms
    assert render_json(loaded) == path.read_text(encoding="utf-8")  # and written again byte for byte
