"""torchrun's environment read as a rank, each rank's device, and the ranks summary."""

import pytest

from inspector.core.errors import InputError
from inspector.core.remote.ranks import RankEnv, rank_device, rank_env, ranks_summary
from tests.fake_cuda import fake_cuda
from tests.report_edge import typed


def test_not_under_torchrun_means_no_ranks():
    assert rank_env({}) is None
    assert rank_env({"LOCAL_RANK": "0"}) is None


def test_torchrun_variables_are_read():
    env = rank_env({"RANK": "3", "LOCAL_RANK": "1", "WORLD_SIZE": "4"})
    assert (env.rank, env.local_rank, env.world_size) == (3, 1, 4)
    assert env.host


@pytest.mark.parametrize(
    "environ",
    [
        {"RANK": "x", "WORLD_SIZE": "2"},
        {"RANK": "2", "LOCAL_RANK": "0", "WORLD_SIZE": "2"},
        {"RANK": "0", "LOCAL_RANK": "-1", "WORLD_SIZE": "2"},
        {"RANK": "0", "WORLD_SIZE": "0"},
    ],
)
def test_nonsense_variables_are_one_line_input_errors(environ):
    with pytest.raises(InputError) as info:
        rank_env(environ)
    assert "\n" not in info.value.message


@pytest.mark.cpu_only
def test_a_rank_without_cuda_measures_the_cpu():
    assert rank_device(RankEnv(1, 1, 2, "h")) == "cpu"


def test_each_rank_takes_the_gpu_of_its_local_rank(monkeypatch):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    fake_cuda(monkeypatch, count=4)
    assert rank_device(RankEnv(5, 2, 8, "h")) == "cuda:2"


def test_one_visible_gpu_per_rank_is_cuda_0(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")
    fake_cuda(monkeypatch, count=1)
    assert rank_device(RankEnv(3, 3, 4, "h")) == "cuda:0"


def test_more_ranks_than_gpus_is_said_plainly(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    fake_cuda(monkeypatch, count=2)
    with pytest.raises(InputError, match=r"LOCAL_RANK 2 but this host shows only 2 CUDA devices \(CUDA_VISIBLE_DEVICES=0,1\)"):
        rank_device(RankEnv(2, 2, 3, "h"))


def test_summary_names_the_slowest_rank_and_the_spread():
    ranks = [
        {"rank": 0, "ok": True, "latency": [{"samples_ms": [1.0, 2.0, 3.0], "median_ms": 2.0}]},
        {"rank": 1, "ok": True, "latency": [{"samples_ms": [3.0], "median_ms": 3.0}]},
        {"rank": 3, "ok": True, "latency": [{"median_ms": 1.0}]},  # no samples: no median (a figure is its samples')
        {"rank": 2, "ok": False, "error": "oom", "latency": []},
    ]
    summary = ranks_summary(ranks)
    assert summary["slowest"] == 1 and summary["fastest"] == 0
    assert summary["spread"] == pytest.approx(0.5)
    assert summary["failed"] == [2]


def test_markdown_and_html_reports_list_every_rank():
    from inspector.core.files.models import example_model
    from inspector.core.report.html_view import render_html
    from inspector.core.report.markdown_view import render_markdown
    from inspector.core.report.timing_report import build_report

    ranks = [
        {"rank": 0, "host": "node-0", "device": "cuda:0", "ok": True, "latency": [{"samples_ms": [1.4, 1.5, 1.7], "median_ms": 1.5}]},
        {"rank": 1, "host": "<b>node-1</b>", "device": "cuda:1", "ok": False, "error": "out of memory on cuda:1", "latency": []},
    ]
    report = build_report(example_model(), ranks=ranks)
    md = render_markdown(typed(report))
    assert "**Ranks**" in md
    assert "| 0 | node-0 | cuda:0 | 1.5" in md and "failed: out of memory on cuda:1" in md
    page = render_html(typed(report))
    assert "<h2>Ranks</h2>" in page and "&lt;b&gt;node-1&lt;/b&gt;" in page and "<b>node-1" not in page
