"""The Summary tab's top modules: their shares of self time add up to 100 % at most, even when
the hooks' cost left the self times longer than the plain forward (issue 45 item 3: 125 %)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

pytest.importorskip("pytestqt")

from inspector.gui.common.module_summary import summary_tab_text, top_line  # noqa: E402


def _module(name: str, self_ms: float) -> SimpleNamespace:
    return SimpleNamespace(name=name, type="Linear", self_ms=self_ms, median_ms=self_ms, share=0.5,
                           output_shapes=((4, 4),), flops=0)  # fmt: skip


def test_the_top_modules_shares_add_up_to_at_most_100_percent(qapp):
    modules = [_module(f"m{i}", ms) for i, ms in enumerate((5.0, 3.0, 2.0, 1.0, 1.0, 0.5))]
    attribution = SimpleNamespace(
        device="cpu", dtype="float32", warnings=(), self_sum_ms=12.5,  # 1.25x the plain forward
        forward_without_hooks_ms=10.0, forward_with_hooks_ms=14.0, top=lambda n: modules[:n],
    )
    shares = [int(p) for p in re.findall(r"(\d+) %", summary_tab_text(attribution))]
    assert len(shares) == 5 and sum(shares) <= 100 and shares[0] == 40
    assert "share of all modules' self time" in summary_tab_text(attribution)
    assert sum(int(p) for p in re.findall(r"(\d+) %", top_line(attribution))) <= 100
