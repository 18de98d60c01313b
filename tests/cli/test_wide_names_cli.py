"""The CLI's tables line up by display width: a module named in Chinese takes two terminal
columns a character, and its row's next column starts where the others' do (issue 47 item 13;
padded by len() it was one column right per wide character)."""

from __future__ import annotations

from wcwidth import wcswidth

from inspector.cli import main
from inspector.cli.printing import _table

FACTORY = """
from torch import nn

def make():
    model = nn.Module()
    encoder = nn.Module()
    encoder.add_module("层1", nn.Linear(3, 4))
    model.add_module("编码器", encoder)
    model.add_module("encoder", nn.Sequential(nn.Linear(4, 2)))
    return model
"""


def _column_starts(line: str, cells: list[str]) -> list[int]:
    """The terminal column each cell of ``line`` starts at."""
    starts, at = [], 0
    for cell in cells:
        at = line.index(cell, at)
        starts.append(wcswidth(line[:at]))
        at += len(cell)
    return starts


def test_a_chinese_module_name_keeps_its_row_in_line_in_inspect(capsys, tmp_path):
    factory = tmp_path / "wide.py"
    factory.write_text(FACTORY)
    assert main(["inspect", f"{factory}:make"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("NAME"))
    wide = next(line for line in lines if line.startswith("编码器.层1.weight"))
    narrow = next(line for line in lines if line.startswith("encoder.0.weight"))
    kind = _column_starts(header, ["NAME", "KIND", "SHAPE"])
    assert _column_starts(wide, ["编码器.层1.weight", "parameter", "4x3"]) == kind
    assert _column_starts(narrow, ["encoder.0.weight", "parameter", "2x4"]) == kind


def test_right_aligned_cells_end_in_the_same_column():
    text = _table(["NAME", "MS"], [["层", "1.5"], ["a", "12.25"]], right={1})
    assert {wcswidth(line) for line in text.splitlines()} == {len("NAME     MS")}  # "层" is two columns


def test_ctrl_c_mid_bar_says_interrupted_on_a_line_of_its_own(capsys, monkeypatch):
    import sys

    import inspector.cli as cli
    from inspector.cli.printing import _ProgressBar

    def interrupted(args):
        bar = _ProgressBar("time on 编码器")
        bar.enabled = True  # as on a terminal
        bar(3, 10)
        raise KeyboardInterrupt

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setitem(cli.COMMANDS, "devices", interrupted)
    assert main(["devices"]) == 130
    lines = capsys.readouterr().err.split("\n")
    assert lines[-2] == "error: interrupted" and lines[-3].startswith("\rtime on 编码器")
    assert wcswidth(lines[-3][1 : lines[-3].index("[")]) == 25  # the label padded to 24 columns, then a space
