"""What every text view of a timing report shows: its rows and cells, worded once.

The Markdown, CSV and HTML views (``markdown_view``, ``csv_view``, ``html_view``) read a
report (a ``schema.TimingReport``: loaded and checked by ``timing_report.load_report``, or
built now; a script's dict is read at the edge by ``TimingReport.lenient``) through these, so a move, a latency run or the
environment reads the same in each. Moves, latency runs and ranks are read as their typed
entries (a run's figures are its samples'); the environment and the model as the report's
sections, and the CSV tables mirror the file's own keys (``latency_spread``, ``error_message``).

Rows and cells are said in a report's language (``say``, a ``messages.catalogue.Catalogue``;
English by default): names, headers and sentences through its words (each marked
``word("...")`` for the translators), core's texts through their templates; numbers, units,
device ids, dtypes, code and everything that came from the machine or the model stay as they
are. Headers are English here and translated where shown, so the views key on them alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from inspector.core.files.terminal_text import one_line
from inspector.core.measure.spread import spread_of
from inspector.core.messages.catalogue import ENGLISH_CATALOGUE, Catalogue, word
from inspector.core.units import format_bytes, format_gbps, format_ms, format_seconds

if TYPE_CHECKING:
    # (hints only: the window's tensor tree reaches this module, through ``modules.format_flops``,
    # while its frame paints; the schema costs ~8 ms to import)
    from inspector.core.measure.measurement import LatencyResult
    from inspector.core.report.schema import DeviceEntry, Environment, ModelSection, MoveEntry, RankEntry


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


def _device_line(entry: DeviceEntry) -> str:
    ident = entry.id if entry.id is not None else "?"
    name = entry.name
    text = f"{ident} ({name})" if name and name != ident else ident
    return f"{text}, {format_bytes(entry.total_bytes)}" if entry.total_bytes is not None else text


def environment_rows(env: Environment, say: Catalogue = ENGLISH_CATALOGUE) -> list[tuple[str, str]]:
    """(name, value) rows of the report's ``environment``: Python, PyTorch, CUDA, ..., devices."""
    def value(key: str) -> Any:
        return env.text[key] if key in env.text else env.counts.get(key)

    def val(key: str) -> str:
        shown = value(key)
        return "—" if shown in (None, "") else str(shown)

    cpu = say.word("{cpu}, {cores} cores / {threads} threads, PyTorch uses {torch_threads} threads", cpu=val("cpu"),
                   cores=val("cpu_physical_cores"), threads=val("cpu_logical_cores"), torch_threads=val("torch_threads"))  # fmt: skip
    rows = [
        ("Python", f"{val('python')} ({val('python_implementation')})"),
        ("PyTorch", val("torch")),
        ("CUDA", val("cuda")),
        ("cuDNN", val("cudnn")),
        (say.word("Driver"), val("driver")),
        (say.word("OS"), val("os")),
        ("CPU", cpu),
        (say.word("Memory"), format_bytes(value("system_memory_bytes"))),
    ]
    if value("cpu_huge_pages"):
        rows.append((say.word("CPU pages"), say.text(value("cpu_huge_pages"))))
    if value("hip"):
        rows.insert(3, ("ROCm/HIP", val("hip")))
    rows.append((say.word("Devices"), "; ".join(_device_line(d) for d in env.devices) or "—"))
    return rows


def model_rows(model: ModelSection, say: Catalogue = ENGLISH_CATALOGUE) -> list[tuple[str, str]]:
    """(name, value) rows of the report's ``model``: spec, class, parameters, tensors."""
    where = "".join(f"; {dev}: {format_bytes(n)}" for dev, n in model.by_device.items())
    tensors = model.tensors if model.tensors is not None else "—"
    return [
        (say.word("Spec"), model.spec if model.spec is not None else "—"),
        (say.word("Class"), model.class_name if model.class_name is not None else "—"),
        (say.word("Parameters"), f"{model.parameters:,}" if model.parameters is not None else "—"),
        (say.word("Optimizer"), model.optimizer if model.optimizer else say.word("none")),
        (say.word("Tensors"), f"{tensors} ({format_bytes(model.bytes)}{where}){_meta_note(model, say)}"),
    ]


def _meta_note(model: ModelSection, say: Catalogue) -> str:
    meta = model.meta_bytes
    if meta is None or meta <= 0:
        return ""
    return say.word("; {size} more on meta, not allocated", size=format_bytes(meta))


MOVE_HEADERS = (word("Call"), word("Source → target"), word("Time"), word("Bytes"), "GB/s", word("Result"))
LATENCY_HEADERS = (
    word("Device"), "dtype", word("Mode"), word("Input"), word("First call"), word("Median"), word("Median 95 % CI"),
    "IQR", word("Mean"), "p5", "p95", word("Min"), word("Max"), word("Std"), word("Samples"), word("Threads"),
)
RANK_HEADERS = (word("Rank"), word("Host"), word("Device"), word("Median"), "p5", "p95", word("Status"))
#: A latency run's mode as a report says it (the value, ``BenchMode``, is an identifier).
MODE_WORDS = {"forward": word("forward"), "train-step": word("train-step")}


def headers(names: Sequence[str], say: Catalogue = ENGLISH_CATALOGUE) -> tuple[str, ...]:
    """Table headers (English, as the views key on them) in ``say``'s language."""
    return tuple(say.word(name) for name in names)


def mode_text(mode: Any, say: Catalogue = ENGLISH_CATALOGUE) -> str:
    """``forward`` / ``train-step`` in the report's language; another value as it is."""
    text = str(mode)
    return say.word(MODE_WORDS[text]) if text in MODE_WORDS else text


def rank_cells(entry: RankEntry, say: Catalogue = ENGLISH_CATALOGUE) -> tuple[str, ...]:
    """One torchrun rank: its first latency entry, or why it failed."""
    first = entry.latency[0] if entry.latency else None
    if entry.ok:
        status = say.word("ok")
    else:
        status = say.word("failed: {error}", error=say.text(entry.error) or say.word("unknown error"))
    figures = (first.median_ms, first.p5_ms, first.p95_ms) if first is not None else (None, None, None)
    return (str(entry.rank), _or_unknown(entry.host), _or_unknown(entry.device), *(ms_text(v) for v in figures), status)


def _or_unknown(value: str | None) -> str:
    return value if value is not None else "?"


def error_message(error: Any, say: Catalogue = ENGLISH_CATALOGUE) -> str:
    """A move's error in words. Reports hold it as ``{kind, message, detail}`` (older ones,
    and hand-made ones, as plain text); the message is what a reader needs."""
    if isinstance(error, Mapping):
        message = say.text(error.get("message") or "").strip()
        return message or str(error.get("kind") or "").strip() or say.word("unknown error")
    return say.text(error or "").strip() or say.word("unknown error")


def error_kind(error: Any) -> str:
    return str(error.get("kind") or "") if isinstance(error, Mapping) else ""


def _move_result(move: MoveEntry, say: Catalogue) -> str:
    if move.ok:
        return say.word("ok")
    message = say.text(move.error or "").strip() or (move.error_kind or "").strip() or say.word("unknown error")
    # "cancelled" is no failure of the device or the model: say which it was.
    if move.error_kind == "cancelled":
        return say.word("cancelled: {error}", error=message)
    return say.word("failed: {error}", error=message)


def move_cells(move: MoveEntry, say: Catalogue = ENGLISH_CATALOGUE) -> tuple[str, ...]:
    """One move under ``MOVE_HEADERS``."""
    return (
        move.call or "",
        f"{_or_unknown(move.source)} → {_or_unknown(move.target)}",
        format_seconds(move.seconds if move.ok else None),  # a failed move has no time to show
        format_bytes(move.bytes),
        gbps_text(move.gbps),
        _move_result(move, say),
    )


def latency_spread(entry: Mapping[str, Any]) -> tuple[float | None, tuple[float, float] | None, str | None]:
    """(IQR, median interval, noise note) of a latency entry: its own keys, or for a schema 1
    entry computed from its samples."""
    if "iqr_ms" in entry or "noise" in entry:
        interval = entry.get("median_ci_ms")
        ci = (float(interval[0]), float(interval[1])) if isinstance(interval, (list, tuple)) and len(interval) == 2 else None
        iqr = entry.get("iqr_ms")
        noise = entry.get("noise")
        # (a Text stays one: a report in another language says it in that language)
        said = (noise if isinstance(noise, str) else str(noise)) if noise else None
        return (float(iqr) if isinstance(iqr, (int, float)) else None), ci, said
    samples = [v for v in entry.get("samples_ms") or () if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if not samples:
        return None, None, None
    spread = spread_of(samples)
    return spread.iqr_ms, spread.median_ci_ms, spread.noise


def _interval_text(interval: tuple[float, float] | None) -> str:
    return "—" if interval is None else f"{ms_text(interval[0])} – {ms_text(interval[1])}"


def latency_cells(entry: LatencyResult, say: Catalogue = ENGLISH_CATALOGUE) -> tuple[str, ...]:
    """One latency run under ``LATENCY_HEADERS``: its figures are its samples' (``LatencyResult``)."""
    return (
        entry.device,
        entry.dtype,
        mode_text(entry.mode, say),
        shape_text(entry.input_shape),
        ms_text(entry.warmup_ms),
        ms_text(entry.median_ms),
        _interval_text(entry.median_ci_ms),
        ms_text(entry.iqr_ms),
        *(ms_text(v) for v in (entry.mean_ms, entry.p5_ms, entry.p95_ms, entry.min_ms, entry.max_ms, entry.std_ms)),
        str(len(entry.samples_ms)),
        cell_text(entry.threads) if entry.threads is not None else "—",
    )


def latency_notes(latency: Sequence[LatencyResult], say: Catalogue = ENGLISH_CATALOGUE) -> list[str]:
    """Each entry's noise flag (named by its run) and notes, once each."""
    lines: list[str] = []
    for entry in latency:
        noise = entry.noise
        if noise:
            lines.append(f"{entry.device} {entry.dtype} {mode_text(entry.mode, say)}: {say.text(noise)}")
        lines += [say.text(n) for n in entry.notes]
    return list(dict.fromkeys(lines))
