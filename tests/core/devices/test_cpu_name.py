"""The CPU's name on each system (issue 47 item 13): Linux's /proc/cpuinfo, macOS's sysctl,
Windows' registry (platform.processor() there says only "Intel64 Family 6 Model 154 …"), and
the machine's kind where none can be read (a host without /proc)."""

from __future__ import annotations

import sys
import types

import pytest

from inspector.core.devices import inventory


@pytest.fixture(autouse=True)
def read_anew():
    if not hasattr(inventory.cpu_model_name, "cache_clear"):
        pytest.skip("the odd host names the CPU itself")
    inventory.cpu_model_name.cache_clear()
    yield
    inventory.cpu_model_name.cache_clear()


def test_on_windows_the_name_is_the_registrys(monkeypatch):
    asked = []

    class Key:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def open_key(root, path):
        asked.append((root, path))
        return Key()

    winreg = types.SimpleNamespace(HKEY_LOCAL_MACHINE="HKLM", OpenKey=open_key,
                                   QueryValueEx=lambda key, name: ("12th Gen Intel(R) Core(TM) i7-1260P  ", 1))  # fmt: skip
    monkeypatch.setitem(sys.modules, "winreg", winreg)
    monkeypatch.setattr(sys, "platform", "win32")
    assert inventory.cpu_model_name() == "12th Gen Intel(R) Core(TM) i7-1260P"
    assert asked == [("HKLM", r"HARDWARE\DESCRIPTION\System\CentralProcessor\0")]


def test_a_windows_registry_without_the_key_falls_back(monkeypatch):
    def missing(root, path):
        raise FileNotFoundError(path)

    monkeypatch.setitem(sys.modules, "winreg", types.SimpleNamespace(HKEY_LOCAL_MACHINE=0, OpenKey=missing))
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(inventory.platform, "processor", lambda: "Intel64 Family 6 Model 154 Stepping 3, GenuineIntel")
    assert inventory.cpu_model_name() == "Intel64 Family 6 Model 154 Stepping 3, GenuineIntel"


def test_without_proc_the_name_is_the_machines_kind(no_proc_host, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(inventory.platform, "processor", lambda: "")
    monkeypatch.setattr(inventory.platform, "machine", lambda: "x86_64")
    assert inventory.cpu_model_name() == "x86_64"
