from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage

from inspector.core.report.html_view import render_html
from inspector.core.report.timing_report import build_report
from inspector.core.devices.discovery import memory_reading
from inspector.core.files.models import example_model
from inspector.core.measure.timing import measure_latency
from inspector.gui.report_images import render_report_images


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
    images = render_report_images(report, size=size)
    assert set(images) == {"Latency samples", "Latency summary", "Memory"}  # as the window exports
    for png in images.values():
        image = _decoded(png)
        assert (image.width(), image.height()) == size
        assert _distinct_colours(image) > 1


def test_a_report_with_nothing_measured_leaves_the_empty_plots_out(qapp):
    images = render_report_images(build_report(example_model()))
    assert images == {}  # the HTML page then says the plots were left out, as the window's export does


def test_the_images_embed_in_the_html_report(qapp, report):
    page = render_html(report, images=render_report_images(report))
    assert page.count('src="data:image/png;base64,') == 3
