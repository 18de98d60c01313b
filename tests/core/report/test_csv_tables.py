"""The CSV reports as a spreadsheet user reads them: with pandas (issue 34 §5).

``.csv`` is the latency samples, one tidy table: its pivot of the timed samples' median per
device and dtype is each latency entry's ``median_ms``. ``.zip`` holds every section as its
own table, each read back by ``pandas.read_csv``."""

from __future__ import annotations

import io
import json
import zipfile

import pandas as pd
import pytest

from inspector.cli import main
from inspector.core.devices.discovery import memory_reading
from inspector.core.errors import InputError
from inspector.core.files.models import example_model
from inspector.core.measure.attribution import measure_attribution
from inspector.core.measure.repeats import combine_runs
from inspector.core.measure.timing import measure_latency
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.report.csv_tables import TABLES
from inspector.core.report.csv_view import ZIP_DATE, render_csv, render_csv_zip
from inspector.core.report.timing_report import build_report, load_report, save_report
from tests.report_edge import typed


def _tables(data: bytes) -> dict[str, pd.DataFrame]:
    """Every CSV table of a .zip report, as pandas reads it (text cells as text: "None" or
    "NA" as a module's name stays a name)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {
            name: pd.read_csv(archive.open(name), keep_default_na=False, na_values=[""])
            for name in archive.namelist() if name.endswith(".csv")
        }  # fmt: skip


def _timed_medians(samples: pd.DataFrame) -> pd.DataFrame:
    timed = samples[samples["phase"] == "timed"]
    return timed.pivot_table(index=["device", "dtype"], values="ms", aggfunc="median")


def test_the_csv_of_a_bench_pivots_into_each_latency_entrys_median(capsys, tmp_path):
    """What a spreadsheet user does with ``bench --output report.csv``: pivot the samples."""
    path = tmp_path / "report.csv"
    assert main(["bench", "example", "--device", "cpu", "--runs", "20", "--json", "--output", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)  # the same run, as --json prints it
    samples = pd.read_csv(path)
    assert list(samples.columns) == ["device", "dtype", "mode", "input_shape", "run", "phase", "index", "ms", "threads"]
    (entry,) = report["latency"]
    medians = _timed_medians(samples)
    assert medians.loc[("cpu", entry["dtype"]), "ms"] == pytest.approx(entry["median_ms"], rel=1e-12)
    warmup = samples[samples["phase"] == "warmup"]["ms"].tolist()
    assert warmup == pytest.approx(entry["warmup_samples_ms"])
    assert (samples["threads"] == entry["threads"]).all() and (samples["input_shape"] == "64x3").all()


@pytest.fixture(scope="module")
def report():
    """Two dtypes (a pivot's two rows), one entry of three independent runs, a per-module run,
    two moves (one failed, its error a would-be formula) and memory readings."""
    loaded = example_model()
    first = measure_latency(loaded, runs=9, warmup=2)
    repeated = combine_runs(first, [measure_latency(loaded, runs=7).samples_ms, measure_latency(loaded, runs=5).samples_ms])
    moved = move_model(loaded, MoveRequest("to", dtype="float64"))
    wide = measure_latency(loaded, runs=11, warmup=1)
    failed = {**moved.to_dict(), "ok": False, "call": "model.cuda()", "error": "=HYPERLINK(\"http://x\")"}
    attribution = measure_attribution(loaded, runs=3, warmup=1)
    readings = {"cpu": [memory_reading("cpu") for _ in range(4)]}
    built = build_report(loaded, moves=[moved, failed], latency=[repeated, wide], memory=readings, attribution=[attribution])
    return json.loads(json.dumps(built))  # as a file holds it


def test_the_samples_pivot_gives_every_entrys_median_and_the_runs_are_numbered(report):
    samples = pd.read_csv(io.StringIO(render_csv(typed(report))))
    medians = _timed_medians(samples)
    assert len(medians) == len(report["latency"]) == 2
    for entry in report["latency"]:
        assert medians.loc[(entry["device"], entry["dtype"]), "ms"] == pytest.approx(entry["median_ms"], rel=1e-12)
    repeated = samples[(samples["dtype"] == "float32") & (samples["phase"] == "timed")]
    runs = report["latency"][0]["runs_ms"]
    assert repeated.groupby("run")["ms"].apply(list).tolist() == [pytest.approx(r) for r in runs]
    assert repeated.groupby("run")["index"].max().tolist() == [len(r) - 1 for r in runs]  # each run counts from 0
    assert set(samples[samples["dtype"] == "float64"]["run"]) == {0}  # one run


def test_the_zip_holds_every_section_as_a_table_pandas_reads(report):
    tables = _tables(render_csv_zip(typed(report)))
    assert set(tables) == {"samples.csv", "latency.csv", "moves.csv", "memory.csv", "modules.csv", "attribution.csv",
                           "environment.csv"}  # fmt: skip (no fit.csv: this report has no fit)
    pd.testing.assert_frame_equal(tables["samples.csv"], pd.read_csv(io.StringIO(render_csv(typed(report)))))

    latency = tables["latency.csv"].set_index(["device", "dtype"])
    for entry in report["latency"]:
        row = latency.loc[(entry["device"], entry["dtype"])]
        assert row["median_ms"] == pytest.approx(entry["median_ms"])
        assert (row["median_ci_low_ms"], row["median_ci_high_ms"]) == pytest.approx(entry["median_ci_ms"])
        assert row["runs"] == len(entry.get("runs_ms") or [0]) and row["samples"] == len(entry["samples_ms"])
        assert row["threads"] == entry["threads"]

    modules = tables["modules.csv"]
    assert modules["name"].tolist() == [m["name"] or "(model)" for m in report["modules"]]  # "" reads as NaN
    assert modules["type"].tolist() == [m["type"] for m in report["modules"]]
    assert modules["self_ms"].tolist() == pytest.approx([m["self_ms"] for m in report["modules"]])
    assert modules["flops"].tolist() == [m["flops"] for m in report["modules"]]
    assert modules["output_shapes"].tolist() == ["64x1", "64x2", "64x1"]
    assert set(modules["dtype"]) == {report["attribution"][0]["dtype"]} and set(modules["run"]) == {0}

    moves = tables["moves.csv"]
    assert moves["call"].tolist() == [m["call"] for m in report["moves"]]
    assert moves["ok"].tolist() == [True, False]
    assert moves["error"].tolist()[1] == "'=HYPERLINK(\"http://x\")"  # quoted: a spreadsheet shows it, never runs it

    memory = tables["memory.csv"]
    assert len(memory) == sum(len(points) for points in report["memory"].values())
    assert memory["process_rss"].tolist() == [p["process_rss"] for p in report["memory"]["cpu"]]
    assert memory["allocated"].isna().all()  # the CPU has no allocator figure: its RSS is process_rss

    facts = dict(zip(tables["environment.csv"]["key"], tables["environment.csv"]["value"].astype(str)))
    assert facts["environment.torch"] == report["environment"]["torch"] and facts["model.class"] == "Net"


def test_every_text_cell_of_the_zip_is_safe_from_formulas(report):
    hostile = json.loads(json.dumps(report))
    hostile["modules"][1]["name"] = "=cmd|' /C calc'!A0"
    hostile["latency"][0]["device"] = "+cpu"
    hostile["environment"]["os"] = "@SUM(1)"
    tables = _tables(render_csv_zip(typed(hostile)))
    assert tables["modules.csv"]["name"].tolist()[1] == "'=cmd|' /C calc'!A0"
    assert set(tables["samples.csv"]["device"]) == {"'+cpu", "cpu"}
    assert "'@SUM(1)" in tables["environment.csv"]["value"].tolist()
    for name, table in tables.items():
        for column in table.columns:  # (a number is never quoted: -1.5 stays a number)
            assert not table[column].astype(str).str.match(r"[=+@]").any(), (name, column)


def test_the_zip_is_the_same_bytes_for_the_same_report_deflated_and_dated_1980(report, tmp_path):
    data = render_csv_zip(typed(report))
    assert render_csv_zip(typed(json.loads(json.dumps(report)))) == data
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        assert infos[0].filename == "README.txt"
        readme = archive.read("README.txt").decode("utf-8")
        for info in infos:
            assert info.date_time == ZIP_DATE and info.compress_type == zipfile.ZIP_DEFLATED
            assert info.filename == "README.txt" or info.filename in readme  # the README names each table
    assert sum(i.compress_size for i in infos) < sum(i.file_size for i in infos) / 2

    path = save_report(typed(report), tmp_path / "report.zip")  # the suffix picks the zip, written atomically
    assert path.read_bytes() == data and [p.name for p in tmp_path.iterdir()] == ["report.zip"]


def test_tables_of_sections_a_report_lacks_are_left_out_and_fit_is_a_table():
    from inspector.core.measure.fit import FitRequest, estimate_fit

    loaded = example_model()
    fit = estimate_fit(loaded, FitRequest("cpu", optimizer="adam", measure=False))
    bare = json.loads(json.dumps(build_report(loaded, fit=[fit])))
    tables = _tables(render_csv_zip(typed(bare)))
    assert set(tables) == {"samples.csv", "latency.csv", "moves.csv", "memory.csv", "fit.csv", "environment.csv"}
    assert tables["samples.csv"].empty and list(tables["samples.csv"].columns)[:2] == ["device", "dtype"]
    (row,) = tables["fit.csv"].to_dict("records")
    assert row["optimizer"] == "adam" and row["optimizer_state_bytes"] == fit.optimizer_state_bytes
    assert row["estimated_peak_bytes"] == fit.estimated_peak_bytes


def test_a_report_file_whose_sections_are_not_what_they_should_be_still_renders(report, tmp_path):
    odd = json.loads(json.dumps(report))
    odd["modules"], odd["attribution"], odd["fit"] = 5, "text", [1, None, {"device": ["x"]}]
    odd["latency"][0]["runs_ms"] = [[1.0], [2.0]]  # not its samples: read as one run
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(odd))
    tables = _tables(render_csv_zip(typed(odd)))
    assert "modules.csv" not in tables and tables["fit.csv"]["device"].tolist() == ["['x']"]
    assert set(tables["samples.csv"]["run"]) == {0}
    with pytest.raises(InputError, match="runs_ms"):
        load_report(path)  # the checked field is refused on loading, as before


def test_every_table_name_is_unique_and_has_its_columns():
    names = [t.name for t in TABLES]
    assert len(set(names)) == len(names) and all(len(set(t.columns)) == len(t.columns) for t in TABLES)
