from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage

from inspector.core.report.html_view import render_html
from inspector.core.report.timing_report import build_report
from inspector.core.devices.discovery import memory_reading
from inspector.core.files.models import example_model
from inspector.core.measure.timing import measure_latency
from inspector.gui.shell.report_images import render_report_images
from tests.report_edge import typed


@pytest.fixture(scope="module")
def report():
    loaded = example_model()
    latency = [measure_latency(loaded, runs=30), measure_latency(loaded, mode="train-step", runs=20)]
    return build_report(loaded, latency=latency, memory={"cpu": [memory_reading("cpu") for _ in range(5)]})


def _decoded(png: bytes) -> QImage:
    image = QImage.fromData(png, "PNG")
    assert not image.isNull()
    return image


def _distinct_colours(image: QImage) -> int:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.width() * image.height())
    return len(np.unique(pixels))


@pytest.mark.parametrize("size", [(960, 480), (641, 333)])
def test_plots_are_pngs_of_the_requested_size_and_not_blank(qapp, report, size):
    images = render_report_images(typed(report), size=size)
    assert set(images) == {"Latency samples", "Latency summary", "Memory"}  # as the window exports
    for png in images.values():
        image = _decoded(png)
        assert (image.width(), image.height()) == size
        assert _distinct_colours(image) > 1


def test_a_report_with_nothing_measured_leaves_the_empty_plots_out(qapp):
    images = render_report_images(typed(build_report(example_model())))
    assert images == {}  # the HTML page then says the plots were left out, as the window's export does


def test_the_images_embed_in_the_html_report(qapp, report):
    page = render_html(typed(report), images=render_report_images(typed(report)))
    assert page.count('src="data:image/png;base64,') == 3


# ----- the memory plot of a CPU-only report is drawn (issue 34 §5: it was empty)


def _pixels(png: bytes) -> np.ndarray:
    image = _decoded(png).convertToFormat(QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.width() * image.height() * 4)
    return data.reshape(image.height(), image.width(), 4)[:, :, :3].copy()  # a copy: the QImage owns those bytes


def _drawn_in_plot_area(png: bytes) -> int:
    """Pixels of the plot area (inside the axes, under the legend row) darker than any grid
    line: what the curves drew. The grid is the foreground at 15 % on white, its crossings
    no darker than 0xb9; an empty plot area counts 0."""
    pixels = _pixels(png)
    height, width = pixels.shape[:2]
    area = pixels[44 : height - 44, 60 : width - 4]
    return int((area.max(axis=2) < 0xA8).sum())


def _memory_image_in(page: str) -> bytes:
    import base64
    import re

    found = re.search(r'<img alt="Memory" src="data:image/png;base64,([A-Za-z0-9+/=]+)">', page)
    assert found, "the HTML report has no Memory plot"
    return base64.b64decode(found.group(1))


def test_a_cpu_only_bench_reports_memory_plot_draws_its_curves(qapp, tmp_path, capsys):
    """What the outsiders opened: ``bench --device cpu --output r.html``. The only readings a
    CPU-only machine has are the process's RSS and the machine's used memory, which the window
    hides by default there; the report's plot drew nothing but its grid."""
    import copy
    import json

    from inspector.cli import main

    page_path = tmp_path / "r.html"
    code = main(["bench", "example", "--device", "cpu", "--runs", "20", "--json", "--output", str(page_path)])
    assert code == 0
    report = json.loads(capsys.readouterr().out)  # the same run's report, as --json prints it
    assert set(report["memory"]) == {"cpu"} and report["memory"]["cpu"]
    drawn = _drawn_in_plot_area(_memory_image_in(page_path.read_text(encoding="utf-8")))

    # The same report with no memory figures in its readings and no model bytes over time
    # (the model's own curve): the plot's axes and grid alone.
    blank = copy.deepcopy(report)
    blank["memory"] = {"cpu": [{"t": p["t"]} for p in report["memory"]["cpu"]]}
    blank.pop("model_memory", None)
    nothing = _drawn_in_plot_area(render_report_images(typed(blank))["Memory"])

    assert nothing == 0
    assert drawn > 500, f"the memory plot drew {drawn} pixels of curves"


def test_report_images_draw_what_the_window_hides(qtbot):
    """The report's plot shows every curve whatever the window's choices (its "Process RSS &
    machine" box off, a legend entry clicked away); the window keeps its choices."""
    from inspector.core.devices.discovery import MemoryReading
    from inspector.gui.features.memory.plot import MemoryPlot

    plot = MemoryPlot()
    qtbot.addWidget(plot)
    plot.add_readings([MemoryReading("cpu", plot.timeline.t0 + t, (300 + t) * 2**20, None, 1200 * 2**20, 16 * 2**30, None)
                       for t in range(10)])  # fmt: skip
    plot.redraw()
    assert not plot.secondary_check.isChecked()  # a CPU-only machine: hidden by default
    assert not plot.canvas.curves["cpu", "process_rss"].isVisible()
    window_view = _drawn_in_plot_area(plot.render_png())

    plot.secondary_check.setChecked(True)
    plot.canvas.curves["cpu", "machine_used"].setVisible(False)  # the user clicked its legend entry away
    assert _drawn_in_plot_area(plot.render_png()) == window_view > 500
    assert not plot.canvas.curves["cpu", "machine_used"].isVisible()  # the window's own choice stands
