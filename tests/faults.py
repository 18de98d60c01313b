"""Faults several test modules inject the same way."""

from __future__ import annotations

from inspector.core.report import timing_report as report


def fill_disk_half_way_through_report_writes(monkeypatch) -> None:
    """Every report write from now on stops half-way with ENOSPC, as on a full disk."""

    def write_half_then_fail(fh, data):
        fh.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "_write_payload", write_half_then_fail)
