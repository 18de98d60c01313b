"""Smoke-test a built bundle and say what its size is made of.

    python packaging/smoke_test.py dist/torch-device-inspector

Runs the frozen executable as a user would: `--version`, `devices --json`, and the window
(offscreen, closed after a second through TORCH_DEVICE_INSPECTOR_SMOKE_SECONDS, which only
the bundle's entry script honours). Exits 1 if any check fails. Standard library only, so any
Python can run it against any bundle.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

NAME = "torch-device-inspector"
SMOKE_ENV = "TORCH_DEVICE_INSPECTOR_SMOKE_SECONDS"
# What a clean shutdown must not print (Qt's complaint about a thread left running, a
# Python traceback, a Qt plugin the bundle lacks); the CLI's own failures start with "error:".
BAD_OUTPUT = ("Traceback", "QThread: Destroyed", "Could not load the Qt platform plugin")


def executable(bundle: Path) -> Path:
    exe = bundle / (NAME + (".exe" if os.name == "nt" else ""))
    if not exe.is_file():
        raise SystemExit(f"no executable {exe}: build the bundle first (packaging/build_bundle.sh)")
    return exe


def run(exe: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    # Run from the bundle's parent folder with a clean PYTHONPATH, so nothing from the source
    # tree or the build environment can stand in for what the bundle lacks.
    full_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    full_env.update(env or {})
    return subprocess.run(
        [str(exe), *args], capture_output=True, text=True, timeout=timeout, env=full_env, cwd=exe.parent.parent
    )


def check_version(exe: Path) -> str:
    result = run(exe, "--version")
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr.strip()}"
    for part in (NAME, "Python", "torch", "Qt"):
        assert part in result.stdout, f"{part!r} missing from:\n{result.stdout}"
    return result.stdout.strip()


def check_devices(exe: Path) -> str:
    result = run(exe, "devices", "--json")
    assert result.returncode == 0, f"exit {result.returncode}: {result.stderr.strip()}"
    ids = [device["id"] for device in json.loads(result.stdout)["devices"]]
    assert "cpu" in ids, f"no cpu device in {ids}"
    return "devices: " + ", ".join(ids)


def check_window(exe: Path) -> str:
    result = run(exe, env={"QT_QPA_PLATFORM": "offscreen", SMOKE_ENV: "1"})
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"exit {result.returncode}:\n{output.strip()}"
    smoke_lines = [line for line in result.stdout.splitlines() if line.startswith("smoke:")]
    assert smoke_lines, f"the window never reported in:\n{output.strip()}"
    assert "app_icon=set" in smoke_lines[0], smoke_lines[0]
    assert "display_name='Torch Device Inspector'" in smoke_lines[0], smoke_lines[0]
    bad = [marker for marker in BAD_OUTPUT if marker in output]
    bad += [line for line in output.splitlines() if line.startswith("error:")]
    assert not bad, f"unexpected {bad} in output:\n{output.strip()}"
    return smoke_lines[0]


def du(path: Path) -> int:
    if path.is_file() or path.is_symlink():
        return path.lstat().st_size
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def largest(folder: Path, top: int) -> list[tuple[int, Path]]:
    return sorted(((du(p), p) for p in folder.iterdir()), key=lambda item: item[0], reverse=True)[:top]


def size_report(bundle: Path, top: int = 12) -> str:
    total = du(bundle)
    lines = [f"bundle size: {total / 2**20:.0f} MiB ({bundle})", "largest entries (the executable holds the Python modules' bytecode archive):"]
    internal = bundle / "_internal"
    entries = largest(bundle, top) + (largest(internal, top) if internal.is_dir() else [])
    torch_dir = internal / "torch"
    if torch_dir.is_dir():
        entries += largest(torch_dir, 4)
    for size, path in sorted((e for e in entries if e[1] != internal), key=lambda item: item[0], reverse=True)[:top + 4]:
        lines.append(f"  {size / 2**20:8.1f} MiB  {size / total:5.1%}  {path.relative_to(bundle)}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    bundle = Path(argv[0] if argv else f"dist/{NAME}").resolve()
    exe = executable(bundle)
    failed = 0
    for check in (check_version, check_devices, check_window):
        try:
            print(f"PASS {check.__name__}: {check(exe)}")
        except (AssertionError, subprocess.TimeoutExpired, json.JSONDecodeError, KeyError) as exc:
            failed += 1
            print(f"FAIL {check.__name__}: {exc}")
    print(size_report(bundle))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
