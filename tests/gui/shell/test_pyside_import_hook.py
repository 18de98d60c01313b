"""torch is imported past PySide6's import hook on the loader's thread only, and the hook is
put back: the window's own imports and every other thread keep it."""

from __future__ import annotations

import builtins
import threading

import pytest

import inspector
from inspector.gui.shell import pyside_import_hook


@pytest.fixture
def fake_hook(monkeypatch):
    """A stand-in for PySide's ``__feature_import__`` that counts what goes through it, and the
    interpreter's own import kept as ``inspector`` keeps it."""
    seen: list[tuple[str, str]] = []
    plain = builtins.__import__ if builtins.__import__.__name__ == "__import__" else inspector._interpreter_import

    def hook(name, globals=None, locals=None, fromlist=(), level=0):
        seen.append((threading.current_thread().name, name))
        return plain(name, globals, locals, fromlist, level)

    hook.__name__ = pyside_import_hook.PYSIDE_HOOK_NAME
    monkeypatch.setattr(inspector, "_interpreter_import", plain)
    monkeypatch.setattr(builtins, "__import__", hook)
    return hook, seen


def test_the_thread_that_bypasses_imports_past_the_hook_and_others_do_not(fake_hook):
    hook, seen = fake_hook
    other = threading.Thread(target=lambda: exec("import json.decoder", {}), name="window")
    with pyside_import_hook.bypassed() as bypassing:
        assert bypassing and builtins.__import__ is not hook
        exec("import json.decoder", {})  # an import statement, as a module's code runs one
        other.start()
        other.join()
    assert [thread for thread, name in seen if name == "json.decoder"] == ["window"]
    assert builtins.__import__ is hook  # put back


def test_the_hook_comes_back_when_the_import_fails(fake_hook):
    hook, _ = fake_hook
    with pytest.raises(ImportError), pyside_import_hook.bypassed():
        exec("import no_such_module_here", {})
    assert builtins.__import__ is hook


def test_a_hook_installed_meanwhile_is_left_in_place(fake_hook):
    def later(*args, **kwargs):
        return fake_hook[0](*args, **kwargs)

    with pyside_import_hook.bypassed():
        builtins.__import__ = later
    assert builtins.__import__ is later


def test_where_pyside_came_before_inspector_importlibs_import_stands_in(fake_hook, monkeypatch):
    """A script (or pytest-qt) that imports PySide6 first: the interpreter's own import was not
    kept, and importlib's implementation of it bypasses the hook instead."""
    hook, seen = fake_hook
    monkeypatch.setattr(inspector, "_interpreter_import", hook)  # PySide came before inspector
    with pyside_import_hook.bypassed() as bypassing:
        assert bypassing
        exec("import json.scanner", {})
    assert not [name for _thread, name in seen if name.startswith("json")]
    assert builtins.__import__ is hook  # put back
