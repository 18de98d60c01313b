"""The CSV views of a timing report, for a spreadsheet or pandas: tidy tables (``csv_tables``),
each cell safe from spreadsheet formulas.

``.csv`` is ONE table, the latency samples: one row per sample with its measurement's keys as
columns (device, dtype, mode, input_shape, run, phase, index, ms, threads), the table a pivot
turns into medians per device and dtype. A CSV file holds one table; the report's other
sections do not share its columns (a move has no dtype-by-sample, a memory reading no ms), and
one sparse table of all of them pivots into nothing. So ``.zip`` holds every section as its
own table (``csv_tables.TABLES``: samples, latency, moves, memory, modules, attribution, fit,
environment) and a README.txt naming them; its bytes are the same for the same report (fixed
timestamps, entries in a fixed order, deflated).
"""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any, Mapping

from inspector.core.report.csv_tables import SAMPLES, TABLES, Table
from inspector.core.report.schema import TimingReport
from inspector.core.report.view_rows import cell_text

#: Every entry of a ``.zip`` report is dated this (the earliest time a zip can hold): the same
#: report gives the same bytes, whenever it is written.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _csv_cell(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    # One line, control characters escaped and capped, as in every text view.
    value = cell_text(value)
    # A text cell starting with = + - @ is run as a formula by spreadsheets: quote it.
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def table_csv(table: Table, report: Mapping[str, Any]) -> str:
    """One table as CSV text: its header, then a row per observation (an empty cell: none)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=table.columns, restval="", extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in table.rows(report):
        writer.writerow({k: _csv_cell(v) for k, v in row.items() if v is not None})
    return out.getvalue()


def render_csv(report: TimingReport) -> str:
    """The ``.csv`` report: the latency samples, one row per sample (``csv_tables.sample_rows``)."""
    # The CSV is a projection of the file (its keys are the columns): it reads the file's dict.
    return table_csv(SAMPLES, report.data)


def render_csv_zip(report: TimingReport) -> bytes:
    """The ``.zip`` report: each table of ``csv_tables.TABLES`` as its own CSV (those of
    sections the report lacks, such as ``modules.csv`` without ``--per-module``, left out),
    and ``README.txt`` naming what it holds."""
    # The tables are a projection of the file (its keys are the columns): they read the file's dict.
    data = report.data
    written = [(t, table_csv(t, data)) for t in TABLES]
    written = [(t, text) for t, text in written if t.always or text.count("\n") > 1]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        _add(archive, "README.txt", _readme(data, [t for t, _ in written]))
        for table, text in written:
            _add(archive, table.name, text)
    return buffer.getvalue()


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # as written on Unix, whatever writes it: the same bytes everywhere
    info.external_attr = 0o644 << 16  # rw-r--r--
    archive.writestr(info, text.encode("utf-8"), compresslevel=9)


def _readme(report: Mapping[str, Any], tables: list[Table]) -> str:
    tool, model = (report.get(k) for k in ("tool", "model"))
    tool = tool if isinstance(tool, Mapping) else {}
    model = model if isinstance(model, Mapping) else {}
    lines = [
        "A torch-device-inspector timing report as CSV tables, one per section, one row per",
        "observation and one column per variable: open one in a spreadsheet and pivot it, or",
        "read it with pandas.read_csv. The .json report holds the same figures.",
        "",
        f"Model: {cell_text(model.get('spec', '?'))} ({cell_text(model.get('class', '?'))}); "
        f"written {cell_text(report.get('created', '?'))} by torch-device-inspector {cell_text(tool.get('version', '?'))}.",
        "",
    ]
    lines += [f"{t.name}: {t.about}" for t in tables]
    lines += [
        "",
        "Latency: median ms per device and dtype is the median of samples.csv's ms over the rows",
        "whose phase is 'timed' (latency.csv has it, with its interval, as median_ms). Times in ms,",
        "memory in bytes, t in seconds since the session started; an empty cell is not known.",
        "A text cell that starts with = + - or @ is written with a ' before it (no formula runs).",
    ]
    return "\n".join(lines) + "\n"
