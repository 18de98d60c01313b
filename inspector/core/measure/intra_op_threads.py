"""How many threads torch's intra-op pool has while a run measures (``bench --threads N``).

On a CPU a call of tens of microseconds repeats best on one thread: the example in float16,
fresh processes on a quiet 2-core VM, read 26-71 µs between processes with PyTorch's default
team of 2 OpenMP threads (5 processes of 10 had slow blocks); on 1 thread a plain loop read
24.9-25.7 µs in every block of 10 processes, faster than the team at its best, and ``bench``
within 5 % in 17 of 20 processes (3 read 1.6-2.6x: rarer, not gone). The count must be set before the
process's first parallel region: once a team exists, its threads stay, and one-thread blocks
measured beside it were slow in the same processes as the team's. So it is set before the
model loads, and a worker of ``--repeat`` or ``--against`` is given the same option.
"""

from __future__ import annotations

from inspector.core.errors import InputError

#: More threads than any machine's cores is a typo, not a request (torch would start them).
MAX_THREADS = 1024


def use_threads(count: int) -> None:
    """Give torch's intra-op pool ``count`` threads from now on (before the model loads)."""
    if not 1 <= count <= MAX_THREADS:
        raise InputError(f"--threads must be a whole number from 1 to {MAX_THREADS:,} (got {count})")
    import torch

    torch.set_num_threads(count)
