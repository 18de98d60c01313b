"""What the machine did to a run, named next to its figure: the CPU times from a fake psutil,
each sampling thread's switches from fake /proc files (the reader takes a root), and from a
real run that a busy loop on the same CPU competes with."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import namedtuple
from pathlib import Path

import psutil
import pytest

from inspector.core.devices import host_files
from inspector.core.files.models import example_model
from inspector.core.measure import machine_noise
from inspector.core.measure.machine_noise import MachineNoise, MachineWatch, blamed
from inspector.core.measure.spread import noise_note
from inspector.core.measure.timing import measure_latency
from inspector.core.report.schema import latency_entry

OMP_THREAD = 999_991  # a thread of the process's own name that Python did not start: an intra-op thread
QT_THREAD = 999_992  # a thread a library named: not one that samples


#: psutil's shapes of ``cpu_times()``: Linux's fields, and macOS's (no iowait, irq or steal).
LinuxTimes = namedtuple("LinuxTimes", "user nice system idle iowait irq softirq steal guest guest_nice")
MacTimes = namedtuple("MacTimes", "user nice system idle")
ProcessTimes = namedtuple("ProcessTimes", "user system children_user children_system")


class FakePsutil:
    """psutil's CPU times in seconds (ticks / 100, as psutil divides /proc/stat's counts by
    USER_HZ), set by ``write_proc``; two CPUs."""

    Error = Exception

    def __init__(self, shape=LinuxTimes) -> None:
        self.shape, self.machine, self.own = shape, None, 0.0

    def cpu_times(self):
        return self.machine

    def cpu_count(self, logical: bool = True) -> int:
        return 2

    def Process(self):  # noqa: N802 -- psutil's name
        own = self.own
        return type("P", (), {"cpu_times": staticmethod(lambda: ProcessTimes(own, 0.0, 0.0, 0.0))})()


@pytest.fixture(autouse=True)
def fake_psutil(monkeypatch):
    fake = FakePsutil()
    monkeypatch.setattr(machine_noise, "psutil", fake)
    monkeypatch.setattr(machine_noise, "_TICKS_PER_S", 100)
    return fake


def write_proc(
    root: Path, *, user: int, idle: int, steal: int, own: int, switches: dict[int, int], names: dict[int, str]
) -> None:
    """The machine's ticks and this process's own (psutil), and its threads' switches (/proc)."""
    fake = machine_noise.psutil
    fields = dict(user=user / 100, nice=0.0, system=0.0, idle=idle / 100, iowait=0.0, irq=0.0, softirq=0.0,
                  steal=steal / 100, guest=0.0, guest_nice=0.0)  # fmt: skip
    fake.machine = fake.shape(**{k: v for k, v in fields.items() if k in fake.shape._fields})
    fake.own = own / 100
    (root / "proc" / "self" / "task").mkdir(parents=True, exist_ok=True)
    (root / "proc" / "self" / "comm").write_text("python\n")
    for tid, count in switches.items():
        task = root / "proc" / "self" / "task" / str(tid)
        task.mkdir(exist_ok=True)
        (task / "comm").write_text(names.get(tid, "python") + "\n")
        (task / "status").write_text(
            f"Name:\tpython\nvoluntary_ctxt_switches:\t50\nnonvoluntary_ctxt_switches:\t{count}\n"
        )


def _watched(tmp_path: Path, before: dict, after: dict, samples: int) -> MachineNoise:
    watch = MachineWatch(str(tmp_path), linux=True)
    write_proc(tmp_path, **before)
    watch.start()
    write_proc(tmp_path, **after)
    return watch.stop(samples)


def test_other_processes_steal_and_preemptions_are_read_and_named(tmp_path):
    me = threading.get_native_id()
    idle = threading.Event()
    helper = threading.Thread(target=idle.wait)  # a Python thread: not one that samples
    helper.start()
    try:
        names = {QT_THREAD: "QXcbEventQueue"}
        before = dict(user=1000, idle=1000, steal=0, own=500,
                      switches={me: 5, OMP_THREAD: 0, QT_THREAD: 0, helper.native_id: 0}, names=names)  # fmt: skip
        # 100 ticks of the machine's CPU: 60 busy (20 of them this process's), 30 idle, 10 stolen.
        after = dict(user=1060, idle=1030, steal=10, own=520,
                     switches={me: 8, OMP_THREAD: 4, QT_THREAD: 100, helper.native_id: 100}, names=names)  # fmt: skip
        noise = _watched(tmp_path, before, after, samples=100)
    finally:
        idle.set()
        helper.join()
    assert noise.measured and noise.cpu_ticks == 100 and noise.cores == 2
    assert noise.other_cpu_share == pytest.approx(0.40) and noise.steal_share == pytest.approx(0.10)
    assert noise.involuntary_switches == 3 + 4 and noise.sampling_threads == 2  # the caller and the intra-op thread
    assert noise.note == (
        "40% of the run's CPU went to other processes and the hypervisor took 10% of the CPU (steal) "
        "and the sampling threads were preempted 7 times in 100 samples: p95 not reliable"
    )


def test_a_noisy_figure_is_blamed_on_the_machine_or_not(tmp_path):
    tail = noise_note(1.0, 30.0, 0.1, None)  # "noisy: p95 is 30× the median; …"
    me = threading.get_native_id()
    # Other processes took 3 % and preempted the sampler in 20 of 300 samples (> 5 %): the machine's.
    stalled = _watched(tmp_path, dict(user=0, idle=0, steal=0, own=0, switches={me: 0}, names={}),
                       dict(user=3, idle=97, steal=0, own=0, switches={me: 20}, names={}), samples=300)  # fmt: skip
    assert blamed(tail, stalled) == (
        f"{tail}: caused by the machine, not the model (3.0% of the run's CPU went to other processes "
        "and the sampling threads were preempted 20 times in 300 samples)"
    )
    assert stalled.note.endswith(": p95 not reliable")
    # The same 3 % without a preemption: the machine was busy, but did not stall the samples.
    busy = _watched(tmp_path, dict(user=0, idle=0, steal=0, own=0, switches={me: 0}, names={}),
                    dict(user=3, idle=97, steal=0, own=0, switches={me: 0}, names={}), samples=300)  # fmt: skip
    assert (
        busy.note
        == "3.0% of the run's CPU went to other processes: the figures may read slower than on a quiet machine"
    )
    assert "too few samples were stalled by it" in blamed(tail, busy) and "the model or this process varies" in blamed(
        tail, busy
    )
    quiet = _watched(tmp_path, dict(user=0, idle=0, steal=0, own=0, switches={}, names={}),
                     dict(user=30, idle=70, steal=0, own=30, switches={}, names={}), samples=300)  # fmt: skip
    assert quiet.note.startswith("the machine was quiet") and not quiet.disturbed
    assert "not the machine's doing" in blamed(tail, quiet) and "the model or this process varies" in blamed(
        tail, quiet
    )
    assert blamed(None, stalled) is None  # a steady figure stays unflagged; the note says the rest


def test_preemptions_in_most_samples_spoil_the_median_too(tmp_path):
    me = threading.get_native_id()
    noise = _watched(tmp_path, dict(user=0, idle=0, steal=0, own=0, switches={me: 0}, names={}),
                     dict(user=50, idle=50, steal=0, own=50, switches={me: 80}, names={}), samples=100)  # fmt: skip
    assert noise.other_cpu_share == 0 and noise.note.endswith("neither the median nor p95 is reliable")


def test_a_run_too_short_for_the_ticks_gives_no_share_rather_than_zero(tmp_path):
    me = threading.get_native_id()
    noise = _watched(tmp_path, dict(user=0, idle=0, steal=0, own=0, switches={me: 0}, names={}),
                     dict(user=1, idle=2, steal=0, own=1, switches={me: 0}, names={}), samples=300)  # fmt: skip
    assert noise.measured and noise.other_cpu_share is None and noise.steal_share is None
    assert noise.involuntary_switches == 0 and noise.note.startswith("the run was too short")
    assert blamed("noisy", noise) == "noisy"  # nothing known to blame


def test_on_macos_the_shares_come_from_psutil_and_steal_and_preemptions_are_not_measured_here(
    tmp_path, monkeypatch, fake_psutil
):
    # psutil's macOS times (no steal field), and its switch count, 0 there, not taken for none.
    fake_psutil.shape = MacTimes
    monkeypatch.setattr(machine_noise, "_PSUTIL_COUNTS_PREEMPTIONS", False)
    watch = MachineWatch(str(tmp_path / "no-proc"), linux=False)
    write_proc(tmp_path, user=1000, idle=1000, steal=0, own=500, switches={}, names={})
    watch.start()
    write_proc(tmp_path, user=1010, idle=1080, steal=0, own=510, switches={}, names={})
    noise = watch.stop(100)
    assert noise.measured and noise.cpu_ticks == 90 and noise.other_cpu_share == 0.0
    assert noise.steal_share is None and noise.involuntary_switches is None
    assert noise.note == (
        "the machine was quiet during the run: no other process, steal or preemption to speak of "
        "(the hypervisor's steal and the sampling threads' preemptions: not measured here)"
    )
    # Nothing stalled the samples that can be seen here: no verdict either way.
    assert blamed("noisy", noise) == "noisy (whether the machine caused it is not measured here)"
    assert noise.to_dict()["steal_share"] is None
    busy = MachineNoise(measured=True, other_cpu_share=0.4, samples=100, cpu_ticks=90, cores=2)
    assert blamed("noisy", busy) == (
        "noisy: the machine was busy (40% of the run's CPU went to other processes); "
        "how many samples it stalled is not measured here"
    )


def test_where_psutil_cannot_read_the_times_nothing_is_measured(tmp_path, fake_psutil):
    def no_proc():
        raise FileNotFoundError("/proc/stat")  # psutil on a Linux without /proc

    fake_psutil.cpu_times = no_proc
    watch = MachineWatch(str(tmp_path / "nowhere"), linux=True)
    watch.start()
    noise = watch.stop(10)
    assert not noise.measured and noise.other_cpu_share is None and "not measured here" in noise.note


def test_the_result_and_the_report_carry_the_figures_and_old_reports_still_open(monkeypatch):
    monkeypatch.setattr(machine_noise, "psutil", psutil)  # the real one
    result = measure_latency(example_model(), runs=20)
    data = result.to_dict()
    assert data["machine"]["measured"]  # psutil reads the CPU times on Linux, macOS and Windows
    assert set(data["machine"]) >= {"other_cpu_share", "steal_share", "involuntary_switches", "note"}
    entry = latency_entry(data, "latency[0]")
    assert entry.machine is not None and entry.machine.note == data["machine"]["note"]
    assert entry.machine == result.machine  # one type from the run to the file and back (issue 44)
    data.pop("machine")
    assert latency_entry(data, "latency[0]").machine is None  # a report from before


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or not host_files.exists("/proc/self/task"),
    reason="Linux's /proc and affinity",
)
def test_a_busy_loop_on_the_same_cpu_is_named_as_other_processes_cpu(monkeypatch):
    monkeypatch.setattr(machine_noise, "psutil", psutil)  # the real one
    # A child spins on the CPU this thread is pinned to: the run's share of other processes'
    # CPU is above 0, the sampling thread is preempted, and the words name it.
    cpu = min(os.sched_getaffinity(0))
    kept = os.sched_getaffinity(0)
    child = subprocess.Popen([sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"])
    try:
        os.sched_setaffinity(0, {cpu})  # this thread only (Linux affinity is per thread)
        result = measure_latency(example_model(), min_time=0.5)
    finally:
        os.sched_setaffinity(0, kept)
        child.kill()
        child.wait()
    machine = result.machine
    assert machine is not None and machine.measured and machine.cpu_ticks >= machine_noise.MIN_TICKS
    assert machine.other_cpu_share is not None and machine.other_cpu_share > 0
    assert machine.involuntary_switches is not None and machine.involuntary_switches > 0
    assert "of the run's CPU went to other processes" in machine.note and machine.disturbed
    if result.noise is not None:
        assert "the machine" in result.noise


@pytest.mark.parametrize(
    ("machine", "named"),
    [
        ("busy", "latency[0].machine: expected a mapping"),
        ({"other_cpu_share": 3.0}, "latency[0].machine.other_cpu_share: expected a share from 0 to 1"),
        ({"involuntary_switches": -1}, "latency[0].machine.involuntary_switches"),
        ({"note": ["x"]}, "latency[0].machine.note"),
    ],
)
def test_a_hostile_machine_record_is_refused_naming_the_field(machine, named, monkeypatch):
    monkeypatch.setattr(machine_noise, "psutil", psutil)
    from inspector.core.report.field_checks import ReportSchemaError

    data = measure_latency(example_model(), runs=6).to_dict()
    data["machine"] = machine
    with pytest.raises(ReportSchemaError, match=named.replace("[", r"\[").replace("]", r"\]")):
        latency_entry(data, "latency[0]")
