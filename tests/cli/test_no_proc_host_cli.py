"""Every command on a host without Linux's /proc and /sys, as macOS and Windows are (issue 47
item 14): ``no_proc_host`` (tests/odd_host.py) makes every read of them fail as the missing
file would and psutil answer as on macOS. Each command exits 0, and says "not measured here"
(or "not measured: …") where a figure needs Linux, never a 0 in its place."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from inspector.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_devices_lists_the_cpu_with_the_machines_free_memory(capsys, no_proc_host):
    code, out, err = run(capsys, "devices", "--json")
    assert code == 0, err
    (cpu,) = [d for d in json.loads(out)["devices"] if d["id"] == "cpu"]
    assert cpu["name"] and cpu["total_bytes"] > 0 and cpu["free_bytes"] > 0
    assert "cgroup" not in (cpu["free_limit"] or "")  # no container limit read: none there
    code, out, err = run(capsys, "devices", "--prometheus")
    assert code == 0 and "torch_device_inspector_process_memory_room_bytes" in out, err


def test_inspect_works(capsys, no_proc_host):
    code, out, err = run(capsys, "inspect", "example")
    assert code == 0 and "fc1.weight" in out, err


def test_bench_says_what_it_could_not_measure_and_compare_reads_the_reports(capsys, tmp_path, no_proc_host):
    reports = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in reports:
        code, _, err = run(capsys, "bench", "example", "--device", "cpu", "--runs", "30", "--output", str(path))
        assert code == 0, err
        (entry,) = json.loads(path.read_text())["latency"]
        machine = entry["machine"]
        assert machine["steal_share"] is None and machine["involuntary_switches"] is None  # never 0
        assert "the sampling threads' preemptions: not measured here" in machine["note"]
        # On screen: the machine's note, or a noisy figure's flag saying its cause is unknown here.
        (line,) = [line for line in err.splitlines() if line.startswith("note: cpu float32 forward: ")]
        assert "not measured here" in line
    code, out, err = run(capsys, "compare", *map(str, reports))
    assert code == 0 and "VERDICT" in out, err


def test_fit_says_the_measured_peak_is_not_measured_and_why(capsys, no_proc_host):
    code, out, err = run(capsys, "fit", "example", "--device", "cpu", "--optimizer", "adam", "--json")
    assert code == 0, err
    plan = json.loads(out)
    assert plan["measured_peak_bytes"] is None and plan["fits"] is True
    assert (
        plan["measured_reason"].startswith("not measured: ")
        and "Linux's /proc/self/clear_refs" in plan["measured_reason"]
    )


def _kernel_paths(tree: ast.AST) -> list[str]:
    """The string constants of a module that name a file of /proc or /sys."""
    return [
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.value.lstrip("/").startswith(("proc/", "sys/")) or (isinstance(node, ast.Constant) and node.value == "proc")
    ]  # fmt: skip


#: Names /proc and /sys only to refuse them as a model or report file (a stat of their devices, no figure).
REFUSES_ONLY = {"inspector/core/files/regular_file.py"}


def test_every_reader_of_proc_and_sys_opens_through_host_files():
    """So the no-proc host reaches them all: a module naming a kernel file imports host_files."""
    readers = {}
    for path in sorted((REPO / "inspector").rglob("*.py")):
        name = path.relative_to(REPO).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if _kernel_paths(tree) and name not in REFUSES_ONLY and not name.endswith("host_files.py"):
            imports = {
                alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names
            }
            readers[name] = "host_files" in imports
    assert len(readers) >= 5, readers  # the CPU name, cgroups, VmHWM, the THP mode, the threads' switches
    assert all(readers.values()), [name for name, routed in readers.items() if not routed]


def test_the_fake_reaches_each_reader(no_proc_host):
    from inspector.core.devices import huge_pages, memory_limits
    from inspector.core.measure import machine_noise, process_peak

    assert memory_limits.cgroup_memory() is None and huge_pages.kernel_mode() is None
    assert (
        process_peak.unavailable_reason() == "the process's peak memory cannot be reset and read on this system "
        "(it needs Linux's /proc/self/clear_refs)"
    )
    assert machine_noise.sampling_switches("/", 0, frozenset()) == {}
    with pytest.raises(FileNotFoundError):
        from inspector.core.devices import host_files

        host_files.open_text("/proc/self/status")


def test_the_whole_suite_can_run_as_that_host():
    """``INSPECTOR_TEST_HOST=no-proc pytest …`` plays it from the start (tests/conftest.py)."""
    import os
    import subprocess
    import sys

    probe = (
        "from tests import conftest\n"
        "import psutil\n"
        "from inspector.core.devices import host_files, memory_limits\n"
        "print(host_files.exists('/proc/self/status'), hasattr(psutil.cpu_times(), 'steal'), memory_limits.cgroup_memory())\n"
    )
    env = {**os.environ, "INSPECTOR_TEST_HOST": "no-proc"}
    run = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["False", "False", "None"]
