"""A fit answer in every report view says what a person can trust (issue 45 items 2 and 3): a
planned GPU is named as planned, never as the ``cuda:0`` its plan was laid out on (a laptop
without one read "cuda:0 … yes"); its input and largest batch stand beside its activations;
and a CPU's measured peak below what RSS resolves is said so, never "0 B" and "0.000"."""

from __future__ import annotations

import io
import json
import zipfile

import pandas as pd

from inspector.core.files.models import example_model
from inspector.core.measure.fit import FitRequest, estimate_fit
from inspector.core.report.csv_view import render_csv_zip
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report
from tests.report_edge import typed

PLANNED = "RTX 4090, planned: not on this machine"


def _report() -> dict:
    loaded = example_model()
    cpu = estimate_fit(loaded, FitRequest("cpu", optimizer="adam", measure=False))
    report = json.loads(json.dumps(build_report(loaded, fit=[cpu])))
    (entry,) = report["fit"]
    planned = {**entry, "device": "cuda:0", "named_device": "RTX 4090", "device_present": False,
               "input_shapes": [[12, 3]], "max_batch": {"batch": 12, "steps": 5, "next_batch": 13},
               "measured_peak_bytes": None, "ratio": None}  # fmt: skip
    below = {**entry, "measured_peak_bytes": 0, "ratio": 0.0}  # the example's step: under RSS's resolution
    report["fit"] = [below, planned]
    return report


def _fit_rows_of_markdown(text: str) -> list[str]:
    part = text[text.index("**Will it fit?**"):]
    return [line for line in part.splitlines() if line.startswith("|")]


def test_a_planned_gpu_is_named_as_planned_in_every_view_with_its_input_and_batch():
    report = typed(_report())
    rows = _fit_rows_of_markdown(render_markdown(report))
    assert "Input" in rows[0]
    planned = next(r for r in rows if "RTX 4090" in r)
    assert PLANNED in planned and "cuda:0" not in planned and "12x3 (largest batch 12)" in planned
    page = render_html(report)
    fit_part = page[page.index("Will it fit?"):]
    assert PLANNED in fit_part and "cuda:0" not in fit_part and "12x3 (largest batch 12)" in fit_part
    with zipfile.ZipFile(io.BytesIO(render_csv_zip(report))) as z:
        table = pd.read_csv(z.open("fit.csv"))
    assert table["device"].tolist() == ["cpu", PLANNED]
    assert table["named_device"].tolist()[1] == "RTX 4090" and table["largest_batch"].tolist()[1] == 12


def test_a_measured_peak_below_what_rss_resolves_is_said_so_not_zero():
    rows = _fit_rows_of_markdown(render_markdown(typed(_report())))
    cpu = next(r for r in rows if r.startswith("| cpu "))
    assert "under 1.0 MiB: below what RSS resolves" in cpu
    assert "| 0 B |" not in cpu and "0.000" not in cpu


def test_the_json_answer_says_how_its_device_is_named():
    import torch

    fit = estimate_fit(example_model(), FitRequest("cuda", optimizer="adam", gpu="RTX 4090", measure=False))
    expected = "RTX 4090, planned (cuda:0 is here)" if torch.cuda.is_available() else PLANNED
    assert fit.to_dict()["shown_device"] == expected and fit.to_dict()["named_device"] == "RTX 4090"
