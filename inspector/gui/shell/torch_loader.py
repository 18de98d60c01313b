"""Import torch off the GUI thread, while the window's frame is already on screen.

``import torch`` takes 1.6-2.2 s here, most of a cold start; the window paints its frame
(menus, panels, a "Loading PyTorch…" note) first and builds its session when this says torch
is there. Two things keep the event loop turning meanwhile:

- torch's big native libraries are loaded with ``ctypes.CDLL`` first: CPython releases the
  GIL around ``dlopen`` there (their static initialisers take a few hundred ms), while an
  extension module's import holds it throughout. ``import torch`` then finds them loaded.
- the rest of the import is Python, which hands the GIL to the GUI thread every switch
  interval (5 ms).
- that Python runs past PySide6's import hook (``pyside_import_hook``), which would read the
  source of each of torch's ~600 modules and cost the import ~0.3 s.

Then the window's own torch-side modules are imported here too, so building the session on
the GUI thread constructs objects only.

Order. The app used to import torch before creating the QApplication ("both load native
libraries that fight over OpenMP/CUDA state when Qt comes first"). What is known: on Windows
it matters, since torch 2.9: a Qt binding loaded first makes torch's ``c10.dll`` fail its
initialisation (pytorch/pytorch#166628, "WinError 1114"), so there torch is still imported
first (``import_first``). On Linux, Qt loads no OpenMP runtime and its C++ runtime is the
system's, which torch's wheels link too: ``tests/gui/shell/test_first_paint.py`` imports torch after
a QApplication and a painted window and checks torch's intra-op threads and results against a
torch imported first. macOS is not tested here: it keeps the old order unless asked
(``TORCH_DEVICE_INSPECTOR_EARLY_WINDOW=1``), as does any platform with ``=0``.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import logging
import os
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from inspector.gui.shell import pyside_import_hook

log = logging.getLogger(__name__)

#: Loaded with ``ctypes`` before ``import torch``, in this order, where present (Linux names).
NATIVE_LIBRARIES = ("libtorch_global_deps.so", "libc10.so", "libtorch_cpu.so", "libtorch.so", "libtorch_python.so")

#: The window's session modules (``InspectorWindow._start_session``), imported here too.
SESSION_MODULES = (
    "torch",
    "inspector.core.session",
    "inspector.gui.state.workers",
    "inspector.gui.state.sampler",
    "inspector.gui.shell.session_parts",
    "inspector.gui.shell.features",  # (the table of features, and each feature's parts)
)

#: Set once ``SESSION_MODULES`` are imported by the loader.
_done = threading.Event()
_loader: TorchLoading | None = None
_thread: threading.Thread | None = None
#: The libraries ``preload_native_libraries`` opened (their handles stay open on purpose).
_handles: list[str] = []


def import_first() -> bool:
    """Whether torch must be imported before Qt on this platform (see the module docstring)."""
    asked = os.environ.get("TORCH_DEVICE_INSPECTOR_EARLY_WINDOW", "").strip()
    if asked in ("0", "1"):
        return asked == "0"
    return not sys.platform.startswith("linux")


def imported() -> bool:
    """torch is imported and no import of it is under way (the window can build its session)."""
    if _done.is_set():
        return True
    return _loader is None and "torch" in sys.modules


class TorchLoading(QObject):
    """The import under way: ``loaded`` or ``failed(message)``, delivered on the GUI thread."""

    loaded = Signal()
    failed = Signal(str)


def start(parent: QObject) -> TorchLoading:
    """Import torch and the session's modules on a thread of their own (once per process)."""
    global _loader, _thread
    if _loader is not None:
        return _loader
    # Made here, on the GUI thread: emitted from the loader's thread, its signals are queued.
    _loader = loading = TorchLoading(parent)
    _thread = threading.Thread(target=_run, args=(loading,), name="torch-import", daemon=True)
    _thread.start()
    return loading


def wait_settled(timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for an import under way to end; whether none is running.

    A window closed while torch is being imported (a user who changes their mind, a slow start
    on a busy machine) must not end the interpreter under the import: torch's native static
    initialisers then race the process's exit handlers, and the process dies of SIGSEGV or
    SIGABRT (``torch::jit::ErrorReport``) instead of exiting 0."""
    thread = _thread
    if thread is None or not thread.is_alive():
        return True
    thread.join(timeout)
    return not thread.is_alive()


def _run(loading: TorchLoading) -> None:
    try:
        preload_native_libraries()
        with pyside_import_hook.bypassed():  # torch's own modules: none says PySide6
            importlib.import_module("torch")
        for name in SESSION_MODULES:  # (the window's modules through PySide's hook, as ever)
            importlib.import_module(name)
    except BaseException as exc:  # noqa: BLE001 -- any failure to import torch is said in the window
        if not threading.main_thread().is_alive():  # the app ended mid-import (a window closed at once):
            return  # the interpreter's shutdown cut it short ("can't register atexit after shutdown")
        log.exception("importing torch failed")
        loading.failed.emit(f"PyTorch could not be imported: {type(exc).__name__}: {exc}")
        return
    # What torch made at import lives as long as the process: out of the cycle collector's
    # walks, as the app does with what exists at start (``app._collect_garbage_on_gui_thread``).
    gc.freeze()
    _done.set()
    loading.loaded.emit()


def preload_native_libraries() -> list[str]:
    """``dlopen`` torch's native libraries with the GIL released; returns those loaded.

    ``ctypes.CDLL`` holds the GIL through its ``dlopen`` (CPython's ``_ctypes`` calls it
    directly), so ``dlopen`` itself is called as a foreign function, which ctypes calls with
    the GIL released. The handles are kept (never closed): ``import torch`` finds the
    libraries loaded. Where torch is not installed, or a library is not where a wheel puts
    it, nothing happens here: ``import torch`` then loads it, or says what is wrong."""
    if not sys.platform.startswith("linux") or "torch" in sys.modules:
        return []
    import ctypes

    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        return []
    try:
        dlopen = ctypes.CDLL(None).dlopen  # libc's (glibc >= 2.34 has dlopen in libc itself)
    except (OSError, AttributeError):
        return []
    dlopen.restype = ctypes.c_void_p
    dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
    folder = Path(spec.origin).parent / "lib"
    loaded = []
    for name in NATIVE_LIBRARIES:
        path = folder / name
        if not path.is_file():
            continue
        # As torch loads them: its global deps into the global scope, the rest local.
        mode = os.RTLD_NOW | (os.RTLD_GLOBAL if name == "libtorch_global_deps.so" else os.RTLD_LOCAL)
        if not dlopen(os.fsencode(path), mode):  # import torch will meet it too, and say why
            log.info("could not preload %s", path)
            break
        _handles.append(name)
        loaded.append(name)
    return loaded
