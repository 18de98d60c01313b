"""Bad and hostile input on the command line: one ``error:`` line, the documented exit code,
no traceback, nothing written outside the test's folder, and stdout kept for the program.

Inputs are built here. Tests that depend on real file descriptors (what C code or a
subprocess writes, PyTorch's warnings, a FIFO that could block) run the CLI in a child
process (forked from a warm interpreter: tests/warm_python.py); the rest call ``main`` in-process.
"""

from __future__ import annotations

import json
import os
import pickle
import shlex
import subprocess
import textwrap
from pathlib import Path

import pytest
import torch

from inspector.cli import main
from tests.warm_python import run_python

REPO = Path(__file__).resolve().parents[2]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_child(tmp_path: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The CLI in its own process, in the test's folder (so anything it writes lands there)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return run_python(["-m", "inspector", *argv], cwd=tmp_path, env=env, timeout=timeout)


def assert_one_error_line(err: str) -> str:
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert "Traceback" not in err and "\x1b" not in err
    return lines[0]


def write(path: Path, source: str) -> Path:
    path.write_text(textwrap.dedent(source))
    return path


# --------------------------------------------------------------------------- item 3


class _Shell:
    def __init__(self, target: Path) -> None:
        self.command = f"touch {shlex.quote(str(target))}"

    def __reduce__(self):
        return (os.system, (self.command,))


def test_raw_pickle_naming_posix_system_is_refused_like_a_checkpoint(tmp_path):
    target = tmp_path / "created-by-payload"
    (tmp_path / "model.pkl").write_bytes(pickle.dumps(_Shell(target), protocol=5))
    done = run_child(tmp_path, "inspect", "model.pkl")
    line = assert_one_error_line(done.stderr)  # no "UserWarning: Detected pickle protocol 5"
    assert done.returncode == 2
    assert line.startswith("error: refused to load model.pkl")
    assert "posix.system" in line and "--trust" in line
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.pkl"]


# --------------------------------------------------------------------------- item 4

HOSTILE = "\x1b[2K\rerror: all your tensors\n\x1b[31mare gone\u202e"


def test_hostile_module_names_are_escaped_in_the_table(tmp_path, capsys):
    write(
        tmp_path / "model.py",
        f"""
        from torch import nn

        def make():
            model = nn.Sequential()
            model.add_module({HOSTILE!r}, nn.Linear(2, 2))
            return model
        """,
    )
    code, out, err = run(capsys, "inspect", f"{tmp_path / 'model.py'}:make")
    assert code == 0, err
    for control in ("\x1b", "\r", "\u202e"):
        assert control not in out
    assert not any(line.startswith("error:") for line in out.splitlines())
    assert "\\x1b[2K\\rerror: all your tensors\\n\\x1b[31mare gone\\u202e.weight" in out
    # JSON keeps the name exactly (json escapes it), so a program reading it loses nothing.
    code, out, _ = run(capsys, "inspect", f"{tmp_path / 'model.py'}:make", "--json")
    names = [t["name"] for t in json.loads(out)["tensors"]]
    assert names[0] == HOSTILE + ".weight"


def test_hostile_exception_message_and_path_stay_one_escaped_line(tmp_path, capsys):
    write(
        tmp_path / "model.py",
        f"""
        def make():
            raise RuntimeError({HOSTILE!r})
        """,
    )
    code, _, err = run(capsys, "inspect", f"{tmp_path / 'model.py'}:make")
    assert code == 2
    line = assert_one_error_line(err)
    assert "\\x1b[2K" in line and "\\u202e" in line  # escaped, never obeyed

    code, _, err = run(capsys, "inspect", str(tmp_path / "no\x1b[8msuch.pt"))
    assert code == 2
    assert "no\\x1b[8msuch.pt" in assert_one_error_line(err)


def test_a_huge_name_is_its_start_and_length_in_the_table_and_the_error_line(tmp_path, capsys):
    """A 100,000-character key made a 100 KB "one-line" error; a module named so padded every
    row of a 15-row table to its width (1.6 MB). Now: its start, its end and its length."""
    import torch
    from torch import nn

    long = "k" * 100_000
    write(
        tmp_path / "model.py",
        f"""
        from torch import nn

        def make():
            model = type("C" * 100_000, (nn.Sequential,), {{}})()
            model.add_module({long!r}, nn.Linear(2, 2))
            for i in range(6):
                model.add_module(f"l{{i}}", nn.Linear(2, 2))
            return model
        """,
    )
    code, out, err = run(capsys, "inspect", f"{tmp_path / 'model.py'}:make")
    assert code == 0, err
    assert len(out) < 8_000  # was 1,600,991 bytes
    assert "k.weight (100,007 characters)" in out and "k.bias (100,005 characters)" in out  # rows stay apart
    assert max(len(line) for line in out.splitlines()) < 600  # the class name in the first line too

    weights = nn.Linear(2, 2).state_dict()
    weights[long] = torch.zeros(1)
    torch.save(weights, tmp_path / "weights.pt")
    code, _, err = run(capsys, "inspect", str(tmp_path / "weights.pt"), "--arch", "example")
    assert code == 2
    line = assert_one_error_line(err)
    assert len(line) < 1_000  # was 100,155 characters
    assert "unexpected keys: weight, bias, kkk" in line and "(100,000 characters)" in line


# --------------------------------------------------------------------------- item 8


def test_factory_raising_its_own_base_exception_is_one_line(tmp_path, capsys):
    write(
        tmp_path / "model.py",
        """
        class Abort(BaseException):
            pass

        def make():
            raise Abort("the factory gave up")
        """,
    )
    code, _, err = run(capsys, "inspect", f"{tmp_path / 'model.py'}:make")
    assert code == 2
    assert "Abort: the factory gave up" in assert_one_error_line(err)


def test_forward_raising_its_own_base_exception_is_one_line(tmp_path, capsys):
    write(
        tmp_path / "model.py",
        """
        import torch
        from torch import nn

        class Abort(BaseException):
            pass

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 1)

            def forward(self, x):
                raise Abort("forward gave up")

        def make():
            return Net(), torch.randn(2, 3)
        """,
    )
    code, _, err = run(capsys, "bench", f"{tmp_path / 'model.py'}:make", "--device", "cpu", "--runs", "2")
    assert code in (1, 2)
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "forward gave up" in lines[0]
    assert "Traceback" not in err


def test_a_minimum_time_too_small_to_measure_still_takes_one_sample(capsys):
    code, out, err = run(capsys, "bench", "--device", "cpu", "--min-time", "1e-300", "--json")
    assert code == 0, err
    (latency,) = json.loads(out)["latency"]
    assert len(latency["samples_ms"]) == 1


@pytest.mark.parametrize("shape", ["99999999999999999999", "4611686018427387904,4", "99999999999,99999999999,99999"])
def test_an_input_shape_too_large_to_exist_is_refused_before_loading(capsys, shape):
    code, _, err = run(capsys, "bench", "--device", "cpu", "--runs", "1", "--input-shape", shape)
    assert code == 2
    line = assert_one_error_line(err)
    assert "more elements than any tensor can hold" in line and "frame #" not in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX matter")
def test_a_fifo_as_model_is_refused_unopened(tmp_path):
    os.mkfifo(tmp_path / "model.pt")
    done = run_child(tmp_path, "inspect", "model.pt")  # opened, it would block (for ever)
    assert done.returncode == 2
    assert "is not a regular file" in assert_one_error_line(done.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs a character device")
def test_a_device_as_model_is_refused_unread(capsys):
    code, _, err = run(capsys, "inspect", "/dev/zero")  # read, it would never end
    assert code == 2
    assert "is not a regular file" in assert_one_error_line(err)


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--runs", "x"],
        ["frobnicate"],
        ["inspect", "--to"],
        ["bench", "--runs", "2", "--min-time", "1"],
        ["--no-such-flag"],
    ],
)
def test_usage_errors_are_one_error_line_with_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "--help" in assert_one_error_line(err)


# --------------------------------------------------------------------------- item 11


def test_what_user_code_prints_goes_to_stderr_and_json_stays_parseable(tmp_path):
    write(
        tmp_path / "model.py",
        """
        import os
        import torch
        from torch import nn

        print("printed while importing")

        class Chatty(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 1)

            def forward(self, x):
                print("printed by forward")
                return self.lin(x)

        def make():
            print("printed by the factory")
            os.write(1, b"written to fd 1 by the factory\\n")
            return Chatty(), torch.randn(2, 3)
        """,
    )
    done = run_child(tmp_path, "bench", "model.py:make", "--device", "cpu", "--runs", "2", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["latency"][0]["device"] == "cpu"
    for text in ("printed while importing", "printed by the factory", "written to fd 1", "printed by forward"):
        assert text in done.stderr

    done = run_child(tmp_path, "inspect", "model.py:make", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["model"]["class"] == "Chatty"
    assert "printed by the factory" in done.stderr


def test_a_trusted_pickle_that_prints_keeps_json_on_stdout(tmp_path, capsys):
    path = tmp_path / "model.pt"
    torch.save(_Printer(), path)
    code, out, err = run(capsys, "inspect", str(path), "--trust", "--json")
    assert code == 0, err
    assert json.loads(out)["model"]["class"] == "_Printer"
    assert "hello from the pickle" in err


class _Printer(torch.nn.Linear):
    def __init__(self) -> None:
        super().__init__(2, 2)

    def __setstate__(self, state):
        print("hello from the pickle")
        super().__setstate__(state)
