"""Closing the window while its model is still loading (issue 12, item 2).

A model factory cannot be interrupted: the ModelWorker runs the load on a thread of its own
and abandons it when the window closes, so the worker's QThread ends at once and the process
exits 0 without Qt's "QThread: Destroyed while thread is still running" abort. Each case runs
the real ``main()`` in a fresh process (what a user launches; forked from a warm interpreter,
see tests/warm_python.py) and closes the window a given time after ``show()``.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from tests.warm_python import run_python

REPO = pathlib.Path(__file__).resolve().parents[3]

_CLOSE_AFTER_SHOW = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from inspector.gui.shell import app

    delay_ms, spec = int(float(sys.argv[1]) * 1000), sys.argv[2]
    create = app.create_window

    def create_then_close(**kwargs):
        window = create(**kwargs)
        show = window.show

        def show_then_close():
            show()
            print("shown; loaded:", window.session_state.model is not None, flush=True)
            if delay_ms == 0:
                window.close()  # before the event loop even runs
            else:
                QTimer.singleShot(delay_ms, window.close)

        window.show = show_then_close
        return window

    app.create_window = create_then_close
    raise SystemExit(app.main(model_spec=spec))
    """
)

#: A factory that takes far longer than a close may wait (its sleep cannot be interrupted), and
#: longer than the run may take: waited for, it fails the test whatever the machine's load.
_SLOW_FACTORY = "import time\nimport torch\n\ndef make():\n    time.sleep(600)\n    return torch.nn.Linear(2, 2)\n"


def _run(tmp_path, delay_s: float, spec: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    return run_python(["-c", _CLOSE_AFTER_SHOW, str(delay_s), spec], cwd=REPO, env=env, timeout=180)  # only a hang reaches it


def _assert_clean_exit(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 0, done.stderr
    assert "shown; loaded: False" in done.stdout, done.stdout  # it really closed mid-load
    assert "QThread" not in done.stderr and "Destroyed" not in done.stderr, done.stderr
    assert "did not stop" not in done.stderr and "Traceback" not in done.stderr, done.stderr


# 0 s runs by default; 0.1 and 0.5 s (a fresh process each, seconds under load) with -m slow.
@pytest.mark.parametrize("delay_s", [0, pytest.param(0.1, marks=pytest.mark.slow), pytest.param(0.5, marks=pytest.mark.slow)])
def test_closing_soon_after_show_exits_cleanly(tmp_path, delay_s):
    _assert_clean_exit(_run(tmp_path, delay_s, "example"))


def test_closing_during_a_slow_factory_abandons_it_and_exits_at_once(tmp_path):
    factory = tmp_path / "slow_model.py"
    factory.write_text(_SLOW_FACTORY)
    done = _run(tmp_path, 0.3, f"{factory}:make")
    _assert_clean_exit(done)
    # Exited without waiting the factory's 600 s (subprocess.run's timeout would fail first).


def test_abandonable_work_returns_its_result_or_error_and_is_given_up_on_cancel():
    import threading

    from inspector.core.errors import Cancelled
    from inspector.gui.state.threads import run_abandonable, wait_abandoned

    assert run_abandonable(lambda: 42, lambda: False, name="quick") == 42

    def broken() -> None:
        raise ValueError("the factory's own error")

    with pytest.raises(ValueError, match="factory's own"):
        run_abandonable(broken, lambda: False, name="broken")

    release, cancel = threading.Event(), threading.Event()
    threading.Timer(0.05, cancel.set).start()
    with pytest.raises(Cancelled):
        run_abandonable(lambda: release.wait(30), cancel.is_set, name="stuck")  # returns after the cancel
    assert not wait_abandoned(0.05)  # the abandoned work runs on...
    release.set()
    assert wait_abandoned(5)  # ...until its own end
    with pytest.raises(Cancelled):  # nothing starts once cancelled
        run_abandonable(lambda: pytest.fail("ran after the cancel"), cancel.is_set, name="late")


#: The real ``main()`` in a cold process, the window closed while torch is still being imported
#: on the loader's thread (held there until the close, so the order is the test's, not the
#: machine's). The loader and the interpreter's exit each say when they happen.
_CLOSE_DURING_TORCH_IMPORT = textwrap.dedent(
    """
    import atexit, sys, threading
    from PySide6.QtCore import QTimer
    from inspector.gui.shell import app, torch_loader

    started, closed = threading.Event(), threading.Event()
    preload, run = torch_loader.preload_native_libraries, torch_loader._run

    def held_preload():
        started.set()
        closed.wait(60)  # torch's import goes on only once the window is closed
        return preload()

    def said_run(loading):
        run(loading)
        print("loader: torch imported", flush=True)

    torch_loader.preload_native_libraries, torch_loader._run = held_preload, said_run
    atexit.register(lambda: print("interpreter: exiting", flush=True))
    create = app.create_window

    def create_then_close(**kwargs):
        window = create(**kwargs)
        show = window.show

        def close_once_the_import_started():
            if started.is_set():
                timer.stop()
                window.close()
                closed.set()

        def show_then_close():
            show()
            timer.start()

        timer = QTimer(window, interval=10)
        timer.timeout.connect(close_once_the_import_started)
        window.show = show_then_close
        return window

    app.create_window = create_then_close
    raise SystemExit(app.main())
    """
)


def test_closing_while_torch_is_imported_waits_for_the_import_then_exits_cleanly(tmp_path):
    """Closed during torch's import (a slow start on a busy machine), the process died of
    SIGSEGV or SIGABRT (``torch::jit::ErrorReport``) in 4 of 7 tries: the interpreter's exit
    ran under torch's native initialisers. Now the exit waits for the import to end."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    env.pop("TORCH_DEVICE_INSPECTOR_EARLY_WINDOW", None)
    done = subprocess.run([sys.executable, "-c", _CLOSE_DURING_TORCH_IMPORT], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines.index("loader: torch imported") < lines.index("interpreter: exiting"), lines
