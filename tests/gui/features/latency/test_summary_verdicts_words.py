"""Which runs the Summary tab compares (``gui.plots.summary_verdicts``, Qt-free): one thing
differing, the device or the dtype, in the same mode on the same input; never more."""

from __future__ import annotations

import numpy as np

from inspector.core.report.run_verdicts import Run
from inspector.gui.features.latency.summary_verdicts import summary_verdicts


def _run(device: str, dtype: str, median: float, *, mode: str = "forward", shape=(64, 3), seed: int = 0) -> Run:
    samples = tuple(median * np.random.default_rng(seed).lognormal(0.0, 0.05, 100))
    label = f"{device} · {dtype}" + ("" if mode == "forward" else f" · {mode}")
    return Run(label, dtype, mode, shape, float(np.median(samples)), samples)


def test_four_runs_compare_along_the_device_and_along_the_dtype_never_across_both():
    runs = [_run("cpu", "float32", 2.0, seed=1), _run("cpu", "float16", 4.0, seed=2),
            _run("cuda:0", "float32", 1.0, seed=3), _run("cuda:0", "float16", 0.5, seed=4)]  # fmt: skip
    verdicts = summary_verdicts(runs, ["cpu", "cpu", "cuda:0", "cuda:0"])
    said = [s for v in verdicts for s in v.sentences]
    # a bar says "fastest" only when no run it is compared with is faster: cuda:0 · float32 is
    # faster than the CPU's float32 but slower than cuda:0 · float16
    assert [v.short.key for v in verdicts] == ["verdict.factor_slower"] * 3 + ["verdict.fastest"]
    assert any(s.startswith("cpu · float32: ") and "slower than cuda:0 · float32" in s for s in said)
    assert any(s.startswith("cpu · float16: ") and "slower than cpu · float32" in s for s in said)  # the dtype, on the CPU
    assert any(s.startswith("cuda:0 · float32: ") and "slower than cuda:0 · float16" in s for s in said)
    assert not any("cpu · float16" in s and "cuda:0 · float32" in s for s in said)  # both differ: no ratio
    assert not any("cpu · float32" in s and "cuda:0 · float16" in s for s in said)


def test_a_run_alike_in_nothing_but_its_mode_is_not_compared_and_said_once():
    runs = [_run("cpu", "float32", 1.0), _run("cpu", "float32", 20.0, mode="train-step")]
    first, second = summary_verdicts(runs, ["cpu", "cpu"])
    assert first.short == second.short == "not compared"
    assert [s.key for s in first.sentences + second.sentences] == ["verdict.summary_not_compared"]
    assert first.sentences[0] == ("cpu · float32: not compared with cpu · float32 · train-step (mode: forward vs "
                                  "train-step): runs are compared in the same mode and input shape, on one device "
                                  "or in one dtype")
