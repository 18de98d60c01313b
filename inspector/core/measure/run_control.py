"""How a caller steers one measurement and hears of it: one value in place of callbacks.

``measure_latency`` and the sample loop under it (``sampling.take_samples``) take a
``RunControl``: the sample sink, the progress callback, the cancel and stop checks and the
cap on samples travel together, so a layer that only passes them on names one parameter
(as ``torch.utils.benchmark``'s ``Timer`` keeps its options in one place). Every part is
optional; ``RunControl()`` runs to the end, quietly, with the measurement's full cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from inspector.core.vocabulary import MAX_SAMPLES


@dataclass(frozen=True)
class RunControl:
    """``on_sample(index, ms)``: each timed sample, in order (between chunks of samples).
    ``progress(done, total)``: once per chunk (``total`` is an estimate under ``min_time``).
    ``should_cancel()``: True raises ``Cancelled`` (checked before each warm-up call and chunk).
    ``should_stop()``: True ends the run there, a result of the samples taken (checked between
    chunks once there are samples). ``max_samples``: this run's share of the samples one
    measurement keeps, when it is one of several (``core.measure.repeats``)."""

    on_sample: Callable[[int, float], None] | None = None
    progress: Callable[[int, int], None] | None = None
    should_cancel: Callable[[], bool] | None = None
    should_stop: Callable[[], bool] | None = None
    max_samples: int = MAX_SAMPLES

    def cancelled(self) -> bool:
        return self.should_cancel is not None and self.should_cancel()

    def stop_asked(self) -> bool:
        return self.should_stop is not None and self.should_stop()
