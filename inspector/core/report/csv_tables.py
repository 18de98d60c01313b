"""The timing report as tidy tables: one table per section, one row per observation, one
column per variable, so a spreadsheet's pivot table or ``pandas.pivot_table`` reads it as it is.

``csv_view`` writes them: ``.csv`` is the ``samples`` table alone (the one to pivot: medians
per device and dtype); ``.zip`` holds every table as its own CSV. Each table is a ``Table``:
its file name, its columns and its rows (dicts; a missing key or None is an empty cell).

A report file is read as an attacker might have written it, and the sections these tables
read beyond the checked ones (``modules``, ``attribution``, ``fit``) are not checked by
``schema``: every value here is taken for what it is only when it has the expected type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from inspector.core.measure.memory_log import REPORT_FIELDS, report_point
from inspector.core.measure.planned_device import device_label
from inspector.core.report.view_rows import error_kind, error_message, latency_spread, shape_text

Row = dict[str, Any]

#: The keys of one latency measurement, first in every latency table: what one pivots by.
LATENCY_KEYS = ("device", "dtype", "mode", "input_shape")


@dataclass(frozen=True)
class Table:
    """One CSV table: ``name`` (its file name in the zip), ``columns``, ``rows`` of the report,
    and ``about`` (one line for the zip's README)."""

    name: str
    columns: tuple[str, ...]
    rows: Callable[[Mapping[str, Any]], Iterable[Row]]
    about: str
    #: Written even when the report has no rows for it (a header alone): the tables every
    #: report has, so a script reading many zips finds them in each.
    always: bool = True


def _dicts(value: Any) -> list[Mapping[str, Any]]:
    """The dict items of a list; nothing for anything else (an unchecked section may be anything)."""
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, (list, tuple)) else []


def _number(value: Any) -> float | int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if isinstance(value, int) or math.isfinite(value) else None  # (an int of any size is finite)


def _numbers(value: Any) -> list[float | int]:
    if not isinstance(value, (list, tuple)):
        return []
    return [v for v in (_number(x) for x in value) if v is not None]


def _scalar(value: Any) -> Any:
    """A value as one cell: numbers, text and true/false as they are, anything else as text."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return _number(value)
    return str(value)


def _texts(value: Any) -> str | None:
    """A list of notes or warnings as one cell, "; " between them."""
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value) or None
    return _scalar(value) if value else None


def _shapes(value: Any) -> str | None:
    """``[[64, 1], [64, 2]]`` as ``64x1; 64x2``."""
    if not isinstance(value, (list, tuple)):
        return None
    return "; ".join(shape_text(s) for s in value) or None


def _keys(entry: Mapping[str, Any]) -> Row:
    return {
        "device": _scalar(entry.get("device")),
        "dtype": _scalar(entry.get("dtype")),
        "mode": _scalar(entry.get("mode", "forward")),
        "input_shape": shape_text(entry.get("input_shape")),
    }


def _runs_of(entry: Mapping[str, Any]) -> list[list[float | int]]:
    """The entry's timed samples, run by run: its ``runs_ms`` when they are its samples (as
    ``schema`` checks of a loaded report), else its samples as one run."""
    samples = _numbers(entry.get("samples_ms"))
    runs = [_numbers(r) for r in entry.get("runs_ms") or ()] if isinstance(entry.get("runs_ms"), list) else []
    if len(runs) >= 2 and [v for r in runs for v in r] == samples:
        return runs
    return [samples]


# --------------------------------------------------------------------------- the tables


SAMPLE_COLUMNS = (*LATENCY_KEYS, "run", "phase", "index", "ms", "threads")


def sample_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per latency sample: the warm-up's (phase ``warmup``, run 0) and the timed ones
    (phase ``timed``; ``run``: the sample's run in ``runs_ms``, 0 for an entry of one run;
    ``index``: its place in that run, or in the warm-up)."""
    for entry in _dicts(report.get("latency")):
        keys = {**_keys(entry), "threads": _scalar(entry.get("threads"))}
        for i, ms in enumerate(_numbers(entry.get("warmup_samples_ms"))):
            yield {**keys, "run": 0, "phase": "warmup", "index": i, "ms": ms}
        for run, samples in enumerate(_runs_of(entry)):
            for i, ms in enumerate(samples):
                yield {**keys, "run": run, "phase": "timed", "index": i, "ms": ms}


LATENCY_COLUMNS = (
    *LATENCY_KEYS, "median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms", "iqr_ms",
    "median_ci_low_ms", "median_ci_high_ms", "noisy", "noise", "threads", "runs", "samples", "warmup_samples",
    "warmup_ms", "first_calls_ms", "samples_asked", "min_time_s", "timer", "pair_id", "notes",
)  # fmt: skip


def latency_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per latency entry: its figures, its spread and how it was taken. ``runs``: its
    independent runs (``runs_ms``; 1 without); ``samples_asked``: the ``--runs`` asked of each."""
    for entry in _dicts(report.get("latency")):
        iqr, interval, noise = latency_spread(entry)
        figures = {k: _number(entry.get(k)) for k in ("median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms")}
        yield {
            **_keys(entry), **figures, "iqr_ms": iqr,
            "median_ci_low_ms": interval[0] if interval else None, "median_ci_high_ms": interval[1] if interval else None,
            "noisy": entry.get("noisy") if isinstance(entry.get("noisy"), bool) else None, "noise": noise,
            "threads": _scalar(entry.get("threads")), "runs": len(_runs_of(entry)),
            "samples": len(_numbers(entry.get("samples_ms"))), "warmup_samples": len(_numbers(entry.get("warmup_samples_ms"))),
            "warmup_ms": _number(entry.get("warmup_ms")), "first_calls_ms": _number(entry.get("first_calls_ms")),
            "samples_asked": _number(entry.get("runs")), "min_time_s": _number(entry.get("min_time")),
            "timer": _scalar(entry.get("timer")), "pair_id": _scalar(entry.get("pair_id")), "notes": _texts(entry.get("notes")),
        }  # fmt: skip


MOVE_COLUMNS = (
    "call", "method", "source", "target", "dtype", "pinned", "seconds", "bytes", "gbps", "ok", "error", "error_kind",
    "note", "warnings",
)  # fmt: skip


def move_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per move, in the order they ran."""
    for move in _dicts(report.get("moves")):
        row = {k: _scalar(move.get(k)) for k in MOVE_COLUMNS if k not in ("error", "error_kind", "warnings")}
        row["warnings"] = _texts(move.get("warnings"))
        error = move.get("error")
        if error:
            row["error"], row["error_kind"] = error_message(error), error_kind(error) or None
        yield row


MEMORY_COLUMNS = ("device", "index", "t", *REPORT_FIELDS)


def memory_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per memory reading: ``t`` seconds since the session started, bytes (empty: the
    device cannot tell; the CPU's process RSS is ``process_rss``, never ``allocated``)."""
    memory = report.get("memory")
    if not isinstance(memory, Mapping):
        return
    for device, points in memory.items():
        for i, point in enumerate(points if isinstance(points, list) else ()):
            values = report_point(str(device), point)
            yield {"device": str(device), "index": i, **{k: _number(v) for k, v in values.items()}}


MODULE_COLUMNS = (
    "run", "device", "dtype", "name", "type", "depth", "is_leaf", "calls", "self_ms", "median_ms", "share", "flops",
    "flops_per_s", "activation_bytes", "parameters_bytes", "output_shapes",
)  # fmt: skip


def _attribution_runs(report: Mapping[str, Any]) -> list[tuple[int, str | None, list[Mapping[str, Any]]]]:
    """The report's ``modules`` split into their per-module runs: (run, dtype, modules). Each
    run lists its modules in call order, the model itself (depth 0) first, so a depth-0 module
    starts a run; the n-th run is ``attribution[n]`` (its dtype), when the runs and the
    attribution entries agree on the devices."""
    runs: list[list[Mapping[str, Any]]] = []
    for module in _dicts(report.get("modules")):
        if not runs or module.get("depth") == 0 or module.get("device") != runs[-1][0].get("device"):
            runs.append([])
        runs[-1].append(module)
    entries = _dicts(report.get("attribution"))
    agree = len(entries) == len(runs) and all(e.get("device") == r[0].get("device") for e, r in zip(entries, runs))
    out = []
    for n, modules in enumerate(runs):
        dtype = entries[n].get("dtype") if agree else None
        out.append((n, dtype if isinstance(dtype, str) else None, modules))
    return out


#: The model's own row's ``name`` in ``modules.csv``. The JSON keeps torch's qualified name, ""
#: (``named_modules``); an empty cell is what pandas reads as NaN and ``groupby`` drops, so the
#: table writes the word the CLI table, the HTML report and the window show for it.
MODEL_ROW_NAME = "(model)"


def module_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per module per per-module run (``bench --per-module``): its own time (``self_ms``),
    its time with its children (``median_ms``), its ``share`` of the forward, FLOPs,
    activation bytes and output shapes. ``name`` is ``MODEL_ROW_NAME`` for the model itself."""
    for run, dtype, modules in _attribution_runs(report):
        for module in modules:
            row = {k: _scalar(module.get(k)) for k in MODULE_COLUMNS if k not in ("run", "dtype", "output_shapes")}
            if row["name"] == "":
                row["name"] = MODEL_ROW_NAME
            yield {**row, "run": run, "dtype": dtype, "output_shapes": _shapes(module.get("output_shapes"))}


ATTRIBUTION_COLUMNS = (
    "run", "device", "dtype", "input_shapes", "samples", "total_flops", "forward_with_hooks_ms",
    "forward_without_hooks_ms", "overhead_ratio", "self_sum_ms", "sum_ratio", "module_calls", "warnings",
)  # fmt: skip


def attribution_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per per-module run: what the hooks cost and, in ``warnings``, why its figures
    are rough (empty when they hold)."""
    for run, entry in enumerate(_dicts(report.get("attribution"))):
        row = {k: _scalar(entry.get(k)) for k in ATTRIBUTION_COLUMNS if k not in ("run", "input_shapes", "warnings")}
        yield {**row, "run": run, "input_shapes": _shapes(entry.get("input_shapes")), "warnings": _texts(entry.get("warnings"))}


FIT_COLUMNS = (
    "device", "named_device", "dtype", "optimizer", "mode", "input_shapes", "largest_batch", "parameters_bytes", "buffers_bytes", "gradients_bytes",
    "optimizer_state_bytes", "activations_bytes", "estimated_peak_bytes", "measured_peak_bytes", "measured_reason",
    "measured_gap", "free_bytes", "free_limit", "margin_bytes", "fits", "device_present", "notes",
    "strategy", "gpus", "shard_size",
)  # fmt: skip
#: A distributed plan's keys (``fit[].cluster``) in its fit.csv row: empty for one device.
_CLUSTER_KEYS = ("strategy", "gpus", "shard_size")


def fit_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per "will it fit?" estimate."""
    for entry in _dicts(report.get("fit")):
        cluster = _cluster(entry)
        row = {k: _scalar(cluster.get(k) if k in _CLUSTER_KEYS else entry.get(k))
               for k in FIT_COLUMNS if k not in ("input_shapes", "notes")}  # fmt: skip
        # A planned device by its plan ("RTX 4090, planned: not on this machine"), never only
        # the cuda:0 its plan was laid out on; the largest batch a search found (max_batch).
        search = entry.get("max_batch")
        device = entry.get("device")
        shown = device_label(device, entry.get("named_device"), entry.get("device_present")) if isinstance(device, str) else row["device"]
        yield {**row, "device": str(shown) if shown is not None else None,
               "largest_batch": _scalar(search.get("batch")) if isinstance(search, Mapping) else None,
               "input_shapes": _shapes(entry.get("input_shapes")), "notes": _texts(entry.get("notes"))}  # fmt: skip


def _cluster(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """A fit answer's distributed plan; {} for one device (or a file's entry holding no mapping)."""
    cluster = entry.get("cluster")
    return cluster if isinstance(cluster, Mapping) else {}


FIT_RANK_COLUMNS = ("fit", "rank", "strategy", "gpus", "planned_peak_bytes", "measured_peak_bytes", "ratio", "measured_reason")


def fit_rank_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per CPU rank measured for a distributed plan (``fit`` is the answer's row of
    fit.csv, from 0): its peak beside the plan's. A plan not proven has none (fit.csv has it)."""
    for index, entry in enumerate(_dicts(report.get("fit"))):
        cluster = _cluster(entry)
        keys = {"fit": index, "strategy": _scalar(cluster.get("strategy")), "gpus": _scalar(cluster.get("gpus")),
                "measured_reason": _scalar(cluster.get("measured_reason"))}  # fmt: skip
        for rank in _dicts(cluster.get("ranks")):
            yield {**keys, **{k: _scalar(rank.get(k)) for k in ("rank", "planned_peak_bytes", "measured_peak_bytes", "ratio")}}


ENVIRONMENT_COLUMNS = ("key", "value")
#: The report's sections of one value each (flattened: ``environment.torch``,
#: ``model.by_device.cpu``, ``environment.devices.devices.0.name``).
_FACT_SECTIONS = ("schema_version", "created", "tool", "environment", "model")
#: Deeper than any real report nests; a hostile file's deeper parts are left out.
_MAX_DEPTH = 8


def environment_rows(report: Mapping[str, Any]) -> Iterator[Row]:
    """One row per fact of the report's ``environment`` and ``model`` (and its version and
    date), its key the path to it: ``environment.torch``, ``model.parameters``."""
    for section in _FACT_SECTIONS:
        if section in report:
            yield from _facts(section, report[section], 0)


def _facts(key: str, value: Any, depth: int) -> Iterator[Row]:
    if isinstance(value, Mapping):
        if depth < _MAX_DEPTH:
            for k, v in value.items():
                yield from _facts(f"{key}.{k}", v, depth + 1)
    elif isinstance(value, (list, tuple)) and any(isinstance(v, (Mapping, list, tuple)) for v in value):
        if depth < _MAX_DEPTH:
            for i, v in enumerate(value):
                yield from _facts(f"{key}.{i}", v, depth + 1)
    elif isinstance(value, (list, tuple)):
        yield {"key": key, "value": _texts(value)}
    else:
        yield {"key": key, "value": _scalar(value)}


SAMPLES = Table("samples.csv", SAMPLE_COLUMNS, sample_rows, "one row per latency sample (warm-up and timed); pivot it")
#: Every table of the zip, in the order it holds them.
TABLES = (
    SAMPLES,
    Table("latency.csv", LATENCY_COLUMNS, latency_rows, "one row per latency measurement: its figures and spread"),
    Table("moves.csv", MOVE_COLUMNS, move_rows, "one row per move of the model (.to/.cuda/.cpu)"),
    Table("memory.csv", MEMORY_COLUMNS, memory_rows, "one row per memory reading of a device, in bytes"),
    Table("modules.csv", MODULE_COLUMNS, module_rows, "one row per module per per-module run (--per-module; the model itself is named (model))", False),
    Table("attribution.csv", ATTRIBUTION_COLUMNS, attribution_rows, "one row per per-module run: the hooks' cost, warnings", False),
    Table("fit.csv", FIT_COLUMNS, fit_rows, 'one row per "will it fit?" estimate', False),
    Table("fit_ranks.csv", FIT_RANK_COLUMNS, fit_rank_rows, "one row per CPU rank measured for a distributed fit plan (fit --gpus)", False),
    Table("environment.csv", ENVIRONMENT_COLUMNS, environment_rows, "key, value: the machine, PyTorch and the model"),
)  # fmt: skip
#: Each table by its file name.
TABLE_BY_NAME = {t.name: t for t in TABLES}
