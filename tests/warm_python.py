"""Fresh Python processes without paying ``import torch`` each time.

Tests that check what a whole process does (its exit code, what reaches file descriptors 1
and 2, what Qt prints while the interpreter shuts down) need a process of their own; starting
one costs seconds of imports (torch, PySide6, pyqtgraph) on a shared two-core machine. A
warm server imports those once and, for each run, forks a child that behaves as
``python -c CODE ARGS`` or ``python -m MODULE ARGS`` would: its own working directory,
environment, argv, stdin (/dev/null), stdout and stderr (files read back), and a normal
interpreter shutdown at the end (atexit, Qt's destructors, thread warnings) that sets the
exit code. Only what is imported before any user code runs is shared, and nothing
has started then: no QApplication, no Python thread (the server checks before each fork).

Not for checks that need a module to be absent (tests/cli/test_headless_import.py) or
that time a cold start.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: Imported once by the server: what the children import anyway. (A cold import of the
#: window is still tested: tests/test_packaging.py opens an installed copy in a real process.)
PRELOAD = (
    "torch", "torch._dynamo", "PySide6.QtWidgets", "pyqtgraph", "pytest",
    "inspector.cli", "inspector.core.session", "inspector.gui.app", "inspector.gui.main_window",
)  # fmt: skip


def _serve(reply_fd: int) -> None:
    """The server's loop: one JSON request per line on stdin, one reply per line on ``reply_fd``."""
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    import gc

    gc.freeze()  # what the preload made is never garbage: children's collections skip it
    replies = os.fdopen(reply_fd, "w", buffering=1)
    replies.write(json.dumps({"ready": os.getpid()}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        # torch's idle OpenMP worker is the only other (native) thread; a child starts its own.
        if threading.active_count() != 1:
            replies.write(json.dumps({"error": "the server has Python threads: a fork could copy their locks"}) + "\n")
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            replies.close()
            _child(request)  # never returns: ends in SystemExit or an uncaught exception
        replies.write(json.dumps(_wait(pid, request["timeout"])) + "\n")


def _wait(pid: int, timeout: float) -> dict[str, object]:
    import time

    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return {"returncode": os.waitstatus_to_exitcode(status)}
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return {"timeout": True}
        time.sleep(0.005)


def _child(request: dict) -> None:
    import runpy
    import types

    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    os.close(stdin)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    extra = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p and p not in sys.path]
    sys.path[1:1] = extra
    flag, target, *args = request["argv"]
    if flag == "-c":
        sys.path[0] = ""
        sys.argv = ["-c", *args]
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        exec(compile(target, "<string>", "exec"), main.__dict__)
    elif flag == "-m":
        sys.path[0] = os.getcwd()
        sys.argv = ["-m", *args]
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        raise SystemExit(f"warm_python: unsupported argv {request['argv']!r}")
    raise SystemExit(0)


class WarmPython:
    """The test side: starts the server on first use, stops it when the test run ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._server: subprocess.Popen[str] | None = None
        self._replies = None
        self._ready = False
        self._folder = tempfile.TemporaryDirectory(prefix="warm-python-")

    def _start(self) -> None:
        read, write = os.pipe()
        log = open(Path(self._folder.name) / "server.log", "w")  # noqa: SIM115 -- kept for the server's life
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p))
        self._server = subprocess.Popen(
            [sys.executable, "-c", f"from tests.warm_python import _serve; _serve({write})"],
            cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=log, text=True,
            pass_fds=(write,),
        )  # fmt: skip
        os.close(write)
        self._replies = os.fdopen(read, "r")
        self._ready = False
        atexit.register(self.close)

    def start(self) -> None:
        """Start the server's imports now, without waiting (they overlap other tests)."""
        with self._lock:
            if self._server is None:
                self._start()

    def _reply(self) -> dict:
        line = self._replies.readline()
        if not line:
            log = (Path(self._folder.name) / "server.log").read_text()
            raise RuntimeError(f"the warm Python server died:\n{log[-4000:]}")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"warm Python server: {reply['error']}")
        return reply

    def run(
        self, argv: Sequence[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """Like ``subprocess.run([sys.executable, *argv], capture_output=True, text=True)``."""
        with self._lock:
            if self._server is None or self._server.poll() is not None:
                self._start()
            if not self._ready:
                self._reply()  # {"ready": pid}
                self._ready = True
            out, err = (Path(self._folder.name) / name for name in ("stdout", "stderr"))
            request = {"argv": list(argv), "cwd": str(cwd), "env": dict(env), "timeout": timeout,
                       "stdout": str(out), "stderr": str(err)}  # fmt: skip
            self._server.stdin.write(json.dumps(request) + "\n")
            self._server.stdin.flush()
            reply = self._reply()
            stdout, stderr = out.read_text(errors="replace"), err.read_text(errors="replace")
        args = [sys.executable, *argv]
        if reply.get("timeout"):
            raise subprocess.TimeoutExpired(args, timeout, output=stdout, stderr=stderr)
        return subprocess.CompletedProcess(args, reply["returncode"], stdout, stderr)

    def close(self) -> None:
        if self._server is not None and self._server.poll() is None:
            self._server.stdin.close()
            try:
                self._server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._server.kill()
        self._folder.cleanup()


_WARM = WarmPython()


def start_if_used(items: Sequence[object]) -> None:
    """Start the server at once when a collected test module calls ``run_python``."""
    if any(getattr(getattr(item, "module", None), "run_python", None) is run_python for item in items):
        _WARM.start()


def run_python(
    argv: Sequence[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python ARGV`` (``-c CODE ...`` or ``-m MODULE ...``) in a fresh process forked from
    a warm interpreter; its exit code, stdout and stderr."""
    return _WARM.run(argv, cwd=cwd, env=env, timeout=timeout)
