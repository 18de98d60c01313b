"""A report in the reader's language (issue 35, §2): the Markdown and HTML views say their
headings, headers, row names and sentences in Chinese or English, as asked; numbers, units,
code, identifiers and what came from the machine or the model stay as they are; the JSON,
the CSV tables and the ZIP are data and read the same in every language."""

from __future__ import annotations

import json
import re

import pytest

from inspector.core.devices.discovery import memory_reading
from inspector.core.devices.huge_pages import kernel_mode
from inspector.core.files.models import example_model
from inspector.core.measure.attribution import measure_attribution
from inspector.core.measure.fit import FitRequest, estimate_fit
from inspector.core.report.sample_figures import figures_of
from inspector.core.measure.timing import measure_latency
from inspector.core.messages import Text
from inspector.core.messages.catalogue import (
    Catalogue,
    available_languages,
    catalogue,
    recognised,
)
from inspector.core.moves.request import MoveRequest
from inspector.core.moves.transaction import move_model
from inspector.core.report.html_view import render_html
from inspector.core.report.markdown_view import render_markdown
from inspector.core.report.timing_report import build_report, load_report, render_json, save_report
from tests.prose import english_words
from tests.report_edge import typed

CHINESE = "zh_CN"


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.fixture(scope="module")
def built() -> dict:
    """Every section a report can have, with core's sentences in it as the session makes
    them: moves that worked, failed and were cancelled, a noisy run with notes, per-module
    figures, a fit, two torchrun ranks (one failed), memory readings."""
    loaded = example_model()
    moved = move_model(loaded, MoveRequest("to", dtype="float64"))
    failed = move_model(loaded, MoveRequest("cuda", "cuda:97"))  # absent on any machine
    cancelled = move_model(loaded, MoveRequest("to", dtype="float32"), should_cancel=lambda: True)
    latency = measure_latency(loaded, runs=20)
    attribution = measure_attribution(loaded, runs=5)
    fit = estimate_fit(loaded, FitRequest("cpu", optimizer="adam", measure=False))
    report = build_report(loaded, moves=[moved, failed, cancelled], latency=[latency], attribution=[attribution],
                          fit=[fit], memory={"cpu": [memory_reading("cpu"), memory_reading("cpu")]})  # fmt: skip
    entry = report["latency"][0]
    noisy = figures_of([1.0] * 18 + [9.0, 12.0])
    assert noisy is not None and isinstance(noisy.noise, Text)
    entry.update(noise=noisy.noise, noisy=True, notes=[Text("bench.interleaved_slices", slices=3)])
    report["attribution"][0]["warnings"] = [Text("modules.sum_short", factor="0.80×")]
    report["ranks"] = [
        {"rank": 0, "local_rank": 0, "world_size": 2, "host": "node-a", "device": "cpu", "ok": True,
         "error": None, "latency": [dict(entry)]},
        {"rank": 1, "local_rank": 1, "world_size": 2, "host": "node-b", "device": "cpu", "ok": False,
         "error": failed.error.message, "latency": []},
    ]  # fmt: skip
    return report


@pytest.fixture(scope="module")
def read_back(built, tmp_path_factory) -> dict:
    """The same report written as JSON and read again: core's sentences are plain English now."""
    return load_report(save_report(typed(built), tmp_path_factory.mktemp("r") / "r.json")).to_dict()


def machine_and_model_data(report: dict) -> list[str]:
    """What came from the machine or the model, not from us: the same in every language (a
    CPU named "Intel(R) Xeon(R) Processor", the OS string, the model's spec and class)."""
    env = report["environment"]
    found = [str(v) for k, v in env.items() if isinstance(v, str) and k != "cpu_huge_pages"]
    devices = env.get("devices")
    entries = devices.get("devices", []) if isinstance(devices, dict) else devices or []
    found += [str(d.get(k)) for d in entries if isinstance(d, dict) for k in ("id", "name") if d.get(k)]
    found += [str(report["model"].get(k)) for k in ("spec", "class")]
    found += [str(rank["host"]) for rank in report.get("ranks") or ()]
    found.append(str(kernel_mode()))  # the kernel's THP mode ("madvise"), in the huge pages line
    found += [str(f.get("optimizer")) for f in report.get("fit") or ()]  # as --optimizer names it: "adam"
    return sorted({f for f in found if f.strip()}, key=len, reverse=True)


def prose(text: str, data: list[str]) -> list[str]:
    """The English words of a Markdown or HTML report, without its markup, style sheet and data."""
    text = re.sub(r"<style>.*?</style>|<title>.*?</title>", " ", text, flags=re.S)
    text = re.sub(r"\\([\\`*_\[\]<>&|~#+-])", r"\1", text)  # Markdown's escapes
    for name in data:
        text = text.replace(name, " ")
    return english_words(text)


def test_the_languages_a_report_can_be_written_in():
    assert available_languages() == ("en", CHINESE)
    assert catalogue(CHINESE).word("Moves") == "移动" and catalogue("en").word("Moves") == "Moves"
    assert catalogue("xx").word("Moves") == "Moves"  # no catalogue: English, never a refusal


@pytest.mark.parametrize("render", [render_markdown, render_html])
def test_a_chinese_report_has_no_english_prose_outside_code_numbers_and_data(built, read_back, render):
    for report in (built, read_back):  # made now (core's Text) or read from a file (English strings)
        text = render(typed(report), language=CHINESE)
        assert not prose(text, machine_and_model_data(report)), prose(text, machine_and_model_data(report))
        # what stays as it is: figures, units, code, device ids, dtypes, the model's names
        for kept in ("model.to(torch.float64)", "model.cuda(97)", "cpu → cpu", "float64", "GB/s", "FLOPs", "Net", "node-b"):
            assert kept in text, kept
        assert "移动" in text and "失败：" in text and "已取消：" in text and "放得下吗？" in text


def test_a_report_read_back_from_its_json_says_core_s_sentences_in_chinese_as_the_session_did(built, read_back):
    """A file holds core's sentences as English strings; the report's reader recognises each
    by its template, so a report rendered from the file reads as one rendered at once."""
    assert render_markdown(typed(read_back), CHINESE) == render_markdown(typed(built), CHINESE)
    assert render_html(typed(read_back), None, CHINESE) == render_html(typed(built), None, CHINESE)
    note = read_back["latency"][0]["noise"]
    assert type(note) is str and recognised(note) == built["latency"][0]["noise"]
    assert recognised(note).key == built["latency"][0]["noise"].key


@pytest.mark.parametrize("render", [render_markdown, render_html])
def test_an_english_report_has_no_chinese_and_reads_as_before(built, read_back, render):
    for report in (built, read_back):
        text = render(typed(report))
        assert not has_chinese(text)
        assert render(typed(report), language="en") == text
    markdown = render_markdown(typed(built))
    assert "**Environment**" in markdown and "| Call | Source → target | Time | Bytes | GB/s | Result |" in markdown
    assert "- CPU pages: huge pages: " in markdown


def test_the_html_page_says_its_language_and_which_language_its_images_are_in(built):
    assert render_html(typed(built)).startswith("<!DOCTYPE html>\n<html lang=en>")
    page = render_html(typed(built), {"Memory": b"\x89PNG"}, CHINESE, CHINESE)
    assert page.startswith("<!DOCTYPE html>\n<html lang=zh-CN>")
    assert "<title>计时报告 — example</title>" in page and "<h3>内存</h3>" in page
    assert "图表中的文字为英文" not in page
    # a machine with no font for Chinese draws the images in English: the page says so
    assert "图表中的文字为英文。" in render_html(typed(built), {"Memory": b"\x89PNG"}, CHINESE, "en")
    assert "The plots are labelled in English" not in render_html(typed(built), {"Memory": b"\x89PNG"}, "en", "en")


def test_the_data_formats_are_the_same_in_every_language(built, tmp_path):
    for suffix in (".json", ".csv", ".zip"):
        english = save_report(typed(built), tmp_path / f"en{suffix}").read_bytes()
        chinese = save_report(typed(built), tmp_path / f"zh{suffix}", language=CHINESE).read_bytes()
        if suffix == ".zip":  # (deterministic: dated 1980, fixed order)
            assert english == chinese
        else:
            assert english == chinese, suffix
    assert json.loads(render_json(typed(built))) == load_report(tmp_path / "zh.json").to_dict()


def test_a_missing_or_broken_translation_is_said_in_english():
    partial = Catalogue(CHINESE, {"ReportView": {"Moves": "移动", "Created {created}": "创建于 {when}"},
                                  "CoreText": {"the disk is full": "磁盘已满"}})  # fmt: skip
    assert partial.word("Latency") == "Latency"  # not translated yet
    assert partial.word("Created {created}", created="2025") == "Created 2025"  # lost its field
    assert partial.text(Text("write.disk_full")) == "磁盘已满"
    assert partial.text("the disk is full") == "磁盘已满"  # read back from a file
    assert partial.text("Net") == "Net" and partial.text(None) == ""
    assert partial.text(Text("write.no_folder", folder="/x")) == "the folder /x does not exist"
