"""What every text view of a timing report shows: its rows and cells, worded once.

The Markdown, CSV and HTML views (``markdown_view``, ``csv_view``, ``html_view``) read a
report dict (built now, or loaded and checked by ``timing_report.load_report``) through these,
so a move, a latency run or the environment reads the same in each.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from inspector.core.files.terminal_text import one_line
from inspector.core.measure.spread import spread_of
from inspector.core.units import format_bytes, format_gbps, format_ms, format_seconds


#: The most characters one cell of a text view shows: a 100,000-character class name or
#: error message from a report file is shown as its start and its length.
CELL_LIMIT = 500


def cell_text(value: Any) -> str:
    """A value as one cell (or one line) of a text view: its control characters, newlines,
    carriage returns and bidi overrides escaped (``\\u202e``), never obeyed, and capped
    at ``CELL_LIMIT`` characters."""
    return one_line(value, CELL_LIMIT)


def shape_text(shape: Any) -> str:
    """``[1, 3, 224]`` as ``1x3x224``."""
    return "x".join(str(d) for d in shape) if isinstance(shape, (list, tuple)) else str(shape or "")


def ms_text(value: Any) -> str:
    """Milliseconds as every view writes them; "—" for anything not a number."""
    return format_ms(value if isinstance(value, (int, float)) else None)


def gbps_text(value: Any) -> str:
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


def environment_rows(env: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, value) rows of the report's ``environment``: Python, PyTorch, CUDA, ..., devices."""
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


def model_rows(model: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, value) rows of the report's ``model``: spec, class, parameters, tensors."""
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


MOVE_HEADERS = ("Call", "Source → target", "Time", "Bytes", "GB/s", "Result")
LATENCY_HEADERS = (
    "Device", "dtype", "Mode", "Input", "First call", "Median", "Median 95 % CI", "IQR", "Mean", "p5", "p95", "Min",
    "Max", "Std", "Samples", "Threads",
)
RANK_HEADERS = ("Rank", "Host", "Device", "Median", "p5", "p95", "Status")


def rank_cells(entry: Mapping[str, Any]) -> tuple[str, ...]:
    """One torchrun rank: its first latency entry, or why it failed."""
    latency = entry.get("latency") or [{}]
    first = latency[0] if isinstance(latency[0], Mapping) else {}
    status = "ok" if entry.get("ok") else f"failed: {entry.get('error') or 'unknown error'}"
    return (str(entry.get("rank", "?")), str(entry.get("host", "?")), str(entry.get("device", "?")),
            ms_text(first.get("median_ms")), ms_text(first.get("p5_ms")), ms_text(first.get("p95_ms")), status)  # fmt: skip


def error_message(error: Any) -> str:
    """A move's error in words. Reports hold it as ``{kind, message, detail}`` (older ones,
    and hand-made ones, as plain text); the message is what a reader needs."""
    if isinstance(error, Mapping):
        message = str(error.get("message") or "").strip()
        return message or str(error.get("kind") or "").strip() or "unknown error"
    return str(error or "").strip() or "unknown error"


def error_kind(error: Any) -> str:
    return str(error.get("kind") or "") if isinstance(error, Mapping) else ""


def _move_result(move: dict[str, Any]) -> str:
    if move.get("ok"):
        return "ok"
    error = move.get("error")
    # "cancelled" is no failure of the device or the model: say which it was.
    label = "cancelled" if error_kind(error) == "cancelled" else "failed"
    return f"{label}: {error_message(error)}"


def move_cells(move: dict[str, Any]) -> tuple[str, ...]:
    """One move under ``MOVE_HEADERS``."""
    result = _move_result(move)
    seconds = move.get("seconds") if move.get("ok") else None  # a failed move has no time to show
    return (
        str(move.get("call", "")),
        f"{move.get('source', '?')} → {move.get('target', '?')}",
        format_seconds(seconds if isinstance(seconds, (int, float)) else None),
        format_bytes(move.get("bytes")),
        gbps_text(move.get("gbps")),
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
    return "—" if interval is None else f"{ms_text(interval[0])} – {ms_text(interval[1])}"


def latency_cells(entry: dict[str, Any]) -> tuple[str, ...]:
    """One latency run under ``LATENCY_HEADERS``."""
    iqr, interval, _ = latency_spread(entry)
    return (
        str(entry.get("device", "")),
        str(entry.get("dtype", "")),
        str(entry.get("mode", "forward")),
        shape_text(entry.get("input_shape")),
        ms_text(entry.get("warmup_ms")),
        ms_text(entry.get("median_ms")),
        _interval_text(interval),
        ms_text(iqr),
        *(ms_text(entry.get(k)) for k in ("mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms")),
        str(len(entry.get("samples_ms") or ())),
        cell_text(entry.get("threads")) if entry.get("threads") is not None else "—",
    )


def latency_notes(latency: Sequence[Any]) -> list[str]:
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
