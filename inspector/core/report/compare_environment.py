"""Where two timing reports were made, side by side: environment, devices and model, each
fact flagged where the two differ (the Compare view's Environment table).

Reads the reports as ``TimingReport``s (``schema``; a script's dict read first by
``TimingReport.lenient``, where a field of the wrong type counts as absent and shows as "—").
"""

from __future__ import annotations

import dataclasses

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from inspector.core.messages import Text
from inspector.core.report import lenient_read as read
from inspector.core.report.schema import DeviceEntry, ModelSection, TimingReport
from inspector.core.units import format_bytes


@dataclass(frozen=True)
class EnvironmentRow:
    """One fact about where a report was made (``section``: report, environment, device, model)."""

    section: str
    name: str
    a: str
    b: str
    differs: bool


_ENVIRONMENT_FIELDS = (
    ("python", "Python"),
    ("torch", "PyTorch"),
    ("cuda", "CUDA"),
    ("hip", "ROCm (HIP)"),
    ("cudnn", "cuDNN"),
    ("driver", Text("environment.driver")),
    ("os", "OS"),
    ("cpu", "CPU"),
    ("cpu_physical_cores", Text("environment.cpu_cores")),
    ("cpu_logical_cores", Text("environment.cpu_threads")),
    ("torch_threads", Text("environment.torch_threads")),
    ("torch_interop_threads", Text("environment.torch_interop_threads")),
    ("system_memory_bytes", Text("environment.system_memory")),
    ("cpu_huge_pages", Text("environment.cpu_huge_pages")),
)
_MODEL_FIELDS = (
    ("spec", Text("environment.model")),
    ("class", Text("environment.class")),
    ("parameters", Text("environment.parameters")),
    ("bytes", Text("environment.size")),
    ("by_dtype", Text("environment.dtypes")),
    ("optimizer", Text("environment.optimizer")),
)


def _show(value: Any, *, as_bytes: bool = False) -> str:
    if value is None or value == "":
        return "—"
    number = read.number(value)
    if as_bytes and number is not None:
        return format_bytes(number)
    if isinstance(value, Mapping):
        return ", ".join(
            f"{read.text(k)}: {format_bytes(n) if (n := read.number(v)) is not None else read.text(v)}"
            for k, v in value.items()
        )
    if isinstance(value, int) and not isinstance(value, bool) and number is not None:
        return f"{value:,}"
    return read.text(value, "—")


def _device_text(entry: DeviceEntry) -> str:
    name = entry.name or entry.type or "?"
    return f"{name} · {format_bytes(entry.total_bytes)}" if entry.total_bytes is not None else name


def _environment(report: TimingReport, key: str) -> Any:
    environment = report.environment
    return environment.text[key] if key in environment.text else environment.counts.get(key)


def _model(model: ModelSection, key: str) -> Any:
    return {"spec": model.spec, "class": model.class_name, "parameters": model.parameters, "bytes": model.bytes,
            "by_dtype": model.by_dtype or None, "optimizer": model.optimizer}[key]  # fmt: skip


def environment_rows(a: TimingReport, b: TimingReport | None) -> Iterable[EnvironmentRow]:
    """Where ``a`` and ``b`` were made, fact by fact (``b`` None: ``a`` alone)."""
    alone = b is None
    b = b if b is not None else TimingReport.lenient({})

    def row(section: str, name: str, value_a: str, value_b: str) -> EnvironmentRow:
        return EnvironmentRow(section, name, value_a, "" if alone else value_b,
                              differs=not alone and value_a != value_b)  # fmt: skip

    yield row("report", Text("environment.created"), _show(a.created), _show(b.created))
    for key, name in _ENVIRONMENT_FIELDS:
        as_bytes = key.endswith("_bytes")
        value_a, value_b = _environment(a, key), _environment(b, key)
        if value_a is None and value_b is None:
            continue  # e.g. ROCm on two CUDA machines: a row of dashes says nothing
        yield row("environment", name, _show(value_a, as_bytes=as_bytes), _show(value_b, as_bytes=as_bytes))
    devices_a = {d.id if d.id is not None else "?": _device_text(d) for d in a.environment.devices}
    devices_b = {d.id if d.id is not None else "?": _device_text(d) for d in b.environment.devices}
    for device in read.union(devices_a, devices_b):
        yield row("device", device, devices_a.get(device, "—"), devices_b.get(device, "—"))
    for key, name in _MODEL_FIELDS:
        as_bytes = key == "bytes"
        value_a, value_b = _model(a.model, key), _model(b.model, key)
        shown = row("model", name, _show(value_a, as_bytes=as_bytes), _show(value_b, as_bytes=as_bytes))
        if key == "spec" and shown.differs and _same_file(a.model, b.model):
            shown = dataclasses.replace(shown, differs=False)  # one file, named from two folders
        yield shown


def _same_file(model_a: ModelSection, model_b: ModelSection) -> bool:
    """Both reports name the same resolved file and factory (``resolved_spec``, written since
    issue 34; an older report has none, and its spec text is all there is)."""
    return bool(model_a.resolved_spec) and model_a.resolved_spec == model_b.resolved_spec

