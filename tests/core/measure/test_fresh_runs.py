"""Later runs in fresh processes (``core.measure.fresh_runs``), as the window's Repeat asks for
them and ``bench --repeat`` takes them (issue 46 item 3): real workers, read back by the
session; the command each worker gets is parsed by the CLI's own parser."""

from __future__ import annotations

import os

import pytest
import torch
from torch import nn

from inspector.cli import build_parser
from inspector.core import launcher
from inspector.core.errors import Cancelled
from inspector.core.measure import ModelSource
from inspector.core.measure.fresh_runs import measure_runs_fresh, uniform_placement, worker_argv
from inspector.core.files.inputs import parse_inputs
from inspector.core.files.models import LoadedModel
from inspector.core.moves import MoveRequest
from inspector.core.session import BenchmarkRequest, LoadRequest, Session


def _keys(result):
    return [getattr(n, "key", None) for n in result.notes]


def test_every_run_comes_from_a_fresh_process_in_order_and_they_are_kept_apart(monkeypatch):
    import inspector.core.measure.fresh_runs as fresh

    monkeypatch.setattr(fresh, "measure_runs", lambda *a, **k: pytest.fail("no run may be taken in this process"))
    session = Session(in_window=True)
    session.load(LoadRequest("example"))
    session.move(MoveRequest("to", "cpu", "float64"))  # the worker repeats the window's cast
    seen, progress = [], []
    result = session.measure(BenchmarkRequest(runs=40, repeat=3, fresh_processes=True),
                             on_sample=lambda i, ms: seen.append(i), progress=lambda d, t: progress.append((d, t)))
    assert [len(run) for run in result.runs_ms] == [40, 40, 40] and result.dtype == "float64"
    assert len(result.samples_ms) == 120 and seen == list(range(120))  # the plot gets every run, in order
    assert progress[-1] == (3000, 3000)
    assert "bench.fresh_runs" in _keys(result) and "bench.runs_pooled" in _keys(result)
    assert result.warmup_samples_ms and result.timer == "host clock"  # run 1 as its worker described it
    assert session.latencies[-1] is result  # the report keeps it as any measurement

    single = session.measure(BenchmarkRequest(runs=50, fresh_processes=True))  # one run, in one fresh process
    assert len(single.samples_ms) == 50 and not single.runs_ms and "bench.fresh_runs" in _keys(single)
    assert not {"bench.one_process", "bench.one_process_moved"} & set(_keys(single))  # the worker's words are bench's


def test_a_first_worker_that_fails_is_named_and_the_runs_are_taken_here(tmp_path):
    factory = tmp_path / "only_here.py"
    factory.write_text(
        "import os, torch\n"
        f"def make():\n    if os.getpid() != {os.getpid()}:\n        raise RuntimeError('this factory builds only in its first process')\n"
        "    return torch.nn.Linear(4, 2), torch.randn(1, 4)\n"
    )
    session = Session()
    session.load(LoadRequest(f"{factory}:make", trust=True))
    result = session.measure(BenchmarkRequest(runs=20, repeat=2, fresh_processes=True))
    assert [len(r) for r in result.runs_ms] == [20, 20]  # taken here instead, one after another
    failed = [n for n in result.notes if getattr(n, "key", None) == "bench.fresh_runs_first_failed"]
    assert len(failed) == 1 and "builds only in its first process" in str(failed[0])


@pytest.fixture
def started(monkeypatch):
    """The workers started so far (each one's argv lists), the real launcher starting them."""
    started: list = []
    real = launcher.run_app_workers

    def run(entry, argvs, **kwargs):
        started.append(argvs)
        return real(entry, argvs, **kwargs)

    monkeypatch.setattr(launcher, "run_app_workers", run)
    return started


def test_a_cancel_ends_the_running_worker_and_leaves_no_process(started):
    session = Session()
    session.load(LoadRequest("example"))
    with pytest.raises(Cancelled):
        session.measure(BenchmarkRequest(runs=20, repeat=3, fresh_processes=True), should_cancel=lambda: bool(started))
    assert len(started) == 1 and not launcher._RUNNING  # the first worker was killed; no second started


def test_a_model_on_no_one_device_or_handed_over_is_measured_here_and_says_so(monkeypatch):
    from inspector.core.report.latency_reader import latency_entry

    monkeypatch.setattr(launcher, "run_app_workers", lambda *a, **k: pytest.fail("no process may start"))
    mixed = nn.Linear(4, 2)
    assert uniform_placement(LoadedModel(spec="x", module=mixed)) == ("cpu", "float32")
    mixed.register_buffer("scale", torch.ones(1, dtype=torch.float64))  # as a float32 inv_freq beside bf16 weights
    assert uniform_placement(LoadedModel(spec="x", module=mixed)) == ("cpu", None)  # the worker keeps the load's dtypes
    assert not any(a.startswith("--dtype") for a in worker_argv(ModelSource.of("example"), "cpu", None, mode="forward",
                                                                 runs=10, min_time=None, input_shape=None, repeat=2))  # fmt: skip
    empty = LoadedModel(spec="x", module=nn.Sequential(nn.ReLU()), example_input=torch.randn(1, 4))
    assert uniform_placement(empty) is None  # no tensor says where a worker should put it
    result = measure_runs_fresh(empty, ModelSource.of("x"), repeat=2, mode="forward", runs=10, min_time=None,
                                input_shape=None, read_entry=latency_entry)
    assert [len(r) for r in result.runs_ms] == [10, 10] and "bench.fresh_runs_split_model" in _keys(result)

    session = Session()
    session.adopt(LoadedModel(spec="notebook", module=nn.Linear(4, 2), example_input=torch.randn(1, 4)))
    adopted = session.measure(BenchmarkRequest(runs=10, repeat=2, fresh_processes=True))
    assert [len(r) for r in adopted.runs_ms] == [10, 10] and "bench.fresh_runs_no_source" in _keys(adopted)


def test_the_worker_command_is_one_the_cli_reads_back_as_the_same_run(tmp_path):
    weights = tmp_path / "w.pt"
    argv = worker_argv(ModelSource.of(str(weights), "torch.nn:Transformer", trust=True), "cpu", "float16",
                       mode="forward", runs=None, min_time=0.25, input_shape=[((10, 2, 512), None), ((20, 2, 512), "float16")],
                       repeat=4)  # fmt: skip
    args = build_parser().parse_args(argv)
    assert args.command == "bench" and args.repeat_worker and args.trust
    assert args.spec == str(weights) and os.path.isabs(args.spec) and args.arch == "torch.nn:Transformer"
    assert (args.device, args.dtype, args.mode, args.min_time, args.repeat) == (["cpu"], "float16", "forward", 0.25, 4)
    assert parse_inputs(args.input_shape) == (((10, 2, 512), None), ((20, 2, 512), "float16"))


def test_a_single_short_cpu_run_says_it_is_one_processs_figure_in_the_words_of_its_front_end():
    for in_window, key in ((False, "bench.one_process"), (True, "bench.one_process_window")):
        session = Session(in_window=in_window)
        session.load(LoadRequest("example"))
        result = session.measure(BenchmarkRequest(runs=200))
        assert {key, key + "_moved"} & set(_keys(result)) or "bench.one_process_one_thread" in _keys(result)
        assert not (in_window and "bench.one_process" in _keys(result))


def test_a_stop_during_a_worker_ends_it_and_keeps_the_runs_before(started):
    session = Session()
    session.load(LoadRequest("example"))
    result = session.measure(BenchmarkRequest(runs=20, repeat=3, fresh_processes=True), should_stop=lambda: len(started) > 1)
    assert len(started) == 2 and not launcher._RUNNING and len(result.samples_ms) == 20  # run 1 only, as taken


def test_a_request_by_time_or_by_count_asks_the_worker_for_the_same():
    source = ModelSource.of("example")
    by_count = worker_argv(source, "cpu", "float32", mode="forward", runs=None, min_time=None, input_shape=None, repeat=2)
    assert not any(a.startswith(("--runs", "--min-time")) for a in by_count)  # bench's own default, as run 1's
    assert build_parser().parse_args(by_count).runs is None


def test_a_bundled_app_offers_no_fresh_processes(monkeypatch):
    import sys

    assert Session().capabilities.fresh_processes
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # a PyInstaller bundle: its executable takes no -c
    assert not Session().capabilities.fresh_processes and not launcher.app_workers_possible()
