"""The devices table as CSV text, and the action's callback that puts it on the clipboard.

One row per device of the inventory the session state holds (``DeviceInventory``), in its
order; the memory columns are the latest reading of each device where there is one (what the
devices table's bars show), else what the inventory found. Data for a program, so the columns
keep core's names and are not translated. A device's name is the driver's (or a remote
agent's) text: a cell that a spreadsheet would take for a formula (``=``, ``+``, ``-``, ``@``,
a tab or a return first) is quoted with a leading ``'``, as OWASP advises for CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication

from inspector.gui.common.i18n import fill, translate

if TYPE_CHECKING:
    from inspector.core.devices import DeviceInventory, DeviceSnapshot, MemoryReading

COLUMNS = ("id", "type", "name", "total_bytes", "used_bytes", "allocated_bytes", "reserved_bytes", "free_bytes")
#: What a spreadsheet reads as the start of a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs as a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def csv_text(devices: Iterable[DeviceSnapshot], readings: Sequence[MemoryReading] = ()) -> str:
    """The devices (``DeviceSnapshot``s) as CSV: a header, then one line per device."""
    latest = {r.device: r for r in readings}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for d in devices:
        r = latest.get(d.id)
        total = r.total if r is not None and r.total is not None else d.total_bytes
        used = r.used if r is not None and r.used is not None else d.used_bytes
        allocated = r.allocated if r is not None and r.allocated is not None else d.allocated_bytes
        reserved = r.reserved if r is not None and r.reserved is not None else d.reserved_bytes
        writer.writerow((
            cell(str(d.id)), cell(str(d.type)), cell(str(d.name)), _number(total), _number(used), _number(allocated),
            _number(reserved), _number(d.free_bytes),
        ))  # fmt: skip
    return out.getvalue()


def _number(value: int | None) -> str:
    return "" if value is None else str(int(value))


def copy_devices_table(
    inventory: DeviceInventory | None, readings: Sequence[MemoryReading], say: Callable[[str], object]
) -> bool:
    """Put the devices table on the clipboard, saying so; with no devices known yet, say that
    instead and leave the clipboard alone. True when copied."""
    if inventory is None or not inventory.devices:
        say(translate("DevicesCsv", "The devices are not known yet: there is no table to copy"))
        return False
    QGuiApplication.clipboard().setText(csv_text(inventory.devices, readings))
    say(fill(translate("DevicesCsv", "Devices table copied as CSV: %1 rows"), len(inventory.devices)))
    return True
