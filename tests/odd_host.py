"""An odd host, faked: run the suite as a machine unlike the developer's would run it.

``INSPECTOR_TEST_HOST=odd python -m pytest …`` runs tests on a host whose CPU is named with a
long string of English words, that has one core, no font that draws Chinese, the C locale, a
time zone 13 h 45 min east of UTC, and a home folder that holds nothing. A test may not depend
on the host (the CPU's name, its cores, the locale, fonts, the time zone, the user's home or
an existing config): ``tests/test_host_independence.py`` runs the tests that read these under
this host, so a test that does fails on every machine, not only on some.

The environment is set before anything is imported (the locale and time zone are read by
Python, Qt and torch at start-up); the CPU's name, its core count and the font check are
patched where the app reads them.

``INSPECTOR_TEST_HOST=no-proc`` runs them on a host without Linux's ``/proc`` and ``/sys``, as
macOS and Windows are (``play_no_proc``; the ``no_proc_host`` fixture plays it for one test):
every read the app makes of them fails as the missing file would (``devices.host_files``), and
psutil answers as it does on macOS (its CPU times without iowait, irq or steal; its count of
involuntary switches, always 0 there, not taken). Every command and the window still work,
saying "not measured here" where a figure needs Linux.
"""

from __future__ import annotations

import os
import tempfile
from collections import namedtuple
from typing import Any, Callable

#: A CPU name of English words, as Intel names some of its server parts
#: ("Intel(R) Xeon(R) Processor"), made long: it must read as data, never as an English leak.
CPU_NAME = "Intel(R) Xeon(R) Processor with Extended Memory Technology and Turbo Boost for Servers @ 2.20GHz"

ENV = "INSPECTOR_TEST_HOST"


def wanted() -> bool:
    return os.environ.get(ENV) == "odd"


def no_proc_wanted() -> bool:
    return os.environ.get(ENV) == "no-proc"


def play_no_proc(setattr_: Callable[[object, str, object], None] = setattr) -> None:
    """From now on, a host without /proc and /sys (``setattr_``: pytest's monkeypatch.setattr
    for one test, so it is undone after)."""
    import psutil

    from inspector.core.devices import host_files
    from inspector.core.measure import machine_noise

    setattr_(host_files, "_present", False)
    _forget_cpu_name()
    real_cpu_times = psutil.cpu_times

    def mac_cpu_times(percpu: bool = False) -> Any:
        if percpu:
            return [MacCpuTimes(t.user, t.nice, t.system, t.idle) for t in real_cpu_times(percpu=True)]
        t = real_cpu_times()
        return MacCpuTimes(t.user, t.nice, t.system, t.idle)

    setattr_(psutil, "cpu_times", mac_cpu_times)
    setattr_(machine_noise, "_PSUTIL_COUNTS_PREEMPTIONS", False)


def _forget_cpu_name() -> None:
    """The CPU's name is read once (``inventory.cpu_model_name``): read again on this host."""
    from inspector.core.devices import inventory

    getattr(inventory.cpu_model_name, "cache_clear", lambda: None)()


#: psutil's ``cpu_times()`` on macOS (psutil/_psosx.py: scputimes).
MacCpuTimes = namedtuple("MacCpuTimes", "user nice system idle")


def set_environment() -> None:
    """The host's environment: locale, time zone, an empty home. Before any import."""
    home = tempfile.mkdtemp(prefix="odd-home-")
    for name in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        os.environ[name] = "C"
    os.environ["TZ"] = "Pacific/Chatham"  # +12:45 / +13:45: no whole-hour offset to hide behind
    os.environ["HOME"] = home
    os.environ["XDG_CONFIG_HOME"] = os.path.join(home, ".config")
    os.environ["XDG_CACHE_HOME"] = os.path.join(home, ".cache")
    os.environ["OMP_NUM_THREADS"] = "1"
    import time

    time.tzset()


def patch_host() -> None:
    """The CPU's name, one core and no CJK font, where the app reads them."""
    import psutil
    import torch

    from inspector.core.devices import environment, inventory

    inventory.cpu_model_name.cache_clear()
    inventory.cpu_model_name = lambda: CPU_NAME
    environment.cpu_model_name = lambda: CPU_NAME
    real_cpu_count = psutil.cpu_count

    def one_core(logical: bool = True) -> int:
        real_cpu_count(logical)  # keep psutil's own argument checks
        return 1

    psutil.cpu_count = one_core
    os.cpu_count = lambda: 1
    torch.set_num_threads(1)
    try:
        from inspector.gui.common import i18n
    except ImportError:  # a run without Qt
        return
    i18n.has_cjk_font = lambda: False
