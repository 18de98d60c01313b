"""Where two timing reports were made, side by side: environment, devices and model, each
fact flagged where the two differ (the Compare view's Environment table).

Reads the reports through ``lenient_read``, so a field of the wrong type shows as "—".
"""

from __future__ import annotations

import dataclasses

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from inspector.core.messages import Text
from inspector.core.report import lenient_read as read
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


def _device_text(entry: Mapping[str, Any]) -> str:
    name = read.text(entry.get("name") or entry.get("type") or "?")
    total = read.number(entry.get("total_bytes"))
    return f"{name} · {format_bytes(total)}" if total is not None else name


def environment_rows(a: Mapping[str, Any], b: Mapping[str, Any]) -> Iterable[EnvironmentRow]:
    """Where ``a`` and ``b`` were made, fact by fact (``b`` empty: ``a`` alone)."""
    alone = not b

    def row(section: str, name: str, value_a: str, value_b: str) -> EnvironmentRow:
        return EnvironmentRow(section, name, value_a, "" if alone else value_b,
                              differs=not alone and value_a != value_b)  # fmt: skip

    yield row("report", Text("environment.created"), _show(a.get("created")), _show(b.get("created")))
    env_a, env_b = read.section(a, "environment"), read.section(b, "environment")
    for key, name in _ENVIRONMENT_FIELDS:
        as_bytes = key.endswith("_bytes")
        if env_a.get(key) is None and env_b.get(key) is None:
            continue  # e.g. ROCm on two CUDA machines: a row of dashes says nothing
        yield row("environment", name, _show(env_a.get(key), as_bytes=as_bytes), _show(env_b.get(key), as_bytes=as_bytes))
    devices_a = {read.text(d.get("id")): _device_text(d) for d in read.device_entries(a)}
    devices_b = {read.text(d.get("id")): _device_text(d) for d in read.device_entries(b)}
    for device in read.union(devices_a, devices_b):
        yield row("device", device, devices_a.get(device, "—"), devices_b.get(device, "—"))
    model_a, model_b = read.section(a, "model"), read.section(b, "model")
    for key, name in _MODEL_FIELDS:
        as_bytes = key == "bytes"
        shown = row("model", name, _show(model_a.get(key), as_bytes=as_bytes), _show(model_b.get(key), as_bytes=as_bytes))
        if key == "spec" and shown.differs and _same_file(model_a, model_b):
            shown = dataclasses.replace(shown, differs=False)  # one file, named from two folders
        yield shown


def _same_file(model_a: Mapping[str, Any], model_b: Mapping[str, Any]) -> bool:
    """Both reports name the same resolved file and factory (``resolved_spec``, written since
    issue 34; an older report has none, and its spec text is all there is)."""
    resolved_a, resolved_b = read.text(model_a.get("resolved_spec"), ""), read.text(model_b.get("resolved_spec"), "")
    return bool(resolved_a) and resolved_a == resolved_b

