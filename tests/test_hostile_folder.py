"""Issue 43: nothing runs that the user did not ask for, and nothing reaches the network, whatever
road a command takes. A property of every command, not a case per finding.

The world is hostile as a careless download or a shared machine makes it: the working folder
holds ``inspector.py``, an ``inspector/`` package, ``sitecustomize.py``, ``usercustomize.py``
and a decoy for every module the app imports on demand; ``PYTHONPATH`` names another such
folder, ``PYTHONSTARTUP`` a file, and every proxy variable (and ``HF_ENDPOINT``) a listener on
this machine that counts who connects. Each decoy, if it ever runs, writes a marker.

Every sub-command the parser knows is run (the cases are checked against the parser, so a new
command without a case fails here), and the agent is driven through a session. The parent
process is started as a user starts the console script isolated (no working folder and no
``PYTHONPATH`` on its ``sys.path``); an audit hook in it records every process it starts and
every internet socket it opens. Asserted: no marker, no connection to the listener, no socket
opened by the parent, and every Python the app starts is isolated (``-I``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from tests.decoys import decoys_that_ran, plant_decoys
from tests.warm_python import run_python, warm_command

#: The parent: an audit hook that records each process started and each internet socket
#: connected (to files named by the environment), ``sys.path`` as the console script or
#: ``python -I`` has it (neither the working folder nor ``PYTHONPATH``), then the CLI.
PARENT = r"""
import os, sys
_log = os.environ["TDI_AUDIT_LOG"]

def _note(kind, what):
    fd = os.open(_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.write(fd, (kind + "\t" + repr(what).replace("\n", " ") + "\n").encode())
    os.close(fd)

def _hook(event, args):
    if event == "subprocess.Popen":
        _note("process", [os.fsdecode(a) for a in args[1]] if args[1] is not None else args[0])
    elif event in ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty"):
        _note("process", event)
    elif event == "socket.connect" and getattr(args[0], "family", None) in (2, 10):  # AF_INET, AF_INET6
        _note("socket", args[1])

sys.addaudithook(_hook)
_evil = {os.path.realpath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
sys.path[:] = [p for p in sys.path if p not in ("", ".") and os.path.realpath(p) not in _evil]
from inspector.cli import main
sys.exit(main(sys.argv[1:]))
"""

#: What each planted file is called, besides the lazily imported names' decoys.
STARTUP_NAMES = ("inspector.py", "inspector/__init__.py", "sitecustomize.py", "usercustomize.py")
#: Programs the standard library or a library may look up on PATH (``platform.processor()``
#: runs ``uname -p``, ``ctypes.util.find_library`` runs ``ldconfig`` or ``gcc``, transformers'
#: RWKV ``ninja``, macOS's CPU name ``sysctl``): each planted first on PATH, marking if it runs.
PATH_PROGRAMS = ("uname", "ldconfig", "gcc", "cc", "ld", "objdump", "ninja", "sysctl", "nvidia-smi", "ssh", "git", "which")


class Listener:
    """A TCP listener on 127.0.0.1 that counts who connects (the proxies and the Hub point here)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.connections: list[tuple[str, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self.sock.accept()
            except OSError:
                continue
            self.connections.append(peer)
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


def _plant_programs(folder: Path, marks: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in PATH_PROGRAMS:
        program = folder / name
        program.write_text(f"#!/bin/sh\ntouch {marks / ('program-' + name)}\nexit 1\n")
        program.chmod(0o755)


def _plant(folder: Path, marks: Path, tag: str) -> None:
    """The startup names and every lazily imported name's decoy, each marking ``marks/TAG-NAME``."""
    folder.mkdir(parents=True, exist_ok=True)
    plant_decoys(folder, marks)
    for name in STARTUP_NAMES:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        mark = marks / f"{tag}-{name.replace('/', '_')}"
        path.write_text(f"open({str(mark)!r}, 'w').close()\n")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """The hostile folders, the model files the commands read, the listener and the environment."""
    from tests.cli.test_working_folder_code import make_model_folder
    from tests.hf_folders import config_folder

    root = tmp_path_factory.mktemp("hostile")
    marks = root / "marks"
    work, evil = root / "work", root / "evil"
    _plant(work, marks, "work")
    _plant(evil, marks, "pythonpath")
    _plant_programs(root / "bin", marks)
    models = make_model_folder(root / "models")
    llama = config_folder(models, "llama")
    startup = root / "startup.py"
    startup.write_text(f"open({str(marks / 'pythonstartup')!r}, 'w').close()\n")
    listener = Listener()
    env = {key: value for key, value in os.environ.items() if not key.lower().endswith("_proxy")}
    env.update(
        PYTHONPATH=str(evil), PYTHONSTARTUP=str(startup),
        XDG_CACHE_HOME=str(root / "cache"), HF_HOME=str(root / "hf"), HF_ENDPOINT=listener.url,
        QT_QPA_PLATFORM="offscreen", TDI_AUDIT_LOG=str(root / "audit.log"),
    )  # fmt: skip
    env["PATH"] = os.pathsep.join([str(root / "bin"), ".", env.get("PATH", "")])  # decoys first, "." too
    for name in ("http_proxy", "https_proxy", "all_proxy", "ftp_proxy"):
        env[name] = env[name.upper()] = listener.url
    env["no_proxy"] = env["NO_PROXY"] = ""
    yield {"root": root, "marks": marks, "work": work, "models": models, "llama": llama, "env": env,
           "listener": listener}  # fmt: skip
    listener.close()


def _reports(world) -> tuple[Path, Path]:
    """Two small timing reports to compare (written once, by the app itself, outside the hostile world)."""
    from inspector.cli import main

    out = world["root"] / "reports"
    if not out.exists():
        out.mkdir()
        for name in ("a.json", "b.json"):
            assert main(["bench", "example", "--device", "cpu", "--runs", "20", "--output", str(out / name)]) == 0
    return out / "a.json", out / "b.json"


#: What a client asks an agent: hello, open the example and a Hugging Face folder, a short
#: per-module benchmark, the report. Each is sent after the answer to the one before.
AGENT_REQUESTS = (
    ("hello", {"protocol": "1.2"}),
    ("open", {"spec": "example"}),
    ("benchmark", {"runs": 5, "per_module": True}),
    ("open", {"spec": "{llama}"}),
    ("report", {}),
)


def _run_agent(world, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The agent driven as a client drives it: one request, its answer, the next; then stdin closes."""
    agent = subprocess.Popen(warm_command(["-c", PARENT, "agent"]), cwd=world["work"], env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    answers = []
    try:
        for ident, (op, args) in enumerate(AGENT_REQUESTS, start=1):
            args = {k: (v.replace("{llama}", str(world["llama"])) if isinstance(v, str) else v) for k, v in args.items()}
            agent.stdin.write(json.dumps({"id": ident, "op": op, "args": args}) + "\n")
            agent.stdin.flush()
            while True:
                line = agent.stdout.readline()
                assert line, f"the agent ended before answering {op}: {agent.stderr.read()[-2000:]}"
                answer = json.loads(line)
                if answer.get("id") == ident and "ok" in answer:  # (events carry the id too)
                    answers.append(answer)
                    break
        agent.stdin.close()
        code = agent.wait(timeout=120)
    finally:
        if agent.poll() is None:
            agent.kill()
    failed = [a for a in answers if not a.get("ok")]
    return subprocess.CompletedProcess(agent.args, code if not failed else 1, "ok" if not failed else "",
                                       json.dumps(failed)[:3000] + agent.stderr.read()[-2000:])  # fmt: skip


def _device_map(root: Path) -> Path:
    path = root / "device_map.json"
    path.write_text(json.dumps({"model": "cpu", "lm_head": "cpu"}))
    return path


def cases(world) -> dict[str, tuple[list[str], str]]:
    """Every road: (argv, what its output shows when it worked), per sub-command and per kind of file."""
    models, llama, root = world["models"], world["llama"], world["root"]
    a, b = _reports(world)
    return {
        "devices": (["devices", "--json"], '"cpu"'),
        "devices-prometheus": (["devices", "--prometheus", str(root / "out" / "devices.prom")], ""),
        "inspect-example": (["inspect", "example"], "fc1.weight"),
        "inspect-pt2": (["inspect", str(models / "exported.pt2")], "fc.weight"),
        "inspect-safetensors": (["inspect", str(models / "model.safetensors"), "--arch", "example"], "fc1.weight"),
        "inspect-hugging-face": (["inspect", str(llama)], "lm_head.weight"),
        "inspect-device-map": (["inspect", str(llama), "--device-map", str(_device_map(root)), "--explain"], "cpu"),
        "bench-per-module-trace": (["bench", "example", "--device", "cpu", "--runs", "5", "--per-module",
                                    "--trace", str(root / "out" / "t.json"), "--output", str(root / "out" / "r.md")],
                                   "Top modules"),  # fmt: skip
        "bench-repeat": (["bench", "example", "--device", "cpu", "--runs", "20", "--repeat", "2"], "2 runs in fresh"),
        "bench-against": (["bench", "example", "--against", "example", "--device", "cpu", "--min-time", "0.05",
                           "--repeat", "2"], "round 2 of 2"),  # fmt: skip
        "fit": (["fit", "example", "--device", "cpu", "--optimizer", "adam"], "measured peak"),
        "fit-hugging-face": (["fit", str(llama), "--gpu", "RTX 4090", "--dtype", "bfloat16", "--optimizer", "adamw"],
                             "fits"),  # fmt: skip
        "compare": (["compare", str(a), str(b)], "cpu"),
        "agent": (["agent"], "ok"),
    }


def test_every_sub_command_has_a_case(world):
    from inspector.cli import build_parser

    parser = build_parser()
    [sub] = [action for action in parser._actions if action.__class__.__name__ == "_SubParsersAction"]
    covered = {argv[0] for argv, _ in cases(world).values()}
    assert set(sub.choices) <= covered, f"no hostile-folder case for {sorted(set(sub.choices) - covered)}"


def _audit(world) -> list[tuple[str, str]]:
    log = Path(world["env"]["TDI_AUDIT_LOG"])
    found = [tuple(line.split("\t", 1)) for line in log.read_text().splitlines()] if log.exists() else []
    log.unlink(missing_ok=True)
    return found  # type: ignore[return-value]


def _is_python(argv: list[str]) -> bool:
    return bool(argv) and os.path.basename(argv[0]).startswith("python")


@pytest.mark.parametrize(
    "case",
    ["devices", "devices-prometheus", "inspect-example", "inspect-pt2", "inspect-safetensors", "inspect-hugging-face",
     "inspect-device-map", "bench-per-module-trace", "bench-repeat", "bench-against", "fit", "fit-hugging-face",
     "compare", "agent"],
)  # fmt: skip
def test_a_command_in_a_hostile_folder_runs_nothing_it_was_not_asked_to_and_opens_no_socket(case, world):
    argv, shown = cases(world)[case]
    for mark in world["marks"].iterdir():  # each case answers for its own run
        mark.unlink()
    (world["root"] / "out").mkdir(exist_ok=True)
    env = dict(world["env"])
    before = len(world["listener"].connections)
    if case == "agent":
        done = _run_agent(world, env)
    else:
        done = run_python(["-c", PARENT, *argv], cwd=world["work"], env=env, timeout=600)
    audit = _audit(world)
    assert done.returncode == 0, done.stderr[-3000:]
    assert shown in done.stdout + done.stderr
    assert decoys_that_ran(world["marks"]) == []
    assert world["listener"].connections[before:] == []
    assert [what for kind, what in audit if kind == "socket"] == []
    started = [eval(what) for kind, what in audit if kind == "process"]  # noqa: S307 -- our own repr()
    # No process at all, but the app's own workers where the case asks for them: each a list
    # (through subprocess), a Python by absolute path, isolated.
    if case in ("bench-repeat", "bench-against"):
        assert started, "the case no longer starts its workers: it proves nothing"
        for argv_started in started:
            assert isinstance(argv_started, list) and _is_python(argv_started), argv_started
            assert os.path.isabs(argv_started[0]) and "-I" in argv_started, argv_started
    else:
        assert started == [], f"{case} started {started}"
