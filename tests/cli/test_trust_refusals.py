"""What the CLI says about a hostile model file (issue 32, items 3, 5, 6, 7): one ``error:``
line, the name that runs a shell command first and said for what it is, every name with
``--debug``, and a zip bomb, an endless pickle or a lying legacy file refused in one line."""

from __future__ import annotations

import pytest

from inspector.cli import main
from tests.hostile_files import (
    DECOYS,
    checkpoint_with_pickle,
    decoy_pickle,
    legacy_with_huge_storage,
    marks_pickle,
    zip_bomb,
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.parametrize("packed", ["raw pickle", "zip checkpoint"])
def test_the_shell_command_is_named_first_and_every_name_with_debug(tmp_path, capsys, monkeypatch, packed):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "created-by-payload"
    if packed == "raw pickle":
        (tmp_path / "model.pt").write_bytes(decoy_pickle(target))
    else:
        checkpoint_with_pickle(tmp_path / "model.pt", decoy_pickle(target))

    code, out, err = run(capsys, "inspect", "model.pt")
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert line.startswith(
        "error: refused to load model.pt: loading it would run code it names "
        "(posix.system — runs a shell command, aaa_models.TransformerBlock0, "
    )
    assert "and 5 more, all listed by --debug in the CLI" in line and "--trust" in line

    code, _out, err = run(capsys, "inspect", "model.pt", "--debug")
    listed = err[err.index("model.pt asks for:"):].splitlines()
    assert listed[1:11] == ["  posix.system — runs a shell command", *(f"  {name}" for name in DECOYS)]
    assert not target.exists()


def test_a_zip_bomb_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    zip_bomb(tmp_path / "bomb.pt", inflated_mib=80)
    code, _out, err = run(capsys, "inspect", "bomb.pt")
    assert code == 2
    assert one_error_line(err).startswith(
        "error: refused to load bomb.pt: it is too large to check without loading it "
        "(data.pkl declares 80.0 MiB uncompressed, over the 64.0 MiB checked"
    )


def test_a_pickle_that_never_ends_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    marks_pickle(tmp_path / "marks.pkl", 1_100_000)
    code, _out, err = run(capsys, "inspect", "marks.pkl")
    assert code == 2
    assert "a pickle longer than the 1,000,000 opcodes checked" in one_error_line(err)
    assert "RuntimeError" not in err


def test_a_legacy_file_declaring_a_huge_storage_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    legacy_with_huge_storage(tmp_path / "old.pt")
    code, _out, err = run(capsys, "inspect", "old.pt")
    assert code == 2
    assert one_error_line(err).startswith(
        "error: not a complete PyTorch checkpoint: old.pt (it declares 64.0 GiB of tensor data"
    )
