"""Core's words inside the code it shows (``report.snippets``): the comments of each snippet.

A comment is prose, so the window says it in its language; the code around it (names, calls,
numbers) stays as it is in every language, and the snippet still runs. A comment of several
lines keeps its line breaks (each line becomes a ``#`` line); one after code on its line is
said on that line.
"""

from __future__ import annotations

#: The comments of the move, input and benchmark snippets.
SNIPPETS: dict[str, str] = {
    # ----- the code view's comments (report.snippets)
    "snippet.cuda_prefer_to": "needs a CUDA GPU; prefer .to(device)",
    "snippet.non_blocking_done": "non_blocking copies finish here",
    "snippet.own_ids": "use your own ids",
    "snippet.where_measured": "where the app measured",
    "snippet.trains_a_copy": "the app trains a copy: your weights stay as they are",
    "snippet.optimizer_copied": "The app copies your optimizer when the model has one; SGD(lr=0.01) otherwise.",
    "snippet.device_events": "Each sample between two device events on the model's stream (the wait is outside it).",
    "snippet.clock_cost": (
        "The clock's own cost (the median gap of back-to-back reads)\n"
        "is taken off each sample, as the app does."
    ),
    "snippet.gc_disabled": "as the app does: a collection inside a sample is noise, not latency",
    "snippet.warm_up": "warm-up; the first call's cost is reported apart",
    "snippet.at_least": "at least {seconds} s",
    "snippet.median_not_timer": (
        "The app reports the median of single calls; torch.utils.benchmark.Timer reports a median\n"
        "of means of blocks of calls, which reads nearer the mean when some calls are slow."
    ),
}
