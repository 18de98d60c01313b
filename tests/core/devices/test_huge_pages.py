"""Large CPU tensors get transparent huge pages in the app: a move's fresh copies fault
2 MiB at a time, not 4 KiB (a 400 MiB cast took ~100,000 more faults than a plain .to())."""

from __future__ import annotations

import os

import pytest
import torch

from inspector import cli
from inspector.core.devices import huge_pages
from tests.report_edge import typed

def _faults() -> int:
    with open("/proc/self/stat") as stat:
        return int(stat.read().split()[9])


@pytest.mark.skipif(huge_pages.kernel_mode() in (None, "never"), reason="no transparent huge pages here")
def test_a_64_mib_tensor_faults_in_huge_pages_as_in_the_app():
    # The suite's conftest asks for them before torch is imported, as the commands do.
    x = torch.empty(64 * 2**20, dtype=torch.uint8)
    before = _faults()
    x.fill_(1)
    # 4 KiB pages would take 16,384 faults; 2 MiB pages 32 (plus a few of the process's own).
    assert _faults() - before < 16_384 // 8


def test_every_command_asks_for_huge_pages_before_torch_allocates_unless_the_user_said_no(monkeypatch, capsys):
    monkeypatch.delenv(huge_pages.ENV, raising=False)
    assert cli.main(["--version"]) == 0
    assert os.environ[huge_pages.ENV] == "1"
    monkeypatch.setenv(huge_pages.ENV, "0")
    assert cli.main(["--version"]) == 0
    assert os.environ[huge_pages.ENV] == "0"
    capsys.readouterr()


def test_the_state_line_says_whether_huge_pages_are_on(monkeypatch, tmp_path):
    setting = tmp_path / "enabled"
    setting.write_text("always [madvise] never\n")
    assert huge_pages.kernel_mode(setting) == "madvise"
    monkeypatch.setattr(huge_pages, "_KERNEL_SETTING", setting)
    monkeypatch.setenv(huge_pages.ENV, "0")
    assert huge_pages.huge_pages_state().startswith("huge pages: off (THP_MEM_ALLOC_ENABLE=0;")
    monkeypatch.delenv(huge_pages.ENV)
    assert "is not set" in huge_pages.huge_pages_state()
    # torch takes anything but 1 as off, and the user's text never reaches a report.
    monkeypatch.setenv(huge_pages.ENV, "yes\x1b[2J")
    state = huge_pages.huge_pages_state()
    assert state.startswith("huge pages: off (THP_MEM_ALLOC_ENABLE is neither 0 nor 1;") and "\x1b" not in state
    monkeypatch.setenv(huge_pages.ENV, "1")
    assert huge_pages.huge_pages_state().startswith("huge pages: on")
    setting.write_text("always madvise [never]\n")
    assert "off in the kernel" in huge_pages.huge_pages_state()
    assert huge_pages.kernel_mode(tmp_path / "absent") is None


def test_a_report_says_whether_its_figures_were_taken_with_huge_pages(tmp_path):
    from inspector.core.files.models import example_model
    from inspector.core.report.markdown_view import render_markdown
    from inspector.core.report.timing_report import build_report, load_report, save_report

    report = build_report(example_model())
    assert report["environment"]["cpu_huge_pages"] == huge_pages.huge_pages_state()
    loaded = load_report(save_report(typed(report), tmp_path / "report.json"))
    assert f"- CPU pages: {huge_pages.huge_pages_state()}" in render_markdown(loaded)
