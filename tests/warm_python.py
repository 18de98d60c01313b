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
    "inspector.cli", "inspector.core.session", "inspector.gui.shell.app", "inspector.gui.shell.window",
)  # fmt: skip


def _serve(reply_fd: int, socket_path: str) -> None:
    """The server's loop. Requests come as JSON lines on stdin (answered on ``reply_fd``) or
    from ``warm_command``'s clients on a Unix socket (with the client's stdin, stdout and
    stderr attached); each becomes a forked child. Ends when stdin closes."""
    import gc
    import importlib
    import select
    import signal
    import socket
    import time

    for name in PRELOAD:
        importlib.import_module(name)
    gc.freeze()  # what the preload made is never garbage: children's collections skip it
    replies = os.fdopen(reply_fd, "w", buffering=1)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(8)
    running: dict[int, tuple[socket.socket | None, float]] = {}  # pid -> (its client, deadline)
    pending = b""
    replies.write(json.dumps({"ready": os.getpid()}) + "\n")

    def fork(request: dict, client: socket.socket | None, fds: list[int]) -> None:
        # torch's idle OpenMP worker is the only other (native) thread; a child starts its own.
        if threading.active_count() != 1:
            raise SystemExit("warm_python: the server has Python threads: a fork could copy their locks")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            replies.close()
            listener.close()
            for other, _ in running.values():
                if other is not None:
                    other.close()
            _child(request, fds)  # never returns: ends in SystemExit or an uncaught exception
        for fd in fds:
            os.close(fd)
        running[pid] = (client, time.monotonic() + request.get("timeout", 1e9))
        if client is not None:
            client.sendall(json.dumps({"pid": pid}).encode() + b"\n")

    def answer(pid: int, reply: dict) -> None:
        client, _ = running.pop(pid)
        if client is None:
            replies.write(json.dumps(reply) + "\n")
        else:
            try:
                client.sendall(json.dumps(reply).encode() + b"\n")
            except OSError:
                pass  # the client is gone
            client.close()

    while True:
        clients = {c.fileno(): (pid, c) for pid, (c, _) in running.items() if c is not None}
        readable, _, _ = select.select([0, listener.fileno(), *clients], [], [], 0.01)
        if 0 in readable:
            chunk = os.read(0, 1 << 20)
            if not chunk:
                break
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                fork(json.loads(line), None, [])
        if listener.fileno() in readable:
            client, _ = listener.accept()
            message, fds, _, _ = socket.recv_fds(client, 1 << 20, 3)
            fork(json.loads(message), client, fds)
        for fd in readable:
            if fd in clients:  # a client said nothing more: it died (killed), so its child goes too
                pid, _ = clients[fd]
                if pid in running and not clients[fd][1].recv(1):
                    os.kill(pid, signal.SIGKILL)
        while running:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if not pid:
                break
            if pid in running:
                answer(pid, {"returncode": os.waitstatus_to_exitcode(status)})
        now = time.monotonic()
        for pid, (client, deadline) in list(running.items()):
            if now > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                answer(pid, {"timeout": True})
    for pid in running:
        os.kill(pid, signal.SIGKILL)


def _child(request: dict, fds: list[int]) -> None:
    import runpy
    import types

    if fds:  # a socket client's own stdin, stdout and stderr
        for fd, given in zip((0, 1, 2), fds):
            os.dup2(given, fd)
        for given in fds:
            if given > 2:
                os.close(given)
    else:
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        os.close(stdin)
        for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
            opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
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


#: ``warm_command``'s client: an isolated Python without site (milliseconds to start; no working
#: folder on its path, so a decoy there never runs in it) that hands its
#: stdin, stdout and stderr to the server, passes on a terminate, and exits as the child did.
_CLIENT = """
import json, os, signal, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
request = {"argv": json.loads(sys.argv[2]), "cwd": os.getcwd(), "env": dict(os.environ)}
socket.send_fds(s, [json.dumps(request).encode()], [0, 1, 2])
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
f = s.makefile("rb")
pid = json.loads(f.readline())["pid"]
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, lambda number, frame: os.kill(pid, number))
reply = json.loads(f.readline() or b'{"returncode": -9}')
code = reply.get("returncode", 1)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


class WarmPython:
    """The test side: starts the server on first use, stops it when the test run ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._server: subprocess.Popen[str] | None = None
        self._replies = None
        self._ready = False
        self._folder = tempfile.TemporaryDirectory(prefix="warm-python-")
        self.socket_path = str(Path(self._folder.name) / "server.sock")

    def _start(self) -> None:
        read, write = os.pipe()
        log = open(Path(self._folder.name) / "server.log", "w")  # noqa: SIM115 -- kept for the server's life
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p))
        self._server = subprocess.Popen(
            [sys.executable, "-c", f"from tests.warm_python import _serve; _serve({write}, {self.socket_path!r})"],
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

    def _ensure_ready(self) -> None:
        if self._server is None or self._server.poll() is not None:
            self._start()
        if not self._ready:
            self._reply()  # {"ready": pid}
            self._ready = True

    def command(self, argv: Sequence[str]) -> list[str]:
        """A command line that runs ``python ARGV`` as a warm child attached to the command's
        own stdin, stdout and stderr (for code that starts the process itself, with pipes)."""
        with self._lock:
            self._ensure_ready()
        return [sys.executable, "-I", "-S", "-c", _CLIENT, self.socket_path, json.dumps(list(argv))]

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
            self._ensure_ready()
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
    """Start the server at once when a collected test module calls ``run_python`` or ``warm_command``."""
    if any(
        getattr(getattr(item, "module", None), name, None) in (run_python, warm_command)
        for item in items
        for name in ("run_python", "warm_command")
    ):
        _WARM.start()


def run_python(
    argv: Sequence[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python ARGV`` (``-c CODE ...`` or ``-m MODULE ...``) in a fresh process forked from
    a warm interpreter; its exit code, stdout and stderr."""
    return _WARM.run(argv, cwd=cwd, env=env, timeout=timeout)


def warm_command(argv: Sequence[str]) -> list[str]:
    """A command that runs ``python ARGV`` forked from the warm interpreter, with the pipes of
    whoever starts the command (an agent the client starts itself). Killing the command kills
    the child; a terminate is passed on to it; its exit code is the child's."""
    return _WARM.command(argv)
