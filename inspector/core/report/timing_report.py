"""The timing report: build it from results, save it (.json/.csv/.md/.html/.zip), load it again.

The JSON form is the source of truth and is versioned (``schema_version``); the other forms
are views of it (``markdown_view``, ``csv_view``, ``html_view``) for a bug report, a
spreadsheet (``.csv``: the latency samples, one tidy table; ``.zip``: every section as its
own CSV table), or a browser. Plot images are made on the Qt side (``inspector.gui.shell.report_images``)
and handed in, so this module never imports Qt. A save is atomic; a load checks every field
its readers use (``schema``) before anyone reads it.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import math
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import torch

import inspector
from inspector.core.atomic_write import write_atomically, write_reason
from inspector.core.devices.discovery import device_id
from inspector.core.devices.environment import collect_environment
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.models import LoadedModel, resolved_spec
from inspector.core.files.output_path import REPORT_SUFFIXES, target_problem
from inspector.core.files.regular_file import FileTooLarge, NotRegularFile, read_regular_file
from inspector.core.measure.measurement import LatencyResult
from inspector.core.measure.memory_log import report_point
from inspector.core.messages import Text
from inspector.core.messages.catalogue import ENGLISH
from inspector.core.placement.tensor_rows import snapshot
from inspector.core.report.csv_view import render_csv, render_csv_zip
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.field_checks import ReportSchemaError
from inspector.core.report.schema import TimingReport
from inspector.core.units import dtype_name, format_bytes
from inspector.core.vocabulary import FailureKind

#: 2: each latency entry adds its spread (``iqr_ms``, ``median_ci_ms``, ``noisy``, ``noise``),
#: ``timer`` and how it was asked for (``runs``/``min_time``, ``warmup``). Schema 1 reports
#: still load: readers compute the spread from their samples.
SCHEMA_VERSION = 2
SUPPORTED_SUFFIXES = REPORT_SUFFIXES
REQUIRED_KEYS = ("schema_version", "created", "environment", "model", "moves", "latency", "memory")
#: Larger than any report this version writes (an hour of memory readings is a few MiB);
#: reading a file parses it whole, so a bigger one is refused before it is read.
MAX_REPORT_BYTES = 64 << 20


# --------------------------------------------------------------------------- build


def build_report(
    loaded: LoadedModel,
    *,
    moves: Sequence[Any] = (),
    latency: Sequence[Any] = (),
    memory: Mapping[str, Sequence[Any]] | None = None,
    attribution: Sequence[Any] = (),
    fit: Sequence[Any] = (),
    ranks: Sequence[Mapping[str, Any]] | None = None,
    model_memory: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The report as a JSON-ready dict (its keys: docs/cli.md, "The report"): the file's form, which
    ``build_timing_report`` wraps as the type ``load_report`` gives. The CLI and the sessions build
    with ``build_timing_report`` and keep that ``TimingReport`` until it is written; this dict is
    for tests that build a report and change it before reading it.

    ``attribution``: per-module runs (``core.measure.attribution.Attribution``), one per device; they
    add ``modules`` (every module of every run) and ``attribution`` (each run's totals and
    overhead). ``fit``: "will it fit?" answers (``core.measure.fit.FitResult``). Both keys appear only
    when given, so a plain report stays as it was.

    ``ranks`` (a torchrun job, see ``core.remote.ranks``): every rank's entry; the top-level
    ``moves`` and ``latency`` are then rank 0's own.

    ``model_memory`` (``MemoryTimeline.model_report``): the model's bytes per device and
    kind after each load and move, ``[{t, by_device: {device: {kind: bytes}}}]``.
    """
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "tool": {"name": "torch-device-inspector", "version": inspector.__version__},
        "environment": _plain(collect_environment()),
        "model": _model_section(loaded),
        "moves": [_plain(_as_dict(m)) for m in moves],
        "latency": [_plain(_as_dict(r)) for r in latency],
        "memory": _memory_section(memory or {}),
    }
    if attribution:
        report["modules"] = [_plain(m.to_dict()) for run in attribution for m in run.modules]
        report["attribution"] = [_plain(run.to_dict()) for run in attribution]
    if fit:
        report["fit"] = [_plain(_as_dict(f)) for f in fit]
    if ranks is not None:
        report["ranks"] = [_plain(dict(r)) for r in ranks]
    if model_memory:  # the model's own bytes per device after each load and move
        report["model_memory"] = [_plain(dict(m)) for m in model_memory]
    return report


def build_timing_report(loaded: LoadedModel, **sections: Any) -> TimingReport:
    """``build_report(loaded, **sections)`` as a ``TimingReport``: the same type ``load_report``
    gives, over the dict the file is written from (``to_dict``). What a session's ``report()``
    returns. Its latency entries are the measurements themselves (``LatencyResult``: one type
    from sampling to file, and a file's entry reads back equal to its measurement), never
    written out and read in again; the other sections are read from the dict as
    ``TimingReport.lenient`` reads it."""
    data = build_report(loaded, **sections)
    measured = tuple(sections.get("latency", ()))
    if not all(isinstance(m, LatencyResult) for m in measured):  # a rank's entries, as dicts
        return TimingReport.lenient(data)
    return dataclasses.replace(TimingReport.lenient({**data, "latency": []}), latency=measured, data=data)


def json_ready(value: Any) -> Any:
    """``value`` as plain JSON values, as the report writes them (tuples to lists, NaN to None)."""
    return _plain(value)


def _model_section(loaded: LoadedModel) -> dict[str, Any]:
    placement = snapshot(loaded)
    params = list(loaded.module.parameters())
    return {
        "spec": loaded.spec,
        # The file it names, absolute: compare tells models.py:build from ../models.py:build by it.
        "resolved_spec": resolved_spec(loaded.spec),
        "class": loaded.class_name,
        "source": loaded.source,
        "parameters": sum(p.numel() for p in params),
        "trainable_parameters": sum(p.numel() for p in params if p.requires_grad),
        "optimizer": loaded.optimizer_name,
        # Totals over parameters, buffers, grads and optimizer state; tied tensors count once.
        "tensors": placement.totals.count,
        "elements": placement.totals.elements,
        "bytes": placement.totals.bytes,  # allocated: meta tensors count 0, sparse ones their indices + values
        "meta_bytes": placement.totals.meta_bytes,  # what the meta tensors would take
        "by_device": dict(placement.totals.by_device),
        "by_dtype": dict(placement.totals.by_dtype),
        "notes": list(loaded.notes),
    }


def _memory_section(memory: Mapping[str, Sequence[Any]]) -> dict[str, list[dict[str, Any]]]:
    """``{device: [{t, allocated, reserved, used, total}]}``; readings carrying an absolute
    ``timestamp`` (``MemoryReading``) get ``t`` in seconds since the earliest one."""
    rows = {str(dev): [_as_dict(p) for p in points] for dev, points in memory.items()}
    stamps = [p["timestamp"] for points in rows.values() for p in points if "t" not in p and "timestamp" in p]
    t0 = min(stamps) if stamps else 0.0
    out: dict[str, list[dict[str, Any]]] = {}
    for dev, points in rows.items():
        out[dev] = [
            report_point(dev, {**p, "t": p["t"] if "t" in p else round(p.get("timestamp", t0) - t0, 4)})
            for p in points
        ]
    plain: dict[str, list[dict[str, Any]]] = _plain(out)
    return plain


def _as_dict(item: Any) -> dict[str, Any]:
    if hasattr(item, "to_dict"):
        as_dict: dict[str, Any] = item.to_dict()
        return as_dict
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return dataclasses.asdict(item)
    return dict(item)


def _plain(value: Any) -> Any:
    """JSON-ready values: lists for tuples, names for dtypes/devices, None for NaN/inf."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        # JSON has no NaN/inf; json.dumps would write them anyway and other tools choke on it.
        return value if math.isfinite(value) else None
    if isinstance(value, torch.dtype):
        return dtype_name(value)
    if isinstance(value, torch.device):
        return device_id(value)
    if hasattr(value, "tolist") and callable(value.tolist):  # numpy arrays/scalars, tensors
        return _plain(value.tolist())
    if hasattr(value, "to_dict") or dataclasses.is_dataclass(value):
        return _plain(_as_dict(value))
    return str(value)


# --------------------------------------------------------------------------- save / load


def render_json(report: TimingReport) -> str:
    """The report as the ``.json`` file holds it: plain JSON values, NaN written as null.

    The one writer of the file's form: a ``TimingReport`` is written as its ``to_dict`` (the
    agent sends the same dict over the wire: one codec for file and wire)."""
    return json.dumps(_plain(report.to_dict()), indent=2, allow_nan=False) + "\n"


def save_report(
    report: TimingReport, path: str | Path, *, images: Mapping[str, bytes] | None = None,
    language: str = ENGLISH, images_language: str | None = None,
) -> Path:  # fmt: skip
    """Write ``report`` in the format its suffix names, atomically: either the whole new file
    is there afterwards, or whatever was there before is left untouched.

    ``report``: a ``TimingReport`` (``build_timing_report``'s, ``load_report``'s; a script's dict
    read once by ``TimingReport.lenient``): the JSON, CSV and ZIP write the file's dict it keeps
    (``to_dict``) as it is; the Markdown and HTML read its typed fields.

    ``language`` (``"en"`` or one of ``catalogue.available_languages()``): what the Markdown and
    HTML views are written in. The JSON, the CSV tables and the ZIP's are data and stay as
    they are (English keys and column names) in every language. ``images_language``: the
    language the HTML's ``images`` were drawn in, when known (the page says when it differs)."""
    path = Path(path)
    suffix = path.suffix.lower()
    renderers: dict[str, Callable[[], bytes]] = {
        # The file's forms write the report's dict as it is; the views in words read its fields.
        ".json": lambda: render_json(report).encode("utf-8"),
        ".csv": lambda: render_csv(report).encode("utf-8"),
        ".md": lambda: render_markdown(report, language).encode("utf-8"),
        ".html": lambda: render_html(report, images, language, images_language).encode("utf-8"),
        ".zip": lambda: render_csv_zip(report),
    }
    if suffix not in renderers:
        raise InputError(Text("write.report_suffix", name=repr(path.name), suffixes=", ".join(SUPPORTED_SUFFIXES)))
    problem = target_problem(path)
    if problem is not None:  # a folder, a pipe or device node, a read-only or immutable file
        raise InputError(Text("write.report_failed", path=path, reason=problem))
    _atomic_write(path, renderers[suffix]())
    return path


def _atomic_write(path: Path, data: bytes) -> None:
    """The app's one writer (``core.atomic_write``), its failure worded for a report."""
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise InspectorError(Text("write.report_failed", path=path, reason=write_reason(path, exc)),
                             detail=str(exc), kind=FailureKind.WRITE) from None  # fmt: skip


def load_report(path: str | Path) -> TimingReport:
    """Read a ``.json`` report back, checking every field its readers use (``report_schema``).

    Whatever is wrong with the file comes out as one ``InputError`` line naming the field.
    The file is read as every file is (``files.regular_file``: a regular file, at most
    ``MAX_REPORT_BYTES``); its text is UTF-8, a leading byte-order mark allowed.
    The ``TimingReport`` returned keeps the file's own dict (``to_dict``), so keys a later
    version added are kept and a save writes them back as they were.
    """
    path = Path(path)
    try:
        data = read_regular_file(path, MAX_REPORT_BYTES)  # a FIFO, a device, /proc: refused unread
    except FileNotFoundError:
        raise InputError(Text("report.no_file", path=path)) from None
    except IsADirectoryError:
        raise InputError(Text("report.is_folder", path=path)) from None
    except NotRegularFile:
        raise _not_a_report(path, Text("report.not_regular")) from None
    except FileTooLarge as exc:
        if exc.size is None:  # it grew after the stat
            raise _not_a_report(path, Text("report.grew_too_large", limit=format_bytes(MAX_REPORT_BYTES))) from None
        raise _not_a_report(path, Text("report.too_large", size=format_bytes(exc.size), limit=format_bytes(MAX_REPORT_BYTES))) from None
    except OSError as exc:
        raise InputError(Text("report.cannot_read", path=path, error=exc.strerror or exc)) from None
    try:
        # A UTF-8 byte-order mark is read as no text (utf-8-sig), as RFC 8259 allows: a report
        # saved again by a Windows editor starts with one. Any other encoding is refused.
        report = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise _not_a_report(path, Text("report.not_text")) from None
    except json.JSONDecodeError:
        raise _not_a_report(path, Text("report.not_json")) from None
    except ValueError:  # an integer of more than 4,300 digits (Python's int-from-text limit)
        raise _not_a_report(path, Text("report.number_too_long")) from None
    except RecursionError:
        raise _not_a_report(path, Text("report.nested_too_deeply")) from None
    return _validate(report, path)


def _not_a_report(path: Path, why: str) -> InputError:
    if path.suffix.lower() in ("", ".json"):
        return InputError(Text("report.not_a_report", path=path, why=why))
    return InputError(Text("report.not_a_report_json_only", path=path, why=why))


def _validate(report: Any, path: Path) -> TimingReport:
    if not isinstance(report, dict) or "schema_version" not in report:
        raise _not_a_report(path, Text("report.no_schema_version"))
    version = report["schema_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _not_a_report(path, Text("report.bad_schema_version", version=_short(version)))
    if version > SCHEMA_VERSION:
        raise InputError(Text("report.newer_schema", path=path, version=_short(version), supported=SCHEMA_VERSION))
    missing = [k for k in REQUIRED_KEYS if k not in report]
    if missing:
        raise _not_a_report(path, Text("report.lacks", keys=", ".join(missing)))
    try:
        return TimingReport.from_dict(report)
    except ReportSchemaError as exc:
        raise InputError(Text("report.invalid", path=path, error=exc.message), kind=FailureKind.INPUT) from None


def _short(value: Any) -> str:
    """A value from the file, as one short line."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if abs(value) < 10**12 else "a very large number"
    if isinstance(value, (str, float, bool)) or value is None:
        text = json.dumps(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return "a list" if isinstance(value, list) else "a mapping"
