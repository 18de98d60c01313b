from __future__ import annotations

import base64
import csv
import datetime as dt
import html
import io
import json
import os
import re
import stat
import zipfile
from html.parser import HTMLParser

import pytest
import torch

from inspector.core import atomic_write
from inspector.core.report import html_view, markdown_view
from inspector.core.devices.discovery import memory_reading
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.models import example_model
from inspector.core.report.csv_view import render_csv, render_csv_zip
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import (
    SCHEMA_VERSION,
    SUPPORTED_SUFFIXES,
    build_report,
    load_report,
    save_report,
)
from inspector.core.measure.timing import measure_latency
from tests.faults import fill_disk_half_way_through_report_writes
from tests.report_edge import typed

MOVE = {
    "call": "model.to('cpu', torch.float64)", "method": "to", "source": "cpu", "target": "cpu",
    "seconds": 0.0012, "bytes": 44, "gbps": 0.04, "ok": True, "error": None,
}


class _MoveLike:
    """Stands for inspector.core.moves.transaction.MoveResult: anything with to_dict() will do."""

    def to_dict(self) -> dict:
        return {**MOVE, "ok": False, "error": "CUDA out of memory", "call": "model.cuda()"}


@pytest.fixture(scope="module")
def latency():
    return measure_latency(example_model(), runs=6, warmup=2)


@pytest.fixture
def report(latency):
    readings = [memory_reading("cpu") for _ in range(3)]
    return build_report(example_model(), moves=[MOVE, _MoveLike()], latency=[latency], memory={"cpu": readings})


def test_report_has_the_design_sections_and_is_plain_json(report):
    assert report["schema_version"] == SCHEMA_VERSION == 2
    created = dt.datetime.fromisoformat(report["created"])
    assert created.utcoffset() == dt.timedelta(0)
    env = report["environment"]
    assert env["python"] and env["torch"] == torch.__version__ and env["os"] and "devices" in env
    model = report["model"]
    assert (model["spec"], model["class"], model["parameters"], model["bytes"]) == ("example", "Net", 11, 44)
    assert model["by_device"] == {"cpu": 44}
    assert [m["ok"] for m in report["moves"]] == [True, False]
    assert report["latency"][0]["samples_ms"] and report["latency"][0]["input_shape"] == [64, 3]
    assert json.loads(json.dumps(report, allow_nan=False)) == report


def test_memory_readings_become_seconds_since_the_first_one(report):
    points = report["memory"]["cpu"]
    assert points[0]["t"] == 0.0 and all(b["t"] >= a["t"] for a, b in zip(points, points[1:]))
    assert set(points[0]) == {"t", "allocated", "reserved", "process_rss", "used", "total", "other_processes"}
    assert points[0]["total"] > 0
    # The CPU's figure is the process's RSS, named as such: never "allocated".
    assert points[0]["process_rss"] > 0 and points[0]["allocated"] is None


def test_json_round_trip(tmp_path, report):
    path = save_report(typed(report), tmp_path / "r.json")
    assert load_report(path).to_dict() == report


def test_nan_is_written_as_null_so_other_tools_can_read_the_file(tmp_path):
    report = build_report(example_model(), moves=[{**MOVE, "gbps": float("nan")}])
    path = save_report(typed(report), tmp_path / "r.json")

    def reject(constant):
        raise ValueError(constant)

    assert json.loads(path.read_text(), parse_constant=reject)["moves"][0]["gbps"] is None


@pytest.mark.parametrize(
    "content, match",
    [
        ("not json at all", "not JSON"),
        ("[1, 2]", "no schema_version"),
        ('{"hello": 1}', "no schema_version"),
        ('{"schema_version": 99, "created": ""}', "newer"),
        ('{"schema_version": 1, "created": "x"}', "lacks environment"),
        ('{"schema_version": "1"}', "schema_version"),
    ],
)
def test_load_report_refuses_what_is_not_a_report_it_can_read(tmp_path, content, match):
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(InputError, match=match):
        load_report(path)


def test_load_report_of_a_missing_file_or_a_csv_is_a_clear_input_error(tmp_path, report):
    with pytest.raises(InputError, match="does not exist"):
        load_report(tmp_path / "nope.json")
    csv_path = save_report(typed(report), tmp_path / "r.csv")
    with pytest.raises(InputError, match=r"only \.json reports"):
        load_report(csv_path)


def test_unknown_suffix_lists_the_supported_ones_and_writes_nothing(tmp_path, report):
    with pytest.raises(InputError) as info:
        save_report(typed(report), tmp_path / "r.xlsx")
    assert all(s in info.value.message for s in SUPPORTED_SUFFIXES)
    assert list(tmp_path.iterdir()) == []


def _zip_table(report, name: str) -> list[dict[str, str]]:
    """One CSV table of the report's ``.zip`` form, as csv reads it."""
    with zipfile.ZipFile(io.BytesIO(render_csv_zip(typed(report)))) as archive:
        return list(csv.DictReader(io.StringIO(archive.read(name).decode("utf-8"))))


def test_csv_is_one_row_per_sample_and_the_zip_one_table_per_section(report):
    rows = list(csv.DictReader(io.StringIO(render_csv(typed(report)))))
    entry = report["latency"][0]
    assert len(rows) == len(entry["samples_ms"]) + len(entry["warmup_samples_ms"])
    timed = [float(r["ms"]) for r in rows if r["phase"] == "timed"]
    assert timed == pytest.approx(entry["samples_ms"])
    assert {(r["device"], r["dtype"], r["mode"], r["input_shape"], r["run"]) for r in rows} == {("cpu", "float32", "forward", "64x3", "0")}
    # One row per run: its median and how far to trust it.
    [summary] = _zip_table(report, "latency.csv")
    assert float(summary["median_ms"]) == pytest.approx(entry["median_ms"])
    assert float(summary["median_ci_low_ms"]) <= float(summary["median_ms"]) <= float(summary["median_ci_high_ms"])
    assert float(summary["iqr_ms"]) == pytest.approx(entry["iqr_ms"])
    assert [r["call"] for r in _zip_table(report, "moves.csv")] == [m["call"] for m in report["moves"]]
    memory = _zip_table(report, "memory.csv")
    assert len(memory) == 3 and memory[0]["device"] == "cpu"


def test_csv_quotes_text_a_spreadsheet_would_run_as_a_formula():
    report = build_report(example_model(), moves=[{**MOVE, "error": "=HYPERLINK(1)", "ok": False}])
    row = next(iter(_zip_table(report, "moves.csv")))
    assert row["error"] == "'=HYPERLINK(1)"


def test_markdown_block_has_environment_model_and_both_tables(report):
    text = render_markdown(typed(report))
    assert f"PyTorch: {torch.__version__}" in text
    assert "| Call | Source → target |" in text and "model.cuda()" in text and "failed: CUDA out of memory" in text
    assert re.search(r"^\| cpu \| float32 \| forward \| 64x3 \|", text, re.M)


def test_markdown_escapes_pipes_in_user_text(report):
    report["model"]["spec"] = "my|model.py:make"
    assert "my\\|model.py:make" in render_markdown(typed(report))


def test_html_is_one_offline_file_with_the_plots_embedded(report):
    png = b"\x89PNG\r\n\x1a\nfake"
    page = render_html(typed(report), images={"Latency": png})
    encoded = re.search(r'<img alt="Latency" src="data:image/png;base64,([^"]+)"', page).group(1)
    assert base64.b64decode(encoded) == png
    assert not re.search(r'(src|href)="(https?:)?//', page) and "<link" not in page


def test_html_without_images_says_pyside6_is_missing(report, monkeypatch):
    real = html_view.importlib.util.find_spec
    monkeypatch.setattr(
        html_view.importlib.util, "find_spec", lambda name, *a: None if name == "PySide6" else real(name, *a)
    )
    assert "plots were left out because PySide6 is not installed" in render_html(typed(report))


def test_html_escapes_user_provided_text(report):
    report["model"]["spec"] = "<script>alert(1)</script>"
    report["moves"][0]["error"] = '"><img src=x onerror=alert(2)>'
    page = render_html(typed(report))
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


class _TableCells(HTMLParser):
    """Each HTML table as {header: [(class of the cell, its text), ...]}, the header first."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list[tuple[str | None, str]]]] = []
        self._headers: list[str] = []
        self._cells: list[tuple[str | None, str]] = []
        self._cell: tuple[str | None, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._headers, self._cells = [], []
        elif tag in ("th", "td"):
            self._cell = (dict(attrs).get("class"), [])

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1].append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            cls, text = self._cell[0], "".join(self._cell[1])
            self._cell = None
            if tag == "th":
                self._headers.append(text)
            self._cells.append((cls, text))
        elif tag == "table" and self._headers:
            width = len(self._headers)
            self.tables.append({h: self._cells[i::width] for i, h in enumerate(self._headers)})


def test_html_tables_right_align_figures_and_left_align_text(report):
    parser = _TableCells()
    parser.feed(render_html(typed(report)))
    moves, latency, memory = (next(t for t in parser.tables if h in t) for h in ("GB/s", "Median", "Peak used"))
    assert [text for _cls, text in moves["Result"][1:]] == ["ok", "failed: CUDA out of memory"]
    expected_numeric = {
        "moves": (moves, {"Time", "Bytes", "GB/s"}),
        "latency": (latency, {"First call", "Median", "Median 95 % CI", "IQR", "Mean", "p5", "p95", "Min", "Max", "Std",
                              "Samples"}),
        "memory": (memory, {"Readings", "Peak allocated", "Peak reserved", "Peak process RSS", "Peak used", "Total",
                             "Peak other processes"}),
    }
    for name, (table, numeric) in expected_numeric.items():
        for header, cells in table.items():
            assert len(cells) > 1, f"{name}: no rows under {header}"
            want = "num" if header in numeric else None
            assert {cls for cls, _text in cells} == {want}, f"{name} column {header!r}: {cells}"


@pytest.mark.parametrize("suffix", SUPPORTED_SUFFIXES)
def test_every_format_saves_and_replaces_an_existing_file(tmp_path, report, suffix):
    path = tmp_path / f"r{suffix}"
    path.write_text("old")
    save_report(typed(report), path)
    assert path.read_bytes() != b"old" and len(path.read_bytes()) > 100
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_write_failing_half_way_leaves_the_old_file_untouched_and_no_temp_file(tmp_path, report, monkeypatch):
    path = tmp_path / "r.json"
    path.write_bytes(b"the previous report")

    fill_disk_half_way_through_report_writes(monkeypatch)
    with pytest.raises(InspectorError, match=re.escape(str(path))):
        save_report(typed(report), path)
    assert path.read_bytes() == b"the previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_an_interrupt_mid_write_also_cleans_up(tmp_path, report, monkeypatch):
    path = tmp_path / "r.md"
    path.write_bytes(b"old")

    def interrupted(fh, data):
        fh.write(data[:10])
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic_write, "_write_payload", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_report(typed(report), path)
    assert path.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["r.md"]


def test_unwritable_paths_are_clear_errors_naming_the_path(tmp_path, report):
    a_file = tmp_path / "plain-file"
    a_file.write_text("x")
    target = a_file / "r.json"  # a regular file as "directory": fails even for root
    with pytest.raises(InspectorError, match=re.escape(str(target))) as info:
        save_report(typed(report), target)
    assert "not a folder" in info.value.message
    with pytest.raises(InspectorError, match="does not exist"):
        save_report(typed(report), tmp_path / "missing" / "r.json")


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_replacing_a_file_keeps_its_permissions(tmp_path, report):
    path = tmp_path / "r.json"
    path.write_text("{}")
    path.chmod(0o600)
    save_report(typed(report), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_failing_device_discovery_still_gives_a_report(monkeypatch):
    import inspector.core.devices.inventory as devices

    def broken():
        raise RuntimeError("NVML exploded")

    monkeypatch.setattr(devices, "discover_devices", broken)
    env = build_report(example_model())["environment"]
    assert "NVML exploded" in env["devices"]["notes"][0] and env["torch"] == torch.__version__


def test_a_failed_move_shows_its_message_in_every_text_format(tmp_path):
    """MoveResult.error is {kind, message, detail} in the report: no dict repr in a cell."""
    from inspector.core.moves.request import MoveRequest
    from inspector.core.moves.transaction import move_model

    loaded = example_model()
    failed = move_model(loaded, MoveRequest("cuda", "cuda:97"))  # absent on any machine
    assert not failed.ok and failed.error.kind == "device"
    message = failed.error.message
    built = build_report(loaded, moves=[failed])
    saved = load_report(save_report(typed(built), tmp_path / "r.json"))
    for report in (built, saved):
        markdown, page = render_markdown(typed(report)), render_html(typed(report))
        for text in (markdown, page):
            assert "'kind'" not in text and "&#x27;kind&#x27;" not in text and "'message'" not in text
        assert f"| failed: {markdown_view._md_cell(message)} |" in markdown
        assert f">failed: {html.escape(message)}</td>" in page
        row = next(iter(_zip_table(report, "moves.csv")))
        assert row["call"] == "model.cuda(97)" and row["ok"] == "False"
        assert row["error"] == message and row["error_kind"] == "device"


def test_a_cancelled_move_reads_as_cancelled():
    from inspector.core.moves.request import MoveRequest
    from inspector.core.moves.transaction import move_model

    loaded = example_model()
    cancelled = move_model(loaded, MoveRequest("to", dtype="float64"), should_cancel=lambda: True)
    text = render_markdown(typed(build_report(loaded, moves=[cancelled])))
    assert "| cancelled: the move was cancelled; the model is as it was before |" in text


def test_the_report_names_the_cpu_as_the_device_list_does(report):
    env = report["environment"]
    cpu = next(d for d in typed(report).environment.devices if d.id == "cpu")
    assert env["cpu"] == cpu.name


def test_the_cpus_rss_is_called_process_rss_in_every_format_and_old_reports_read_the_same(tmp_path, report):
    rss = report["memory"]["cpu"][0]["process_rss"]
    text = render_html(typed(report))
    assert "Peak process RSS" in text and "Peak allocated" in text  # allocated: a GPU's column
    memory_table = text[text.index("<h2>Memory</h2>"):]
    cpu_row = re.search(r"<tr><td>cpu</td>(.*?)</tr>", memory_table).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", cpu_row)
    assert cells[1] == "—" and cells[3] != "—"  # no "allocated" for the CPU; its RSS apart
    rows = _zip_table(report, "memory.csv")
    assert rows[0]["process_rss"] == str(rss) and rows[0]["allocated"] == ""

    # A report written before process_rss existed holds the CPU's RSS as "allocated".
    old = json.loads(json.dumps(report))
    for point in old["memory"]["cpu"]:
        point["allocated"] = point.pop("process_rss")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    reread = load_report(path)
    old_rows = _zip_table(reread, "memory.csv")
    assert old_rows[0]["process_rss"] == str(rss) and old_rows[0]["allocated"] == ""
    assert re.findall(r"<td[^>]*>(.*?)</td>", re.search(r"<tr><td>cpu</td>(.*?)</tr>",
                      render_html(reread)[render_html(reread).index("<h2>Memory</h2>"):]).group(1)) == cells  # fmt: skip
