"""Whether one run's median is the model's or its process's (issue 46 item 2).

A call of tens of microseconds on the CPU is as fast as the state of the process that runs it:
the example in float16 measured 26-29 µs in some fresh ``bench`` processes and 38-48 µs in
others on a quiet 2-core VM (``torch.utils.benchmark.Timer``: 27.6 µs), each run with a tight
interval, and its state switched within one process too (26 ↔ 32 µs between blocks of 12 ms).
Most of it is the OpenMP team's: on one intra-op thread (``bench --threads 1``) 17 of 20 fresh
processes agreed within 5 % (5 of 10 on PyTorch's two), so a run of the default team is told
of ``--threads 1``, and a one-thread run still says a rerun may land elsewhere.
A run's samples all come from one process, and its interval cannot see that. So a run of one
process whose fastest call is under ``SHORT_CALL_MS`` (its median may not be, on a loaded
machine: 10 fresh runs of the example at load 12 read medians of 31 µs to 43 ms) says so (``one_process_note``): a rerun may
land elsewhere, and ``bench --repeat`` (fresh processes) gives the median over several. When
the run's own time-ordered blocks already disagree by more than ``MOVED``, the note says by
how much. Pure arithmetic on the samples: no clock, no process.
"""

from __future__ import annotations

import numpy as np

from inspector.core.measure.measurement import LatencyResult
from inspector.core.messages import Text
from inspector.core.units import format_ms

#: Calls shorter than this (ms) on the CPU take the measuring process's state for the model's.
SHORT_CALL_MS = 1.0
#: Blocks of a run, in the order they ran, whose medians are compared; and how far apart
#: (max / min - 1) they must be for the note to say the median moved within the run.
BLOCKS = 5
MOVED = 0.10


def block_medians(samples_ms: tuple[float, ...] | list[float], blocks: int = BLOCKS) -> list[float]:
    """The medians of ``blocks`` consecutive, equal parts of the samples, in the order they ran
    (fewer parts when there are fewer than ``2 * blocks`` samples; none under 4)."""
    values = np.asarray(samples_ms, dtype=np.float64)
    parts = min(blocks, values.size // 2)
    if parts < 2:
        return []
    return [float(np.median(part)) for part in np.array_split(values, parts)]


def one_process_note(result: LatencyResult, *, in_window: bool = False) -> str | None:
    """Why this run's median may not repeat in another process, or None: a run of one process
    (no ``runs_ms`` of several) on the CPU whose fastest call is under ``SHORT_CALL_MS``.
    ``in_window``: the note names the window's Repeat with fresh processes, not bench's options."""
    median, fastest = result.median_ms, result.min_ms
    if result.device != "cpu" or median is None or fastest is None or len(result.run_samples) > 1:
        return None
    if not 0 < fastest < SHORT_CALL_MS:
        return None
    medians = block_medians(result.samples_ms)
    if medians and min(medians) > 0 and max(medians) / min(medians) - 1 > MOVED:
        return Text("bench.one_process_window_moved" if in_window else "bench.one_process_moved", median=format_ms(median), low=format_ms(min(medians)),
                    high=format_ms(max(medians)), blocks=len(medians))  # fmt: skip
    if in_window:  # the window's measuring thread: as fast as its state, whatever the team (fresh_runs)
        return Text("bench.one_process_window", median=format_ms(median))
    if result.threads == 1:  # no OpenMP team: rarer, not gone (intra_op_threads)
        return Text("bench.one_process_one_thread", median=format_ms(median))
    return Text("bench.one_process", median=format_ms(median))
