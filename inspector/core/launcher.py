"""The one place the app starts another process (docs/architecture.md, "Gates"): no other module of
``inspector`` imports ``subprocess`` or ``multiprocessing``, forks or execs (a test scans them).

Two kinds of start:

``run_app_worker(entry, argv)``: this app again (``bench --repeat``'s runs, ``--against``'s
rounds), so that nothing but the app runs in it:

- isolated: ``-I`` (no ``PYTHON*`` variables, no user site, neither the script's nor the
  working folder on ``sys.path``), plus this interpreter's own flags (``-X``, ``-W``, ``-O``…,
  ``subprocess._args_from_interpreter_flags``), so ``PYTHONPATH=evil python -I …`` stays
  ``evil``-free in the worker as in the parent;
- the app by its absolute path: the worker's ``sys.path`` is this process's import path less
  the working folder (a ``package.module:factory`` found here is found there), and the
  ``inspector`` package is loaded from the folder this one came from, never looked up by name
  (a planted ``inspector.py`` or ``inspector/`` cannot stand in for it);
- in a working folder the app chooses (a fresh empty one, removed afterwards): callers make
  every path argument absolute first;
- ended with its parent: ``PR_SET_PDEATHSIG`` (Linux, set in the worker's first lines, then
  the parent's pid checked for the race), a pipe the worker watches (its end of file means
  the parent is gone: every POSIX system), and, while a worker runs, SIGTERM and SIGHUP
  handlers here that end it (and remove its folder) before this process dies of the signal.
  Not on Windows. A parent killed outright (SIGKILL) leaves the worker's empty folder behind.

``start_program`` / ``run_program``: a program the user named (the remote window's ``ssh …``)
or the system's (macOS ``sysctl``): an argv list, never a shell, and an environment without
Python's start-up variables (``PYTHONPATH``, ``PYTHONSTARTUP``, ``PYTHONHOME``…): a command the
user typed that is a Python program (``torch-device-inspector agent`` on this machine) runs
what it was asked to and not what a variable of the app's own environment names (an
environment a caller passes is used as given).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

#: Re-exported for the callers' waits and pipes (they never import subprocess themselves).
PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL
TimeoutExpired = subprocess.TimeoutExpired
SubprocessError = subprocess.SubprocessError
Popen = subprocess.Popen

#: What a worker exits with when it finds its parent gone.
PARENT_GONE_EXIT = 3
#: The interpreter flags ``-I`` already stands for (given once, as ``-I``).
_ISOLATION_FLAGS = frozenset({"-I", "-E", "-s", "-P"})
#: Linux's prctl option that sends a signal to a process when its parent (thread) dies.
_PR_SET_PDEATHSIG = 1

#: The worker's ``-c`` program: the parent's import path, then the app's own package loaded
#: from its folder, then the worker's start (``_worker_main``). Nothing else runs before it.
_BOOTSTRAP = """\
import sys, importlib.machinery as m, importlib.util as u
sys.path[:] = {path!r}
s = m.PathFinder.find_spec("inspector", [{home!r}])
p = u.module_from_spec(s); sys.modules["inspector"] = p; s.loader.exec_module(p)
from inspector.core.launcher import _worker_main
_worker_main({parent!r}, {watch!r}, {entry!r})
"""


@dataclass(frozen=True)
class Finished:
    """A worker's end: its exit status and what it wrote (text; undecodable bytes replaced)."""

    returncode: int
    stdout: str
    stderr: str


# ---------------------------------------------------------------------- the app's workers


def app_home() -> str:
    """The folder that holds this app's ``inspector`` package (absolute)."""
    import inspector

    return os.path.dirname(os.path.dirname(os.path.abspath(inspector.__file__)))


def interpreter_flags() -> list[str]:
    """This interpreter's flags as a worker's, with ``-I`` for the isolation flags."""
    # The standard library's own reading of sys.flags, sys.warnoptions and -X (private, but
    # what its test suite starts children with); without it, the flags are not passed on.
    reproduce = getattr(subprocess, "_args_from_interpreter_flags", list)
    flags = [flag for flag in reproduce() if flag not in _ISOLATION_FLAGS]
    return ["-I", *flags]


def import_path() -> list[str]:
    """This process's ``sys.path`` less the working folder (``""``, ``"."``, any relative
    entry, or one naming the working folder): what a worker may import from."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # the working folder was deleted: nothing names it
        here = None
    kept: list[str] = []
    for entry in sys.path:
        if not isinstance(entry, str) or not os.path.isabs(entry):
            continue
        if here is not None and os.path.realpath(entry) == here:
            continue
        if entry not in kept:
            kept.append(entry)
    return kept


def app_workers_possible() -> bool:
    """Whether this app can start itself again as a worker: not from a bundle (PyInstaller),
    whose executable is the app, not an interpreter that takes ``-c``."""
    return not getattr(sys, "frozen", False)


def app_worker_command(entry: str, argv: Sequence[str], *, watch_fd: int | None) -> list[str]:
    """The command line of a worker that runs ``entry`` (``"module:function"``) with
    ``sys.argv[1:] == argv``; ``watch_fd``: the pipe end it watches (None: none)."""
    program = _BOOTSTRAP.format(path=import_path(), home=app_home(), parent=os.getpid(), watch=watch_fd, entry=entry)
    return [sys.executable, *interpreter_flags(), "-c", program, *argv]


def run_app_worker(entry: str, argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> Finished:
    """Run ``entry`` of this app in a worker (see the module's docstring) with ``argv``, wait
    for it, and return how it ended. Every path in ``argv`` must be absolute: the worker runs
    in a folder of its own. The calling thread must outlive the worker (it does: this waits)."""
    folder = tempfile.mkdtemp(prefix="tdi-worker-")
    watch_read, watch_write = os.pipe() if os.name == "posix" else (None, None)
    try:
        command = app_worker_command(entry, argv, watch_fd=watch_read)
        with _ended_on_signals():
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, errors="replace", cwd=folder, env=None if env is None else dict(env),
                pass_fds=() if watch_read is None else (watch_read,),
            )  # fmt: skip
            _RUNNING[process] = folder
            if watch_read is not None:
                os.close(watch_read)  # the worker's end: held by the worker alone
                watch_read = None
            try:
                out, err = process.communicate()
            except BaseException:  # Ctrl+C, or a signal handler's exit: the worker ends with us
                process.kill()
                process.wait()
                raise
            finally:
                _RUNNING.pop(process, None)
        return Finished(process.returncode, out, err)
    finally:
        for fd in (watch_read, watch_write):
            if fd is not None:
                os.close(fd)  # the worker's end of file, if it still runs
        shutil.rmtree(folder, ignore_errors=True)


def run_app_workers(
    entry: str, argvs: Sequence[Sequence[str]], *, env: Mapping[str, str] | None = None,
    should_stop: Callable[[], bool] | None = None, poll_seconds: float = 0.1,
) -> list[Finished]:
    """Run one worker of ``entry`` per ``argvs`` item at once (the ranks of a distributed run),
    each as ``run_app_worker`` runs one, in one working folder; wait for all. Where one fails
    (a non-zero exit) or ``should_stop()`` says so, the others are killed at once (they would
    wait on it); on any exception here (Ctrl+C) all are killed before it propagates."""
    folder = tempfile.mkdtemp(prefix="tdi-workers-")
    watch_read, watch_write = os.pipe() if os.name == "posix" else (None, None)
    processes: list[subprocess.Popen[str]] = []
    outputs: list[tuple[IO[str], IO[str]]] = []
    try:
        with _ended_on_signals():
            try:
                for argv in argvs:
                    out, err = (tempfile.TemporaryFile("w+", errors="replace") for _ in range(2))
                    outputs.append((out, err))
                    process = subprocess.Popen(
                        app_worker_command(entry, argv, watch_fd=watch_read), stdin=subprocess.DEVNULL, stdout=out,
                        stderr=err, text=True, cwd=folder, env=None if env is None else dict(env),
                        pass_fds=() if watch_read is None else (watch_read,),
                    )  # fmt: skip
                    processes.append(process)
                    _RUNNING[process] = folder
                if watch_read is not None:
                    os.close(watch_read)  # the workers' end: held by them alone
                    watch_read = None
                while any(p.poll() is None for p in processes):
                    failed = any(p.returncode not in (None, 0) for p in processes)
                    if failed or (should_stop is not None and should_stop()):
                        _kill_all(processes)
                        break
                    time.sleep(poll_seconds)
            except BaseException:  # Ctrl+C, a failed start: none outlives this call
                _kill_all(processes)
                raise
            finally:
                for process in processes:
                    _RUNNING.pop(process, None)
        ended = []
        for process, (stdout, stderr) in zip(processes, outputs):
            stdout.seek(0)
            stderr.seek(0)
            ended.append(Finished(process.returncode, stdout.read(), stderr.read()))
        return ended
    finally:
        for files in outputs:
            for file in files:
                file.close()
        for fd in (watch_read, watch_write):
            if fd is not None:
                os.close(fd)
        shutil.rmtree(folder, ignore_errors=True)


def _kill_all(processes: list[subprocess.Popen[str]]) -> None:
    for process in processes:
        with contextlib.suppress(OSError):
            process.kill()
    for process in processes:
        with contextlib.suppress(OSError):
            process.wait()


#: The workers running now and their folders, ended and removed by the signal handlers.
_RUNNING: dict[subprocess.Popen[str], str] = {}
#: The signals that end a worker's parent and, with it, the worker (those that exist here).
_ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _ended_on_signals() -> Iterator[None]:
    """While it is open: SIGTERM and SIGHUP, where this process would die of them (their
    handler is the default one), first kill the running workers and remove their folders, then
    end this process by the same signal. A signal the user ignores (``nohup``) or handles is left alone,
    and so is a thread other than the main one (only it may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    installed = {}
    for number in _ENDING_SIGNALS:
        if signal.getsignal(number) is signal.SIG_DFL:
            installed[number] = signal.signal(number, _end_workers_then_die)
    try:
        yield
    finally:
        for number, previous in installed.items():
            signal.signal(number, previous)


def _end_workers_then_die(number: int, _frame: Any) -> None:
    for process, folder in list(_RUNNING.items()):
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            process.wait(timeout=5)  # gone before its folder is (SIGKILL cannot be refused)
        shutil.rmtree(folder, ignore_errors=True)
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)  # as the signal would have: the exit status says which


def _worker_main(parent: int, watch_fd: int | None, entry: str) -> None:
    """A worker's first lines (run by ``_BOOTSTRAP``): end with the parent, then run ``entry``."""
    import importlib

    _die_with_parent(parent)
    if watch_fd is not None:
        threading.Thread(target=_watch_parent, args=(watch_fd,), name="parent-watch", daemon=True).start()
    module, _, function = entry.partition(":")
    getattr(importlib.import_module(module), function)()


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies; exit now if it already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl here: the pipe still tells
            pass
    if os.getppid() != parent:  # it died before prctl took: we were re-parented already
        os._exit(PARENT_GONE_EXIT)


def _watch_parent(fd: int) -> None:
    """Wait for the end of the parent's pipe (the parent closed it or died), then leave at once."""
    try:
        while os.read(fd, 1):  # the parent never writes: anything read is also the end
            break
    except OSError:
        pass
    os._exit(PARENT_GONE_EXIT)


# ---------------------------------------------------------------------- other programs

#: Variables that make a Python interpreter run or import code of their choosing at start-up.
#: Kept from other programs' environments (the protective ones, PYTHONSAFEPATH and
#: PYTHONNOUSERSITE, stay).
PYTHON_START_UP_VARIABLES = frozenset({
    "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONINSPECT", "PYTHONEXECUTABLE",
    "PYTHONBREAKPOINT", "PYTHONPLATLIBDIR", "PYTHONPYCACHEPREFIX",
})  # fmt: skip


def program_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a program starts with: ``env`` where the caller gives one (as given:
    the caller chose it), else this process's less Python's start-up variables."""
    if env is not None:
        return dict(env)
    return {key: value for key, value in os.environ.items() if key not in PYTHON_START_UP_VARIABLES}



def start_program(
    argv: Sequence[str],
    *,
    stdin: int | IO[Any] | None = None,
    stdout: int | IO[Any] | None = None,
    stderr: int | IO[Any] | None = None,
    env: Mapping[str, str] | None = None,
    new_session: bool = False,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` (a list: its first word is the program, no shell reads it); OSError if it
    cannot start. ``new_session``: in a process group of its own (Ctrl+C in the terminal does
    not reach it; POSIX)."""
    return subprocess.Popen(
        list(argv), stdin=stdin, stdout=stdout, stderr=stderr, env=program_environment(env),
        start_new_session=new_session and os.name != "nt",
    )  # fmt: skip


def run_program(argv: Sequence[str], *, timeout: float) -> str:
    """The stdout of ``argv`` run to its end (text), no shell, stdin closed; OSError if it
    cannot start, SubprocessError if it fails or outlasts ``timeout`` seconds."""
    done = subprocess.run(list(argv), stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                          env=program_environment(), timeout=timeout, check=True)  # fmt: skip
    return done.stdout
