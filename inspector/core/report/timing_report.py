"""The timing report: build it from results, save it (.json/.csv/.md/.html), load it again.

The JSON form is the source of truth and is versioned (``schema_version``); the other forms
are views of it for a spreadsheet, a bug report, or a browser. Plot images are made on the
Qt side (``inspector.gui.report_images``) and handed in, so this module never imports Qt.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import dataclasses
import datetime as _dt
import errno
import html
import importlib.util
import io
import json
import math
import os
import secrets
import stat
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Mapping, Sequence

import torch

import inspector
from inspector.core.devices.discovery import device_id
from inspector.core.devices.environment import collect_environment
from inspector.core.errors import InputError, InspectorError
from inspector.core.measure.memory_log import REPORT_FIELDS, report_point
from inspector.core.files.models import LoadedModel
from inspector.core.report import modules as report_modules
from inspector.core.files.output_path import REPORT_SUFFIXES, target_problem
from inspector.core.placement.tensor_rows import snapshot
from inspector.core.report.schema import ReportSchemaError, TimingReport
from inspector.core.measure.spread import spread_of
from inspector.core.units import dtype_name, format_bytes, format_gbps, format_ms, format_seconds
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
_MEMORY_FIELDS = REPORT_FIELDS


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
    """The report as a JSON-ready dict (see DESIGN.md, "Timing report JSON").

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


def json_ready(value: Any) -> Any:
    """``value`` as plain JSON values, as the report writes them (tuples to lists, NaN to None)."""
    return _plain(value)


def _model_section(loaded: LoadedModel) -> dict[str, Any]:
    placement = snapshot(loaded)
    params = list(loaded.module.parameters())
    return {
        "spec": loaded.spec,
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


def save_report(report: dict[str, Any], path: str | Path, *, images: Mapping[str, bytes] | None = None) -> Path:
    """Write ``report`` in the format its suffix names, atomically: either the whole new file
    is there afterwards, or whatever was there before is left untouched."""
    path = Path(path)
    suffix = path.suffix.lower()
    renderers: dict[str, Callable[[], str]] = {
        ".json": lambda: render_json(report),
        ".csv": lambda: render_csv(report),
        ".md": lambda: render_markdown(report),
        ".html": lambda: render_html(report, images),
    }
    if suffix not in renderers:
        raise InputError(
            f"cannot save a report as {path.name!r}: the file name must end in "
            + ", ".join(SUPPORTED_SUFFIXES)
        )
    problem = target_problem(path)
    if problem is not None:  # a folder, a pipe or device node, a read-only or immutable file
        raise InputError(f"could not write the report to {path}: {problem}")
    _atomic_write(path, renderers[suffix]().encode("utf-8"))
    return path


def _atomic_write(path: Path, data: bytes) -> None:
    # Same directory as the target, so os.replace is a rename on one file system (atomic).
    tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        # 0o666 through os.open lets the user's umask decide the final permissions.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_payload(fh, data)
            fh.flush()
            os.fsync(fh.fileno())
        _keep_mode(path, tmp)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _write_error(path, exc) from None
        raise


def _write_payload(fh: BinaryIO, data: bytes) -> None:
    """The write itself, on its own so tests can make it fail half-way."""
    fh.write(data)


def _keep_mode(path: Path, tmp: Path) -> None:
    """Replacing a file keeps the permissions its owner gave it."""
    with contextlib.suppress(OSError):
        os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))


def _write_error(path: Path, exc: OSError) -> InspectorError:
    folder = path.parent
    reasons: dict[int | None, str] = {
        errno.ENOENT: f"the folder {folder} does not exist",
        errno.ENOTDIR: f"{folder} is not a folder",
        errno.EISDIR: f"{path} is a folder",
        errno.EACCES: f"no permission to write in {folder}",
        errno.EPERM: f"no permission to write in {folder}",
        errno.EROFS: f"{folder} is on a read-only file system",
        errno.ENOSPC: "the disk is full",
    }
    reason = reasons.get(exc.errno, exc.strerror or str(exc))
    return InspectorError(f"could not write the report to {path}: {reason}", detail=str(exc), kind=FailureKind.WRITE)


def load_report(path: str | Path) -> dict[str, Any]:
    """Read a ``.json`` report back, checking every field its readers use (``report_schema``).

    Whatever is wrong with the file comes out as one ``InputError`` line naming the field;
    the dict returned is the file's own, so keys a later version added are kept.
    """
    path = Path(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{path} is a folder, not a report")
        if not stat.S_ISREG(info.st_mode):  # a FIFO would block the read forever
            raise _not_a_report(path, "it is not a regular file")
        if info.st_size > MAX_REPORT_BYTES:
            raise _not_a_report(path, f"it is {format_bytes(info.st_size)}, more than the {format_bytes(MAX_REPORT_BYTES)} a report can be")
        with open(path, "rb") as fh:
            # A file may grow after stat(): never read more than the limit.
            data = fh.read(MAX_REPORT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"no report at {path}: the file does not exist") from None
    except OSError as exc:
        raise InputError(f"could not read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_REPORT_BYTES:
        raise _not_a_report(path, f"it is more than the {format_bytes(MAX_REPORT_BYTES)} a report can be")
    try:
        report = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise _not_a_report(path, "it is not a text file") from None
    except json.JSONDecodeError:
        raise _not_a_report(path, "it is not JSON") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's int-from-text limit)
        raise _not_a_report(path, "it holds a number too long to read") from None
    except RecursionError:
        raise _not_a_report(path, "it is nested too deeply") from None
    _validate(report, path)
    checked: dict[str, Any] = report  # _validate made sure it is a dict
    return checked


def _not_a_report(path: Path, why: str) -> InputError:
    hint = "" if path.suffix.lower() in ("", ".json") else " (only .json reports can be opened again)"
    return InputError(f"{path} is not a timing report: {why}{hint}")


def _validate(report: Any, path: Path) -> None:
    if not isinstance(report, dict) or "schema_version" not in report:
        raise _not_a_report(path, "it has no schema_version")
    version = report["schema_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _not_a_report(path, f"its schema_version {_short(version)} is not a positive whole number")
    if version > SCHEMA_VERSION:
        raise InputError(
            f"{path} was written by a newer torch-device-inspector (report schema {_short(version)}; "
            f"this version reads up to {SCHEMA_VERSION}): update torch-device-inspector to open it"
        )
    missing = [k for k in REQUIRED_KEYS if k not in report]
    if missing:
        raise _not_a_report(path, "it lacks " + ", ".join(missing))
    try:
        TimingReport.from_dict(report)
    except ReportSchemaError as exc:
        raise InputError(f"{path} is not a valid timing report: {exc.message}", kind=FailureKind.INPUT) from None


def _short(value: Any) -> str:
    """A value from the file, as one short line."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if abs(value) < 10**12 else "a very large number"
    if isinstance(value, (str, float, bool)) or value is None:
        text = json.dumps(value)
        return text if len(text) <= 40 else text[:37] + "..."
    return "a list" if isinstance(value, list) else "a mapping"


# --------------------------------------------------------------------------- render


def render_json(report: dict[str, Any]) -> str:
    return json.dumps(_plain(report), indent=2, allow_nan=False) + "\n"


def _shape_text(shape: Any) -> str:
    return "x".join(str(d) for d in shape) if isinstance(shape, (list, tuple)) else str(shape or "")


def _ms(value: Any) -> str:
    return format_ms(value if isinstance(value, (int, float)) else None)


def _gbps(value: Any) -> str:
    # As the window's history writes it: "< 0.01" for a trickle, never "0.00".
    return format_gbps(float(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else "—"


def _device_entries(devices: Any) -> list[dict[str, Any]]:
    """The device dicts, whether discovery gave a list or a mapping holding one."""
    if isinstance(devices, dict):
        devices = devices.get("devices", [])
    return [d for d in devices if isinstance(d, dict)] if isinstance(devices, list) else []


def _device_line(entry: dict[str, Any]) -> str:
    ident = entry.get("id", "?")
    name = entry.get("name")
    total = entry.get("total_bytes")
    text = f"{ident} ({name})" if name and name != ident else str(ident)
    return f"{text}, {format_bytes(total)}" if total is not None else text


def _environment_rows(env: dict[str, Any]) -> list[tuple[str, str]]:
    def val(key: str) -> str:
        value = env.get(key)
        return "—" if value in (None, "") else str(value)

    rows = [
        ("Python", f"{val('python')} ({val('python_implementation')})"),
        ("PyTorch", val("torch")),
        ("CUDA", val("cuda")),
        ("cuDNN", val("cudnn")),
        ("Driver", val("driver")),
        ("OS", val("os")),
        ("CPU", f"{val('cpu')}, {val('cpu_physical_cores')} cores / {val('cpu_logical_cores')} threads, "
                f"PyTorch uses {val('torch_threads')} threads"),
        ("Memory", format_bytes(env.get("system_memory_bytes"))),
    ]
    if env.get("cpu_huge_pages"):
        rows.append(("CPU pages", val("cpu_huge_pages")))
    if env.get("hip"):
        rows.insert(3, ("ROCm/HIP", val("hip")))
    entries = _device_entries(env.get("devices"))
    rows.append(("Devices", "; ".join(_device_line(d) for d in entries) or "—"))
    return rows


def _model_rows(model: dict[str, Any]) -> list[tuple[str, str]]:
    by_device = model.get("by_device") or {}
    where = "".join(f"; {dev}: {format_bytes(n)}" for dev, n in by_device.items())
    return [
        ("Spec", str(model.get("spec", "—"))),
        ("Class", str(model.get("class", "—"))),
        ("Parameters", f"{model.get('parameters', '—'):,}" if isinstance(model.get("parameters"), int) else "—"),
        ("Optimizer", str(model.get("optimizer") or "none")),
        ("Tensors", f"{model.get('tensors', '—')} ({format_bytes(model.get('bytes'))}{where}){_meta_note(model)}"),
    ]


def _meta_note(model: Mapping[str, Any]) -> str:
    meta = model.get("meta_bytes")
    return f"; {format_bytes(meta)} more on meta, not allocated" if isinstance(meta, int) and meta > 0 else ""


_MOVE_HEADERS = ("Call", "Source → target", "Time", "Bytes", "GB/s", "Result")
_LATENCY_HEADERS = (
    "Device", "dtype", "Mode", "Input", "First call", "Median", "Median 95 % CI", "IQR", "Mean", "p5", "p95", "Min",
    "Max", "Std", "Samples",
)
# The CPU's RSS has a column of its own: it is the process's resident memory, not allocated bytes.
_MEMORY_HEADERS = ("Device", "Readings", "Peak allocated", "Peak reserved", "Peak process RSS", "Peak used", "Total",
                   "Peak other processes")
_RANK_HEADERS = ("Rank", "Host", "Device", "Median", "p5", "p95", "Status")


def _rank_cells(entry: Mapping[str, Any]) -> tuple[str, ...]:
    """One torchrun rank: its first latency entry, or why it failed."""
    latency = entry.get("latency") or [{}]
    first = latency[0] if isinstance(latency[0], Mapping) else {}
    status = "ok" if entry.get("ok") else f"failed: {entry.get('error') or 'unknown error'}"
    return (str(entry.get("rank", "?")), str(entry.get("host", "?")), str(entry.get("device", "?")),
            _ms(first.get("median_ms")), _ms(first.get("p5_ms")), _ms(first.get("p95_ms")), status)  # fmt: skip
#: Columns of figures: right-aligned in the HTML page so digits line up; text stays left.
_NUMERIC_COLUMNS = frozenset({
    "Time", "Bytes", "GB/s",
    "First call", "Median", "Median 95 % CI", "IQR", "Mean", "p5", "p95", "Min", "Max", "Std", "Samples",
    "Readings", "Peak allocated", "Peak reserved", "Peak process RSS", "Peak used", "Total", "Peak other processes",
}) | report_modules.NUMERIC  # fmt: skip


def _error_message(error: Any) -> str:
    """A move's error in words. Reports hold it as ``{kind, message, detail}`` (older ones,
    and hand-made ones, as plain text); the message is what a reader needs."""
    if isinstance(error, Mapping):
        message = str(error.get("message") or "").strip()
        return message or str(error.get("kind") or "").strip() or "unknown error"
    return str(error or "").strip() or "unknown error"


def _error_kind(error: Any) -> str:
    return str(error.get("kind") or "") if isinstance(error, Mapping) else ""


def _move_result(move: dict[str, Any]) -> str:
    if move.get("ok"):
        return "ok"
    error = move.get("error")
    # "cancelled" is no failure of the device or the model: say which it was.
    label = "cancelled" if _error_kind(error) == "cancelled" else "failed"
    return f"{label}: {_error_message(error)}"


def _move_cells(move: dict[str, Any]) -> tuple[str, ...]:
    result = _move_result(move)
    seconds = move.get("seconds") if move.get("ok") else None  # a failed move has no time to show
    return (
        str(move.get("call", "")),
        f"{move.get('source', '?')} → {move.get('target', '?')}",
        format_seconds(seconds if isinstance(seconds, (int, float)) else None),
        format_bytes(move.get("bytes")),
        _gbps(move.get("gbps")),
        result,
    )


def latency_spread(entry: Mapping[str, Any]) -> tuple[float | None, tuple[float, float] | None, str | None]:
    """(IQR, median interval, noise note) of a latency entry: its own keys, or for a schema 1
    entry computed from its samples."""
    if "iqr_ms" in entry or "noise" in entry:
        interval = entry.get("median_ci_ms")
        ci = (float(interval[0]), float(interval[1])) if isinstance(interval, (list, tuple)) and len(interval) == 2 else None
        iqr = entry.get("iqr_ms")
        noise = entry.get("noise")
        return (float(iqr) if isinstance(iqr, (int, float)) else None), ci, (str(noise) if noise else None)
    samples = [v for v in entry.get("samples_ms") or () if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if not samples:
        return None, None, None
    spread = spread_of(samples)
    return spread.iqr_ms, spread.median_ci_ms, spread.noise


def _interval_text(interval: tuple[float, float] | None) -> str:
    return "—" if interval is None else f"{_ms(interval[0])} – {_ms(interval[1])}"


def _latency_cells(entry: dict[str, Any]) -> tuple[str, ...]:
    iqr, interval, _ = latency_spread(entry)
    return (
        str(entry.get("device", "")),
        str(entry.get("dtype", "")),
        str(entry.get("mode", "forward")),
        _shape_text(entry.get("input_shape")),
        _ms(entry.get("warmup_ms")),
        _ms(entry.get("median_ms")),
        _interval_text(interval),
        _ms(iqr),
        *(_ms(entry.get(k)) for k in ("mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms")),
        str(len(entry.get("samples_ms") or ())),
    )


def _latency_notes(latency: Sequence[Any]) -> list[str]:
    """Each entry's noise flag (named by its run) and notes, once each."""
    lines: list[str] = []
    for entry in latency:
        if not isinstance(entry, Mapping):
            continue
        noise = latency_spread(entry)[2]
        if noise:
            run = " ".join(str(entry.get(k, "")) for k in ("device", "dtype", "mode"))
            lines.append(f"{run}: {noise}")
        lines += [str(n) for n in entry.get("notes") or ()]
    return list(dict.fromkeys(lines))


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _md_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(report: dict[str, Any]) -> str:
    """A block to paste into a bug report or an issue."""
    lines = [
        "### torch-device-inspector timing report",
        "",
        f"Created {report.get('created', '—')}",
        "",
        "**Environment**",
        "",
    ]
    lines += [f"- {name}: {_md_cell(value)}" for name, value in _environment_rows(report.get("environment", {}))]
    lines += ["", "**Model**", ""]
    lines += [f"- {name}: {_md_cell(value)}" for name, value in _model_rows(report.get("model", {}))]
    lines += ["", "**Moves**", ""]
    moves = report.get("moves") or []
    lines += _md_table(_MOVE_HEADERS, map(_move_cells, moves)) if moves else ["No moves."]
    lines += ["", "**Latency**", ""]
    latency = report.get("latency") or []
    lines += _md_table(_LATENCY_HEADERS, map(_latency_cells, latency)) if latency else ["No latency measured."]
    notes = _latency_notes(latency)
    if notes:
        lines += [""] + [f"- {_md_cell(n)}" for n in notes]
    if report.get("ranks"):
        lines += ["", "**Ranks** (torchrun; the tables above are rank 0's)", ""]
        lines += _md_table(_RANK_HEADERS, map(_rank_cells, report["ranks"]))
    lines += _markdown_extras(report)
    return "\n".join(lines) + "\n"


def _markdown_extras(report: dict[str, Any]) -> list[str]:
    """The per-module and fit sections, when the report has them."""
    lines: list[str] = []
    top = report_modules.top_modules(report)
    if top:
        lines += ["", f"**Top modules** (by self time; {len(report.get('modules') or ())} in the JSON)", ""]
        lines += _md_table(report_modules.MODULE_HEADERS, map(report_modules.module_cells, top))
        lines += [""] + [f"- {_md_cell(t)}" for t in report_modules.attribution_lines(report)]
    fits = [f for f in report.get("fit") or () if isinstance(f, dict)]
    if fits:
        lines += ["", "**Will it fit?**", ""]
        lines += _md_table(report_modules.FIT_HEADERS, map(report_modules.fit_cells, fits))
    return lines


_CSV_COLUMNS = (
    "section", "phase", "device", "dtype", "mode", "input_shape", "index", "ms",
    "call", "method", "source", "target", "seconds", "bytes", "gbps", "ok", "error", "error_kind",
    "t", "allocated", "reserved", "process_rss", "used", "total", "other_processes",
    "median_ms", "iqr_ms", "median_ci_low_ms", "median_ci_high_ms", "noise",
)


def _csv_rows(report: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for entry in report.get("latency") or []:
        common = {
            "section": "latency",
            "device": entry.get("device"),
            "dtype": entry.get("dtype"),
            "mode": entry.get("mode", "forward"),
            "input_shape": _shape_text(entry.get("input_shape")),
        }
        for phase, key in (("warmup", "warmup_samples_ms"), ("timed", "samples_ms")):
            for i, ms in enumerate(entry.get(key) or ()):
                yield {**common, "phase": phase, "index": i, "ms": ms}
        # One row with the run's median and how far to trust it.
        iqr, interval, noise = latency_spread(entry)
        yield {**common, "phase": "summary", "median_ms": entry.get("median_ms"), "iqr_ms": iqr,
               "median_ci_low_ms": interval[0] if interval else None,
               "median_ci_high_ms": interval[1] if interval else None, "noise": noise}  # fmt: skip
    for move in report.get("moves") or []:
        row = {"section": "move", **{k: move.get(k) for k in _CSV_COLUMNS if k in move}}
        error = move.get("error")
        if error:
            row["error"], row["error_kind"] = _error_message(error), _error_kind(error) or None
        yield row
    for device, points in (report.get("memory") or {}).items():
        for i, point in enumerate(points):
            values = report_point(str(device), point)
            yield {"section": "memory", "device": device, "index": i, **values}


def _csv_cell(value: Any) -> Any:
    # A text cell starting with = + - @ is run as a formula by spreadsheets: quote it.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def render_csv(report: dict[str, Any]) -> str:
    """Tidy rows: one per latency sample, per move, per memory point; ``section`` tells which."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=_CSV_COLUMNS, restval="", extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in _csv_rows(report):
        writer.writerow({k: _csv_cell(v) for k, v in row.items() if v is not None})
    return out.getvalue()


_HTML_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px;
       padding: 0 1em; color: #1d2330; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #d8dce4; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #d8dce4; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f1f3f7; } .num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; border: 1px solid #d8dce4; margin: .5em 0; }
.muted { color: #5c6475; }
"""


def _html_kv(rows: Iterable[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _html_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A table whose figure columns (``_NUMERIC_COLUMNS``, header and cells) are right-aligned."""
    numeric = [h in _NUMERIC_COLUMNS for h in headers]
    head = "".join(f'<th{" class=num" if n else ""}>{html.escape(h)}</th>' for h, n in zip(headers, numeric))
    body = "".join(
        "<tr>"
        + "".join(f'<td{" class=num" if n else ""}>{html.escape(c)}</td>' for c, n in zip(row, numeric))
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _memory_summary_rows(memory: dict[str, Any]) -> list[tuple[str, ...]]:
    rows = []
    for device, points in memory.items():
        labelled = [report_point(str(device), p) for p in points]

        def peak(field: str) -> str:
            values = [float(v) for p in labelled if isinstance(v := p.get(field), (int, float))]
            return format_bytes(max(values)) if values else "—"

        rows.append((str(device), str(len(points)), *(peak(f) for f in _MEMORY_FIELDS)))
    return rows


def _pyside6_installed() -> bool:
    try:  # looks for the package without importing it: core never imports Qt
        return importlib.util.find_spec("PySide6") is not None
    except (ImportError, ValueError):
        return False


def _plots_html(images: Mapping[str, bytes] | None) -> str:
    if not images:
        if not _pyside6_installed():
            why = "The plots were left out because PySide6 is not installed."
        else:
            why = "The plots were left out of this report."
        return f'<p class="muted">{html.escape(why)}</p>'
    parts = []
    for title, png in images.items():
        data = base64.b64encode(bytes(png)).decode("ascii")
        parts.append(
            f"<h3>{html.escape(str(title))}</h3>"
            f'<img alt="{html.escape(str(title), quote=True)}" src="data:image/png;base64,{data}">'
        )
    return "".join(parts)


def _html_extras(report: dict[str, Any]) -> list[str]:
    parts: list[str] = []
    top = report_modules.top_modules(report)
    if top:
        parts += [
            "<h2>Top modules</h2>",
            f"<p class=muted>By self time; all {len(report.get('modules') or ())} modules are in the JSON report.</p>",
            _html_table(report_modules.MODULE_HEADERS, map(report_modules.module_cells, top)),
            "".join(f"<p class=muted>{html.escape(t)}</p>" for t in report_modules.attribution_lines(report)),
        ]
    fits = [f for f in report.get("fit") or () if isinstance(f, dict)]
    if fits:
        parts += ["<h2>Will it fit?</h2>", _html_table(report_modules.FIT_HEADERS, map(report_modules.fit_cells, fits))]
    return parts


def render_html(report: dict[str, Any], images: Mapping[str, bytes] | None = None) -> str:
    """One self-contained page (no external files or network): tables and embedded PNG plots."""
    model = report.get("model", {})
    moves = report.get("moves") or []
    latency = report.get("latency") or []
    memory = report.get("memory") or {}
    title = f"Timing report — {model.get('spec', 'model')}"
    notes = _latency_notes(latency)
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="muted">Created {html.escape(str(report.get("created", "—")))} by torch-device-inspector '
        f'{html.escape(str(report.get("tool", {}).get("version", "")))}, report schema '
        f'{html.escape(str(report.get("schema_version")))}.</p>',
        "<h2>Environment</h2>",
        _html_kv(_environment_rows(report.get("environment", {}))),
        "<h2>Model</h2>",
        _html_kv(_model_rows(model)),
        "<h2>Moves</h2>",
        _html_table(_MOVE_HEADERS, map(_move_cells, moves)) if moves else "<p>No moves.</p>",
        "<h2>Latency</h2>",
        _html_table(_LATENCY_HEADERS, map(_latency_cells, latency)) if latency else "<p>No latency measured.</p>",
        "".join(f"<p class=muted>{html.escape(n)}</p>" for n in notes),
        *_html_extras(report),
        *(["<h2>Ranks</h2>", "<p class=muted>torchrun; the tables above are rank 0's.</p>",
            _html_table(_RANK_HEADERS, map(_rank_cells, report["ranks"]))] if report.get("ranks") else []),
        "<h2>Memory</h2>",
        _html_table(_MEMORY_HEADERS, _memory_summary_rows(memory)) if memory else "<p>No memory readings.</p>",
        "<h2>Plots</h2>",
        _plots_html(images),
    ]
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_HTML_STYLE}</style></head><body>\n"
        + "\n".join(sections)
        + "\n</body></html>\n"
    )
