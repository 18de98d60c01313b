"""How a fit answer's measured peak reads: on the CPU it is the process's RSS over one step
(``fit_proof``, ``process_peak``), which counts 4 KiB pages beside the process's own small
allocations, so a step under ``RSS_RESOLUTION`` reads as noise, often as 0. A table then says
"under 1.0 MiB: below what RSS resolves" and no ratio, never "0 B" and "0.000" (issue 45
item 3: the example's fit read as if its step took no memory at all).
"""

from __future__ import annotations

from typing import Any

from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: Below this a process RSS reading is within its noise (``fit.proof_cpu_process_small`` says so).
RSS_RESOLUTION = 1 << 20


def below_resolution(device: Any, measured: Any) -> bool:
    """The peak was read from the process's RSS (a CPU) and is under what it resolves."""
    on_cpu = isinstance(device, str) and device.partition(":")[0] == "cpu"
    number = isinstance(measured, int) and not isinstance(measured, bool)
    return on_cpu and number and 0 <= measured < RSS_RESOLUTION


def measured_text(device: Any, measured: Any) -> str | None:
    """The measured peak's cell when it is below resolution (None: show the figure)."""
    if below_resolution(device, measured):
        return Text("fit.peak_below_resolution", size=format_bytes(RSS_RESOLUTION))
    return None
