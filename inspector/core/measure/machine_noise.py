"""What the machine did to a run while it was timed: noise named by its cause.

A tail of slow samples has two very different causes: the model (or this process) varies,
or the machine took the CPU away. Only the second is read here, between the first and the
last timed sample (``MachineWatch``):

- involuntary context switches of the threads that sample: the calling thread and torch's
  intra-op threads (``/proc/self/task/*/status``: ``nonvoluntary_ctxt_switches``). A switch
  is the kernel taking a runnable thread off its CPU for another task: the sample it lands in
  holds the other task's time slice. psutil's count for the whole process stands in where the
  per-thread files cannot be read (not on macOS or Windows, whose counts psutil gives as 0:
  there the preemptions are "not measured here").
- the CPU time other processes took meanwhile, as a share of the CPU time the machine had:
  the machine's busy time less this process's own (``psutil.cpu_times()`` and the process's,
  which read Linux's ``/proc/stat``, macOS's and Windows' own counters alike).
- the hypervisor's steal: time a virtual CPU wanted to run but the host ran something else,
  which stalls whatever thread that CPU carries (psutil has it on Linux only: elsewhere
  "not measured here").

The two shares are counted in the kernel's ticks (USER_HZ, 10 ms; psutil's seconds times
``SC_CLK_TCK``): a run shorter than ``MIN_TICKS`` of CPU time has no share worth a figure, and
says so instead of a 0. Where psutil cannot read the CPU times (a Linux without /proc) nothing
is measured and the result says "not measured here", never 0.

The per-thread files are read under a root path (``/`` on a real machine) through
``devices.host_files``, so tests can give fake files or none; tests give a fake psutil.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from dataclasses import dataclass
from typing import Any, Mapping

import psutil

from inspector.core.devices import host_files
from inspector.core.messages import Text, joined

#: A share of the machine's CPU (other processes' or steal) at or above this is named as a cause.
SHARE_FLAG = 0.01
#: Involuntary switches of the sampling threads are named as a cause at or above this share of
#: the samples (and at least ``SWITCHES_AT_LEAST``): a few in thousands of samples move no figure.
SWITCH_FLAG = 0.01
SWITCHES_AT_LEAST = 2
#: Preemptions (or steal) in at least this share of the samples reach p95, and at least this
#: share the median. Other processes' CPU alone does not: it is named, but it stalls a sample
#: only through a preemption, which is counted.
SPOILS_P95 = 0.05
SPOILS_MEDIAN = 0.5
#: Below this many ticks of the machine's CPU time (all CPUs together) the shares are not given.
MIN_TICKS = 20
#: Ticks a second: Linux's USER_HZ, what psutil divided /proc/stat's counts by (100 elsewhere).
_TICKS_PER_S = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: psutil counts involuntary switches only where the system does: macOS and Windows give 0.
_PSUTIL_COUNTS_PREEMPTIONS = not sys.platform.startswith(("win", "cygwin", "darwin"))


@dataclass(frozen=True)
class MachineNoise:
    """What the machine did during one run's timed samples.

    A figure is None where it was not measured (off Linux; a run too short for the shares).
    ``note`` says it in words next to the figure: the causes and what they spoil, that the
    machine was quiet, or why nothing was measured."""

    measured: bool
    note: str | None = None
    other_cpu_share: float | None = None  # of the machine's CPU time during the run (all cores)
    steal_share: float | None = None  # the same, taken by the hypervisor
    involuntary_switches: int | None = None  # of the sampling threads, all together
    sampling_threads: int = 0  # threads counted for the switches (0: the whole process, psutil)
    samples: int = 0
    cpu_ticks: int = 0  # the machine's CPU time the shares were taken over (ticks, all CPUs)
    cores: int = 0

    @property
    def causes(self) -> tuple[str, ...]:
        """Each disturbance big enough to name, in words ("3% of the run's CPU went to …")."""
        found = []
        if self.other_cpu_share is not None and self.other_cpu_share >= SHARE_FLAG:
            found.append(Text("noise.other_cpu", share=percent(self.other_cpu_share)))
        if self.steal_share is not None and self.steal_share >= SHARE_FLAG:
            found.append(Text("noise.steal", share=percent(self.steal_share)))
        if self.involuntary_switches is not None and self.involuntary_switches >= max(
            SWITCHES_AT_LEAST, SWITCH_FLAG * self.samples
        ):
            found.append(Text("noise.preempted", count=f"{self.involuntary_switches:,}", samples=f"{self.samples:,}"))
        return tuple(found)

    @property
    def disturbed(self) -> bool:
        return bool(self.causes)

    def _stalled_share(self) -> float:
        """The share of the samples the machine may have stalled: preemptions per sample, or steal."""
        switches = (self.involuntary_switches or 0) / self.samples if self.samples else 0.0
        return max(switches, self.steal_share or 0.0)

    @property
    def spoils_p95(self) -> bool:
        return self.disturbed and self._stalled_share() >= SPOILS_P95

    @property
    def spoils_median(self) -> bool:
        return self.disturbed and self._stalled_share() >= SPOILS_MEDIAN

    def to_dict(self) -> dict[str, Any]:
        return {
            "measured": self.measured,
            "disturbed": self.disturbed,
            "note": self.note,
            "other_cpu_share": self.other_cpu_share,
            "steal_share": self.steal_share,
            "involuntary_switches": self.involuntary_switches,
            "sampling_threads": self.sampling_threads,
            "samples": self.samples,
            "cpu_ticks": self.cpu_ticks,
            "cores": self.cores,
        }


def percent(share: float) -> str:
    """``0.031 -> '3.1%'``, ``0.25 -> '25%'``."""
    return f"{share:.0%}" if share >= 0.095 else f"{share:.1%}"


def described(noise: MachineNoise) -> MachineNoise:
    """``noise`` with its ``note``: the causes and what they spoil, or that the machine was quiet."""
    if not noise.measured:
        return noise
    causes = noise.causes
    if not causes and noise.other_cpu_share is None and noise.involuntary_switches is None:
        note = Text("noise.machine_too_short")
    elif not causes and noise.other_cpu_share is None:
        note = Text("noise.machine_short_run", count=f"{noise.involuntary_switches:,}")
    elif not causes:
        note = Text("noise.machine_quiet")
    else:
        said = (
            "noise.machine_median"
            if noise.spoils_median
            else "noise.machine_p95"
            if noise.spoils_p95
            else "noise.machine_busy"
        )
        note = Text(said, causes=joined(causes, "list.and"))
    unmeasured = [Text("noise.part_steal")] if noise.steal_share is None and noise.other_cpu_share is not None else []
    if noise.involuntary_switches is None:
        unmeasured.append(Text("noise.part_preemptions"))
    if unmeasured:  # off Linux: said, rather than left out as if nothing happened
        note = Text("noise.partly_measured", note=note, parts=joined(unmeasured, "list.and"))
    return dataclasses.replace(noise, note=note)


def blamed(noise: str | None, machine: MachineNoise | None) -> str | None:
    """The spread's noise flag with its cause: the machine's doing (naming it) where it stalled
    enough samples to reach p95; a busy machine that did not stall that many (then the tail is
    the model's or this process's, e.g. a window's own work); or not the machine's at all. Unchanged when that is not
    known (nothing measured; a run too short for the shares and no preemption to name), and
    said to be unknown where nothing the machine did could be measured here."""
    if noise is None or machine is None or not machine.measured:
        return noise
    causes = machine.causes
    if machine.spoils_p95:
        return Text("noise.by_machine", noise=noise, causes=joined(causes, "list.and"))
    if causes and machine.involuntary_switches is None and machine.steal_share is None:
        # Off Linux: how many samples it stalled is not counted, so neither verdict is claimed.
        return Text("noise.busy_machine_stalls_unknown", noise=noise, causes=joined(causes, "list.and"))
    if causes:
        return Text("noise.busy_machine", noise=noise, causes=joined(causes, "list.and"))
    if machine.involuntary_switches is None:  # off Linux: a stall without a busy CPU is unseen
        return Text("noise.machine_unknown", noise=noise)
    if machine.other_cpu_share is None:
        return noise  # too short a run to know what other processes took
    return Text("noise.not_machine", noise=noise)


# --------------------------------------------------------------------------- reading the counters


@dataclass(frozen=True)
class Snapshot:
    """The counters at one moment (ticks; switches per thread id)."""

    busy_ticks: int
    total_ticks: int
    steal_ticks: int | None  # None: the system does not report it (psutil: Linux only)
    own_ticks: int
    cores: int
    switches: Mapping[int, int]


#: The fields of ``psutil.cpu_times()`` that add up to the machine's time, each counted once:
#: guest time is inside user and nice (Linux), Windows' interrupt and dpc inside its system.
_TIME_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
_NOT_BUSY = ("idle", "iowait", "steal")


def _ticks(seconds: float) -> int:
    return round(seconds * _TICKS_PER_S)


def read_snapshot(root: str, caller: int, python_threads: frozenset[int], *, threads: bool = True) -> Snapshot | None:
    """The machine's CPU times and this process's (psutil), and the sampling threads' switches
    (``threads``: Linux's per-thread files under ``root``); None where psutil cannot read the times."""
    try:
        machine = psutil.cpu_times()
        own = psutil.Process().cpu_times()
        cores = psutil.cpu_count() or 0
    except (psutil.Error, OSError, RuntimeError, NotImplementedError):
        return None
    times = {name: _ticks(getattr(machine, name)) for name in _TIME_FIELDS if hasattr(machine, name)}
    busy = sum(t for name, t in times.items() if name not in _NOT_BUSY)
    switches = sampling_switches(root, caller, python_threads) if threads else {}
    return Snapshot(busy, sum(times.values()), times.get("steal"), _ticks(own.user + own.system), cores, switches)


def sampling_switches(root: str, caller: int, python_threads: frozenset[int]) -> dict[int, int]:
    """Involuntary switches of each thread that samples: the caller, and the threads that are
    not Python's and carry the process's own name (torch's intra-op threads: OpenMP names none;
    Qt and other libraries name theirs). Empty where the files cannot be read."""
    tasks = os.path.join(root, "proc", "self", "task")
    try:
        with host_files.open_text(os.path.join(root, "proc", "self", "comm")) as comm:
            own_name = comm.read().strip()
        ids = [int(name) for name in host_files.listdir(tasks) if name.isdigit()]
    except (OSError, ValueError):
        return {}
    counts = {}
    for tid in ids:
        try:
            if tid != caller:
                if tid in python_threads:
                    continue
                with host_files.open_text(os.path.join(tasks, str(tid), "comm")) as comm:
                    if comm.read().strip() != own_name:
                        continue
            with host_files.open_text(os.path.join(tasks, str(tid), "status")) as status:
                for line in status:
                    if line.startswith("nonvoluntary_ctxt_switches:"):
                        counts[tid] = int(line.split(":", 1)[1])
                        break
        except (OSError, ValueError):
            continue  # a thread that ended meanwhile
    return counts


def _process_switches() -> int | None:
    """The whole process's involuntary switches by psutil, where it counts them; else None."""
    if not _PSUTIL_COUNTS_PREEMPTIONS:
        return None  # psutil's 0 there is "not counted", not "none"
    try:
        return int(psutil.Process().num_ctx_switches().involuntary)
    except Exception:  # noqa: BLE001 -- no figure rather than a failed benchmark
        return None


class MachineWatch:
    """Reads the counters at ``start()`` (after the warm-up, before the first timed sample) and
    at ``stop(samples)`` (after the last), and says what the machine did in between.

    Reading is a few small files (~0.1 ms): done outside the timed region only. ``linux``: read
    each sampling thread's switches from Linux's files (else psutil's count for the process)."""

    def __init__(self, root: str = "/", *, linux: bool | None = None) -> None:
        self.root = root
        self.linux = sys.platform.startswith("linux") if linux is None else linux
        self._caller = 0
        self._before: Snapshot | None = None
        self._psutil_before: int | None = None
        self.result: MachineNoise | None = None  # what ``stop`` said

    def _python_threads(self) -> frozenset[int]:
        return frozenset(t.native_id for t in threading.enumerate() if t.native_id is not None) - {self._caller}

    def start(self) -> None:
        self._caller = threading.get_native_id()
        self._before = read_snapshot(self.root, self._caller, self._python_threads(), threads=self.linux)
        if self._before is None or not self._before.switches:
            self._psutil_before = _process_switches()

    def preempted(self) -> int | None:
        """Involuntary switches of the sampling threads since ``start`` (None: not counted)."""
        if self._before is not None and self._before.switches:
            now = sampling_switches(self.root, self._caller, self._python_threads())
            return sum(max(0, n - self._before.switches.get(tid, 0)) for tid, n in now.items())
        now_process = _process_switches() if self._psutil_before is not None else None
        return None if now_process is None or self._psutil_before is None else max(0, now_process - self._psutil_before)

    def stop(self, samples: int) -> MachineNoise:
        self.result = self._said(samples)
        return self.result

    def _said(self, samples: int) -> MachineNoise:
        before = self._before
        after = None if before is None else read_snapshot(self.root, self._caller, self._python_threads(),
                                                          threads=bool(before.switches))  # fmt: skip
        if before is None or after is None:
            return MachineNoise(measured=False, note=Text("noise.machine_not_measured"), samples=samples)
        return described(_between(before, after, samples, self._psutil_before))


def _between(before: Snapshot, after: Snapshot, samples: int, psutil_before: int | None) -> MachineNoise:
    total = after.total_ticks - before.total_ticks
    other = share = None
    if total >= MIN_TICKS:
        others = (after.busy_ticks - before.busy_ticks) - (after.own_ticks - before.own_ticks)
        other = min(1.0, max(0.0, others / total))
        if before.steal_ticks is not None and after.steal_ticks is not None:
            share = min(1.0, max(0.0, (after.steal_ticks - before.steal_ticks) / total))
    if before.switches:
        switches: int | None = sum(max(0, n - before.switches.get(tid, 0)) for tid, n in after.switches.items())
        threads = len(after.switches)
    else:
        now = _process_switches()
        switches = None if now is None or psutil_before is None else max(0, now - psutil_before)
        threads = 0
    return MachineNoise(
        measured=True,
        other_cpu_share=other,
        steal_share=share,
        involuntary_switches=switches,
        sampling_threads=threads,
        samples=samples,
        cpu_ticks=max(0, total),
        cores=after.cores,
    )


def stolen_ms() -> float | None:
    """CPU time the hypervisor took from this virtual machine's CPUs so far, all CPUs together
    (ms); None where psutil does not report it (off Linux) or cannot read the times."""
    try:
        steal = getattr(psutil.cpu_times(), "steal", None)
    except (psutil.Error, OSError, RuntimeError, NotImplementedError):
        return None
    return None if steal is None else steal * 1000
