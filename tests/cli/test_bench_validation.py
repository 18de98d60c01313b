"""`bench` (issue 32, item 17): every argument is checked before the model is loaded (a bad
one is one `error:` line and exit 2, and the model's factory never ran: it leaves a mark if it
does); a model that casts itself while it runs is reported in the dtype it ran in."""

from __future__ import annotations

import json

import pytest

from inspector.cli import main

MARKED = '''
import pathlib, torch
MARK = pathlib.Path(__file__).with_name("loaded.mark")
def make():
    MARK.write_text("loaded")
    return torch.nn.Linear(3, 2), torch.randn(4, 3)
'''


@pytest.fixture
def factory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "marked.py").write_text(MARKED)
    return f"{tmp_path / 'marked.py'}:make"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--min-time", "nan"], "--min-time must be more than 0 seconds (got nan)"),
        (["--min-time=-inf"], "--min-time must be more than 0 seconds (got -inf)"),
        (["--min-time", "0"], "--min-time must be more than 0 seconds"),
        (["--runs", "0"], "--runs must be at least 1"),
        (["--input-shape", "3,0"], "every size must be a positive whole number"),
        (["--input-shape", "4,3:float128"], "float128"),
        (["--device", "gpu:0"], "'gpu:0' is not a device name"),
        (["--method", "cuda", "--device", "cpu"], "--method cuda moves to a CUDA device only"),
        (["--output", "report.docx"], "report.docx"),
        (["--trace", "trace.csv"], "trace.csv"),
    ],
)
def test_a_bad_argument_is_refused_before_the_model_is_loaded(factory, tmp_path, capsys, argv, said):
    code = main(["bench", factory, *argv])
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(errors) == 1 and said in errors[0], err
    assert "Traceback" not in err
    assert not (tmp_path / "loaded.mark").exists()  # the factory never ran, so nothing was moved


CASTS_ITSELF = """
import torch


class CastsItself(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)
        self.cast = False

    def forward(self, x):
        if not self.cast:  # once, on its first call
            self.cast = True
            self.double()
        return self.fc(x.to(self.fc.weight.dtype))


def make():
    return CastsItself(), torch.randn(4, 8)
"""


def test_a_model_that_casts_itself_is_reported_in_the_dtype_it_ran_in(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "casts.py").write_text(CASTS_ITSELF)
    assert main(["bench", f"{tmp_path / 'casts.py'}:make", "--device", "cpu", "--runs", "3", "--output", "r.json"]) == 0
    out, err = capsys.readouterr()
    row = next(line for line in out.splitlines() if line.startswith("cpu "))
    assert row.split()[1] == "float64"
    assert "note: the model cast itself from float32 to float64 while it ran" in err
    latency = json.loads((tmp_path / "r.json").read_text())["latency"][0]
    assert latency["dtype"] == "float64"
