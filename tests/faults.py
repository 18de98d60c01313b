"""Faults several test modules inject the same way."""

from __future__ import annotations

from inspector.core import atomic_write


def fill_disk_half_way_through_report_writes(monkeypatch) -> None:
    """Every write of a file from now on (a report, the metrics, the noise record: the app's one
    writer, ``core.atomic_write``) stops half-way with ENOSPC, as on a full disk."""

    def write_half_then_fail(fh, data):
        fh.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic_write, "_write_payload", write_half_then_fail)
