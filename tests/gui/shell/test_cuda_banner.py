"""The ``.cuda()`` banner on a machine without CUDA says, beside its explanation, PyTorch's own
message, the words a student meets when a script does the same (issue 45 item 7: it never
showed "Torch not compiled with CUDA enabled"; the lessons quote PyTorch the same way)."""

from __future__ import annotations

import pytest
import torch
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from tests.gui.helpers import widget


@pytest.mark.skipif(torch.cuda.is_available(), reason="the refusal of a machine without CUDA")
def test_the_cuda_banner_quotes_pytorchs_own_message(qtbot, window):
    try:
        torch.empty(0).cuda()
    except (AssertionError, RuntimeError) as exc:
        said = str(exc).splitlines()[0]  # "Torch not compiled with CUDA enabled", or no driver
    button = widget(window, QPushButton, "cudaButton")
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    banner = widget(window, QWidget, "errorBanner")
    qtbot.waitUntil(lambda: banner.isVisible() or any(said in label.text() for label in banner.findChildren(QLabel)),
                    timeout=30_000)  # fmt: skip
    texts = " ".join(label.text() for label in banner.findChildren(QLabel))
    assert "model.cuda() needs a CUDA GPU" in texts and f"“{said}”" in texts
