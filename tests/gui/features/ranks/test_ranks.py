"""A torchrun report opened in the window: ranks side by side, the slowest highlighted."""

import copy
import json

from PySide6.QtWidgets import QTableWidget

from inspector.cli import main
from inspector.core.report.timing_report import load_report
from inspector.gui.features.ranks.table import RanksView, show_ranks
from tests.core.report.generated import with_samples
from tests.gui.helpers import widget, GENEROUS_MS
from tests.report_edge import typed
from inspector.gui.features.report.flow import ReportFlow
from tests.gui import doors


def _ranks_report(tmp_path, capsys):
    path = tmp_path / "one.json"
    assert main(["bench", "--device", "cpu", "--runs", "3", "--output", str(path)]) == 0
    capsys.readouterr()
    report = load_report(path).to_dict()  # a copy of the file's own dict, to change
    entries = []
    for rank, factor in enumerate((1.0, 1.5, 1.2)):
        latency = copy.deepcopy(report["latency"])
        latency[0] = with_samples(latency[0], [2.0 * factor] * 3)  # (figures that are not the samples' are refused)
        entries.append({"rank": rank, "local_rank": rank % 2, "world_size": 4, "host": f"node-{rank // 2}",
                        "device": f"cuda:{rank % 2}", "ok": True, "error": None, "moves": report["moves"], "latency": latency})
    entries.append({"rank": 3, "local_rank": 1, "world_size": 4, "host": "node-1\x1b[31m", "device": "cuda:1",
                    "ok": False, "error": "out of memory on cuda:1", "moves": [], "latency": []})
    report["ranks"] = entries
    out = tmp_path / "ranks.json"
    out.write_text(json.dumps(report))
    return out


def _cells(table):
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    return [{h: table.item(r, c).text() for c, h in enumerate(headers)} for r in range(table.rowCount())]


def test_opening_a_torchrun_report_shows_the_ranks_side_by_side(qtbot, window, tmp_path, capsys):
    path = _ranks_report(tmp_path, capsys)
    doors.part(window, ReportFlow).open_report(path)
    qtbot.waitUntil(lambda: window.findChild(RanksView, "ranksView") is not None, timeout=GENEROUS_MS)
    view = widget(window, RanksView, "ranksView")
    assert window.tabs.currentWidget() is view and window.tabs.tabText(window.tabs.indexOf(view)) == "Ranks"
    table = widget(window, QTableWidget, "ranksTable")
    rows = _cells(table)
    assert [r["Rank"] for r in rows] == ["0", "1", "2", "3"]
    assert [r["Median (ms)"] for r in rows] == ["2", "3", "2.4", "—"]
    assert [r["vs fastest"] for r in rows] == ["+0.0%", "+50.0%", "+20.0%", "—"]
    assert rows[3]["Status"] == "failed: out of memory on cuda:1"
    assert rows[3]["Host"] == "node-1�[31m"  # a control character from the file is not passed on
    # the slowest rank stands out
    assert table.item(1, 0).font().bold() and not table.item(0, 0).font().bold()
    assert table.item(1, 3).background().color().name() == "#ffebee"
    summary = view.summaryLabel.text()
    assert "4 ranks on 3 hosts" in summary
    assert "slowest: rank 1 (cuda:1 on node-0), median 3 ms" in summary
    assert "spread 50.0%" in summary and "failed: rank 3" in summary


def test_a_report_without_ranks_takes_the_tab_away(qtbot, qapp, tmp_path, capsys):
    from PySide6.QtWidgets import QTabWidget

    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    report = load_report(_ranks_report(tmp_path, capsys)).to_dict()
    view = show_ranks(tabs, typed(report))
    assert tabs.count() == 1 and len(view.bars.opts["height"]) == 3
    assert show_ranks(tabs, typed({k: v for k, v in report.items() if k != "ranks"})) is None
    assert tabs.count() == 0
