"""Timing reports for tests: written by the app's own writer, then changed as a test needs.

``real_report`` is what ``bench`` writes for the example model (its JSON values); the
helpers copy its latency entry with other samples (every figure recomputed as the
measurement computes it, so the reader accepts it), another key, or a lie.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Sequence

from inspector.core.files.models import example_model
from inspector.core.measure.timing import measure_latency
from inspector.core.report.sample_figures import figures_of
from inspector.core.report.timing_report import build_report, render_json
from tests.report_edge import typed


def real_report(runs: int = 20) -> dict[str, Any]:
    """A report as the app writes it: the example model measured on the CPU ``runs`` times."""
    loaded = example_model()
    return json.loads(render_json(typed(build_report(loaded, latency=[measure_latency(loaded, runs=runs)]))))


def with_samples(entry: dict[str, Any], samples: Sequence[float], **changes: Any) -> dict[str, Any]:
    """``entry`` holding ``samples``, its figures those of the samples, and ``changes``."""
    figures = figures_of(samples)
    assert figures is not None
    out = {**copy.deepcopy(entry), "samples_ms": list(samples), **figures.stated()}
    out.update(median_ci_ms=list(figures.median_ci_ms) if figures.median_ci_ms else None,
               noisy=figures.noise is not None, noise=figures.noise and str(figures.noise))  # fmt: skip
    out.update(changes)
    return out


def scaled(entry: dict[str, Any], factor: float, **changes: Any) -> dict[str, Any]:
    """The same measurement ``factor`` times as slow (every sample scaled)."""
    return with_samples(entry, [v * factor for v in entry["samples_ms"]], **changes)


def with_latency(report: dict[str, Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A copy of ``report`` whose latency entries are ``entries``."""
    out = copy.deepcopy(report)
    out["latency"] = [dict(e) for e in entries]
    return out


def unmatched(report: dict[str, Any], count: int, batch: int) -> dict[str, Any]:
    """``report`` with ``count`` entries on the CPU, inputs ``(batch, 1)`` … ``(batch, count)``:
    two of these with different batches have no entry in common, each entry's nearest
    counterpart differing in its input shape."""
    entry = report["latency"][0]
    return with_latency(report, [{**entry, "input_shape": [batch, i + 1]} for i in range(count)])
