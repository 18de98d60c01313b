"""The Summary tab's verdicts: which runs of a session it compares, and how (Qt-free).

Two runs are compared when they measured the same mode on the same input shape and differ in
one thing only: the device (``core.report.run_verdicts``: runs of one dtype, each against the
fastest of them), or the dtype (runs on one device, each against the fastest of them: the
comparison the dtype menu invites, float16 against float32). Each run's label names its device
and dtype ("cpu · float16"), so a sentence says which is which. A train step is never given a
ratio to a forward pass, nor one input shape to another, nor a run to one that differs in
both device and dtype: such a run is "not compared", with a sentence naming what differs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from inspector.core.messages import Text, joined
from inspector.core.report import Run, RunVerdict, shape_words, verdicts_of_runs as run_verdicts


@dataclass(frozen=True)
class SummaryVerdict:
    """One run's words: ``short`` for its bar, ``sentences`` for the lines under the plot."""

    short: str
    sentences: tuple[str, ...] = ()


def _differences(run: Run, device: str, other: Run, other_device: str) -> str:
    parts: list[str] = []
    if run.mode != other.mode:
        parts.append(Text("verdict.run_differs_mode", mine=run.mode, theirs=other.mode))
    if run.input_shape != other.input_shape and run.input_shape is not None and other.input_shape is not None:
        parts.append(Text("verdict.run_differs_input", mine=shape_words(run.input_shape),
                          theirs=shape_words(other.input_shape)))  # fmt: skip
    if device != other_device:
        parts.append(Text("verdict.run_differs_device", mine=device, theirs=other_device))
    if run.dtype != other.dtype:
        parts.append(Text("verdict.run_differs_dtype", mine=run.dtype, theirs=other.dtype))
    return joined(parts, "list.semicolon") or Text("verdict.run_not_alike")


def _in_groups(runs: Sequence[Run], key: Sequence[tuple[object, ...]]) -> dict[int, list[int]]:
    """Each run's index -> the indices of the runs that share its key (itself included)."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, k in enumerate(key):
        groups.setdefault(k, []).append(i)
    return {i: groups[k] for i, k in enumerate(key)}


def summary_verdicts(runs: Sequence[Run], devices: Sequence[str]) -> list[SummaryVerdict]:
    """The verdicts of ``runs`` (``devices[i]`` is the device of ``runs[i]``), in their order.

    A run's bar says "fastest" when no run it is compared with is faster, else its ratio to a
    faster one (across devices first); the lines under the plot say every comparison made,
    each ratio with its 95 % interval."""
    if len(runs) != len(devices):
        raise ValueError("one device per run")
    same_dtype = _in_groups(runs, [(r.dtype, r.mode, r.input_shape) for r in runs])
    same_device = _in_groups(runs, [(d, r.mode, r.input_shape) for r, d in zip(runs, devices)])
    across_devices = run_verdicts(runs)  # (its groups are the same_dtype ones)
    across_dtypes: dict[int, RunVerdict] = {}
    for members in {tuple(m) for m in same_device.values() if len(m) > 1}:
        # One device, one mode, one input: the dtype is what differs, so compared as a
        # device is (the labels say which dtype each run is).
        verdicts = run_verdicts([replace(runs[i], dtype="") for i in members])
        across_dtypes.update(zip(members, verdicts))

    out: list[SummaryVerdict] = []
    said: set[frozenset[int]] = set()  # pairs already named "not compared": said once
    for i, run in enumerate(runs):
        made = [v for v in ((across_devices[i] if len(same_dtype[i]) > 1 else None), across_dtypes.get(i)) if v]
        if made:
            # "fastest" only when no run it is compared with is faster: else the bar says the
            # ratio to the faster one (its line names which).
            short = next((v.short for v in made if getattr(v.short, "key", "") != "verdict.fastest"), made[0].short)
            out.append(SummaryVerdict(short, tuple(v.sentence for v in made if v.sentence)))
            continue
        others = [j for j in range(len(runs)) if j != i]
        if not others:
            out.append(SummaryVerdict("", ()))
            continue
        nearest = min(others, key=lambda j: _distance(run, devices[i], runs[j], devices[j]))
        pair = frozenset((i, nearest))
        sentence = () if pair in said else (Text(
            "verdict.summary_not_compared", run=run.label, other=runs[nearest].label,
            differences=_differences(run, devices[i], runs[nearest], devices[nearest])),)  # fmt: skip
        said.add(pair)
        out.append(SummaryVerdict(Text("verdict.not_compared"), sentence))
    return out


def _distance(run: Run, device: str, other: Run, other_device: str) -> int:
    """How many of mode, input shape, device and dtype two runs differ in."""
    known = run.input_shape is not None and other.input_shape is not None
    return ((run.mode != other.mode) + (known and run.input_shape != other.input_shape)
            + (device != other_device) + (run.dtype != other.dtype))  # fmt: skip
