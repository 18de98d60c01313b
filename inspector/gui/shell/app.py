"""Application set-up: ``create_window`` (for tests and embedding) and ``main`` (the CLI's window).

Order: on Linux the window's frame is made and painted before torch is imported, which then
happens off the GUI thread (``torch_loader``, with what is known of the order on each
platform); on Windows (and macOS, untested here) torch is still imported before Qt. The
branding (application names, icon, style sheet) is applied right after the QApplication is
made, so QSettings and every window see it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import os
import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING, Iterator, Mapping

if TYPE_CHECKING:  # (Qt and the window are imported when first needed: see ``main``)
    from PySide6.QtCore import QCoreApplication

    from inspector.gui.shell.window import InspectorWindow

NO_DISPLAY_MESSAGE = (
    "error: the window needs a display, and none was found (neither DISPLAY nor WAYLAND_DISPLAY names a "
    "display server that answers, or QT_QPA_PLATFORM names a platform whose display is not there).\n"
    "  - to run the window without a screen (CI, a server), set QT_QPA_PLATFORM=offscreen;\n"
    "  - for the headless commands, use: torch-device-inspector devices | inspect | bench\n"
    "    (see torch-device-inspector --help)."
)


#: How long an exit waits for a model load the close abandoned (a factory still running).
ABANDONED_WAIT_S = 0.5
#: How long an exit waits for torch's import, when the window was closed during it (the
#: import takes ~2 s here; the window is already gone, so the wait is not seen).
IMPORT_WAIT_S = 30.0

#: Keeps the QApplication made here alive: PySide deletes one whose last reference goes.
_application = None
#: pyqtgraph's GarbageCollector, once per process (see ``_collect_garbage_on_gui_thread``).
_collector = None
#: The language the QApplication was to speak but whose catalogue could not be read (the
#: first window says so); None when it speaks what was chosen.
_unavailable_language: str | None = None


def qt_binding_problem() -> str | None:
    """Why the installed Qt binding cannot run the window, in words; None when it can.

    PySide6 6.12.0 drops a reference to None/True/False on every call that returns one when
    it runs on Python < 3.12 (where those objects are not yet immortal): after a few thousand
    Qt calls the interpreter aborts with "deallocating None". Checked by hand here because
    pip cannot express "not this release on that Python" once it is installed.
    """
    import PySide6

    if PySide6.__version__ == "6.12.0" and sys.version_info < (3, 12):
        return (
            f"PySide6 6.12.0 crashes on Python {sys.version_info.major}.{sys.version_info.minor} "
            "(it loses references to None/True/False); install another release with "
            "pip install 'PySide6-Essentials<6.12', or use Python 3.12 or newer"
        )
    return None


#: Qt platform plugins that draw without a display server (into memory, a VNC client, the
#: framebuffer or a KMS/EGL screen), so no DISPLAY or WAYLAND_DISPLAY is needed.
_SERVERLESS_PLATFORMS = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhrdisplay"}
)


def has_display() -> bool:
    """False on Linux/BSD when Qt would find no display and abort; elsewhere always True.

    ``QT_QPA_PLATFORM`` may name the platform (``xcb``, ``wayland``, ``offscreen``), with
    options (``vnc:size=800x600``), or a ``;``-separated list Qt tries in order; without it Qt
    picks xcb or wayland. Either of those needs its server's variable set, or Qt aborts.
    """
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    env = os.environ
    requested = env.get("QT_QPA_PLATFORM", "").strip()
    if not requested:
        return _platform_usable("xcb", env) or _platform_usable("wayland", env)
    names = [entry.partition(":")[0].strip().lower() for entry in requested.split(";")]
    return any(_platform_usable(name, env) for name in names if name)


def _platform_usable(name: str, env: Mapping[str, str]) -> bool:
    if name in _SERVERLESS_PLATFORMS:
        return True
    if name.startswith("wayland"):  # wayland, wayland-egl, wayland-brcm
        return bool(env.get("WAYLAND_DISPLAY")) and _wayland_compositor_answers()
    if name == "xcb":
        return bool(env.get("DISPLAY")) and _x_server_answers()
    return False  # a platform we do not know: Qt would abort if it cannot load it


def _x_server_answers() -> bool:
    """Whether an X connection to $DISPLAY opens, asked the way Qt's xcb plugin asks.

    A DISPLAY naming no server (or one that refuses us) makes Qt abort the process (exit
    134) instead of raising; libxcb's own connect says so first, in a millisecond. Without
    libxcb, Qt's xcb plugin cannot load either.
    """
    xcb = _library("xcb", "libxcb.so.1")
    if xcb is None:
        return False
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(None, None)  # None: $DISPLAY, as Qt does
    try:
        return bool(connection) and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection:
            xcb.xcb_disconnect(connection)  # also frees the error object of a failed one


def _wayland_compositor_answers() -> bool:
    """Whether a Wayland connection to $WAYLAND_DISPLAY opens (libwayland-client, as Qt does)."""
    wayland = _library("wayland-client", "libwayland-client.so.0")
    if wayland is None:
        return False
    wayland.wl_display_connect.restype = ctypes.c_void_p
    wayland.wl_display_connect.argtypes = [ctypes.c_char_p]
    wayland.wl_display_disconnect.argtypes = [ctypes.c_void_p]
    with _stderr_silenced():  # libwayland prints its own complaint (XDG_RUNTIME_DIR...)
        display = wayland.wl_display_connect(None)
    if not display:
        return False
    wayland.wl_display_disconnect(display)
    return True


@contextlib.contextmanager
def _stderr_silenced() -> Iterator[None]:
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _library(name: str, fallback: str) -> ctypes.CDLL | None:
    """The library by its soname (``fallback``) where the platform's loader finds it by that
    (Linux, the BSDs: ``ctypes.util.find_library`` there runs ldconfig, or gcc found on PATH),
    else as ``find_library`` finds ``name``."""
    try:
        if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
            return ctypes.CDLL(fallback)
        return ctypes.CDLL(ctypes.util.find_library(name) or fallback)
    except OSError:
        return None


def ensure_application() -> QCoreApplication:
    """The running QApplication, or a new one (branding applied). torch comes first only where
    the platform needs it (``torch_loader.import_first``); elsewhere the window's frame paints
    while torch is imported off the GUI thread."""
    from inspector.gui.shell import torch_loader

    if torch_loader.import_first():
        import torch  # noqa: F401  -- before Qt: see gui.torch_loader

    from PySide6.QtWidgets import QApplication

    global _application, _unavailable_language
    app = QApplication.instance()
    if app is None:
        from inspector.gui.common.branding import apply_branding

        app = _application = QApplication(sys.argv[:1])
        apply_branding(app)  # names (QSettings' file), desktop file name, icon, style sheet
        from inspector.gui.shell.settings_file import guard_settings_files

        guard_settings_files(app)  # before the first QSettings reads them: a FIFO there blocks
        from inspector.gui.common import i18n
        from inspector.gui.common.language_choice import chosen_language

        language = chosen_language()  # the settings' choice, else the system locale's
        if not i18n.apply_language(language):
            _unavailable_language = language
    _collect_garbage_on_gui_thread()
    return app


def _collect_garbage_on_gui_thread() -> None:
    """Run Python's cycle collector only on the GUI thread, from a timer.

    Left automatic, a collection runs in whichever thread allocates at that moment: a model
    load (a Transformer's deepcopy) then frees an earlier window's Qt objects there. Their
    C++ destructors take Qt's connection lock and wait for the GIL while the GUI thread,
    deleting another object, holds the GIL and waits for that lock: the window froze for
    good (seen in the test suite). pyqtgraph's GarbageCollector turns automatic collection
    off and collects on a 1 s timer with the same generation thresholds; code that pauses
    the collector around a timed loop restores it to off.

    What is alive by now (torch, Qt, pyqtgraph: ~215,000 objects) is frozen
    (``gc.freeze``): a full collection walked all of it, ~95 ms on the GUI thread, and the
    timer ran one every ~70,000 allocations, so a benchmark or a move stalled the window
    ~100 ms at a time (``benchmarks/ui_stall.py``). Frozen objects are never collected as
    cycles; they are the modules and their objects, which live as long as the process.
    """
    global _collector
    if _collector is None:
        from pyqtgraph.util.garbage_collector import GarbageCollector

        _collector = GarbageCollector(interval=1.0)
        gc.collect()  # what is garbage now goes first, not into the permanent generation
        gc.freeze()


def create_window(model_spec: str = "example", trust: bool = False) -> InspectorWindow:
    """The main window, not shown yet; it starts loading ``model_spec`` right away.

    Raises ``InspectorError`` when the installed Qt binding is known to crash.
    """
    global _unavailable_language
    problem = qt_binding_problem()
    if problem is not None:
        from inspector.core.errors import InspectorError

        raise InspectorError(problem)
    ensure_application()
    from inspector.gui.shell.window import InspectorWindow

    window = InspectorWindow(model_spec=model_spec, trust=trust)
    if _unavailable_language is not None:  # said once, by the first window
        window.say_language_unavailable(_unavailable_language)
        _unavailable_language = None
    # File › Connect to server… imports the remote kind (and the agent client) when asked,
    # not in the first second (issue 12).
    window.connectServerRequested.connect(lambda: connect_server_dialog(window))
    return window


# ---------------------------------------------------------------------- File › Connect to server…
# The app is where a window gets its kind (``shell.window_kind``): the window's class and the
# remote kind (``shell.remote_window``) never import each other.


def connect_server_dialog(window: InspectorWindow) -> None:
    """Ask for a host and the command that reaches an agent there; open a window connected to it."""
    from PySide6.QtWidgets import QDialog

    from inspector.gui.features.remote.connect_dialog import ConnectDialog

    dialog = ConnectDialog(window.settings, window)
    if dialog.exec() == QDialog.DialogCode.Accepted and dialog.host() and dialog.command():
        connect_server(window, dialog.host(), dialog.command())


def connect_server(
    window: InspectorWindow, host: str, command: str | list[str], *, model_spec: str = "example"
) -> InspectorWindow:
    """Open (and show) a window of the remote kind connected to ``host`` through ``command``, held
    by ``window`` while it is open; a command typed as text is remembered in the recent list.
    Returns the new window (its ``kind`` is the ``remote_window.RemoteKind``: link, host, remote bar)."""
    from inspector.gui.features.remote.connect_dialog import remember
    from inspector.gui.shell.remote_window import RemoteKind
    from inspector.gui.shell.window import InspectorWindow

    if isinstance(command, str):
        remember(window.settings, host, command)
    remote = InspectorWindow(model_spec=model_spec, settings=window.settings, kind=RemoteKind(host, command))
    # Its own File › Connect to server… opens another, held by it.
    remote.connectServerRequested.connect(lambda: connect_server_dialog(remote))
    window.keep_open(remote)
    remote.show()
    return remote


def main(model_spec: str = "example", trust: bool = False) -> int:
    """Open the window and run until it closes. Returns the process exit code."""
    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return 1
    problem = qt_binding_problem()
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    app = ensure_application()
    window = create_window(model_spec=model_spec, trust=trust)
    window.show()
    with _ctrl_c_closes(window) as interrupted:
        # A window closed before the event loop runs (by code, right after show()) would
        # leave exec() waiting for a last-window-closed that already happened.
        code = 0 if window.closed else app.exec()
    if interrupted:
        code = 130  # the shell's convention for "stopped by Ctrl+C", as the CLI does
    stopped = window.shutdown()  # already done by closeEvent; harmless when repeated
    from inspector.gui.shell import torch_loader
    from inspector.gui.state.threads import wait_abandoned

    if not torch_loader.wait_settled(IMPORT_WAIT_S):
        # Closed while torch was being imported, and the import has not ended since: leave
        # without tearing the interpreter down under it (settings are synced in closeEvent).
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(code)

    if stopped and not wait_abandoned(ABANDONED_WAIT_S):
        # A model factory abandoned by the close is still running: it cannot be interrupted,
        # and tearing the interpreter down under it could crash. Settings are already
        # synced (closeEvent), so leave without destructors, quietly: nothing went wrong.
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(code)
    if not stopped:
        # A torch call that does not return (a hung driver) keeps a worker thread alive.
        # Destroying a running QThread aborts the process, so leave without destructors.
        print("warning: a background task did not stop within 2 s; exiting anyway", file=sys.stderr)
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(code)
    return code


@contextlib.contextmanager
def _ctrl_c_closes(window: InspectorWindow) -> Iterator[list[bool]]:
    """Ctrl+C in the terminal closes the window cleanly (threads stopped, settings saved),
    and every other top-level window with it (a remote session's window ends its agent).

    Python runs signal handlers only between bytecodes, and Qt's event loop is C++: a timer
    hands control back to Python a few times a second so the handler gets its turn.
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    interrupted: list[bool] = []

    def close(_signum: int, _frame: FrameType | None) -> None:
        interrupted.append(True)
        window.close()
        QApplication.closeAllWindows()  # the remote windows: the app quits when the last one closes

    previous = signal.signal(signal.SIGINT, close)
    wake = QTimer()
    wake.timeout.connect(lambda: None)
    wake.start(200)
    try:
        yield interrupted
    finally:
        wake.stop()
        signal.signal(signal.SIGINT, previous)
