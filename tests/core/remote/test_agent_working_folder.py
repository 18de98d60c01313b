"""Issue 32, item 0, the agent: started as the client starts it (``python -m inspector agent``)
in a folder full of decoys, it opens files from a model folder full of decoys, benchmarks per
module and opens weights with an architecture; no decoy runs, and no import happens while
either folder is on sys.path."""

from __future__ import annotations

from inspector.core.remote.client import AgentConnection, local_agent_command
from inspector.core.remote.session import RemoteSession
from inspector.core.session import BenchmarkRequest, LoadRequest
from tests.cli.test_working_folder_code import PYTHONS_OWN, make_model_folder
from tests.decoys import decoys_that_ran, plant_decoys, watch_env, watched
from tests.processes import CLEAN_EXIT_S


def test_the_agent_runs_no_decoy_from_its_folder_or_the_models(tmp_path, monkeypatch):
    work, marks, log = tmp_path / "work", tmp_path / "marks", tmp_path / "watch.log"
    models = make_model_folder(tmp_path / "models")
    work.mkdir()
    plant_decoys(work, marks)
    plant_decoys(models, marks)
    monkeypatch.chdir(work)  # the agent starts in the decoys' folder
    env = watch_env(tmp_path / "site", [work, models], log)
    session = RemoteSession(AgentConnection.open(local_agent_command(), env=env))
    try:
        exported = session.load(LoadRequest(spec=str(models / "exported.pt2")))
        latency = session.measure(BenchmarkRequest(runs=5, per_module=True))
        attribution = session.attribute(BenchmarkRequest(runs=5, per_module=True))
        weights = session.load(LoadRequest(spec=str(models / "model.safetensors"), architecture="example"))
    finally:
        assert session.close(timeout=CLEAN_EXIT_S) == 0
    assert exported.info.source == "export" and weights.info.source == "safetensors"
    assert len(latency.samples_ms) == 5 and attribution is not None
    assert decoys_that_ran(marks) == []
    assert [name for name, _ in watched(log) if name not in PYTHONS_OWN] == []
