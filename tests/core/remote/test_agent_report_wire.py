"""One codec for the file and the wire (issue 37, item 2): the report an agent sends is its
``TimingReport``'s ``to_dict()``, the dict the ``.json`` file is written from, so the report a
remote window gets is, byte for byte, the file the agent's side would write."""

from __future__ import annotations

import sys
import textwrap

from inspector.core.remote.client import AgentConnection
from inspector.core.remote.session import RemoteSession
from inspector.core.report.schema import TimingReport
from inspector.core.report.timing_report import load_report, render_json
from tests.report_edge import typed
from tests.processes import CLEAN_EXIT_S

#: A real agent (the protocol's own loop) whose session's report is one built as the CLI and the
#: sessions build it: a failed move whose message is a core text, text no ASCII spells, and the
#: per-module sections nobody types yet. It writes the file of that report before it serves.
_AGENT = textwrap.dedent(
    """
    import os, sys
    from inspector.core.files.models import example_model
    from inspector.core.measure.timing import measure_latency
    from inspector.core.messages import Text
    from inspector.core.remote.agent import Agent
    from inspector.core.report.schema import TimingReport
    from inspector.core.report.timing_report import build_timing_report, save_report

    loaded = example_model()
    loaded.notes.append("模型：示例")
    failed = {"call": "model.to('cuda:7')", "method": "to", "source": "cpu", "target": "cuda:7", "seconds": 0.001,
              "bytes": 44, "gbps": None, "ok": False, "error": Text("remote.no_answer", op="'move'", seconds=3)}
    built = build_timing_report(loaded, moves=[failed], latency=[measure_latency(loaded, runs=5, warmup=1)])
    data = built.to_dict()
    data["modules"] = [{"name": "fc1", "type": "Linear", "self_ms": 0.1 + 0.2, "output_shapes": [[64, 2]]}]
    built = TimingReport.lenient(data)
    save_report(built, sys.argv[1])

    class Reporting:
        asked = []

        def report(self, *, with_memory=True):
            self.asked.append(with_memory)
            return built

    out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.exit(Agent(out, Reporting()).serve(sys.stdin.buffer))
    """
)


def test_the_report_that_crosses_the_wire_is_the_file_the_agent_would_write(tmp_path):
    written = tmp_path / "agent.json"
    remote = RemoteSession(AgentConnection.open([sys.executable, "-c", _AGENT, str(written)]))
    try:
        sent = remote.agent_report(with_memory=False)  # the JSON as it came over the pipe
        received = remote.report(with_memory=False)  # what the remote window is handed
    finally:
        assert remote.close(timeout=CLEAN_EXIT_S) == 0

    file_text = written.read_text(encoding="utf-8")
    assert isinstance(received, TimingReport)
    assert render_json(typed(sent)) == render_json(received) == file_text  # one codec: the file's bytes
    assert received.to_dict() == load_report(written).to_dict()
    assert received.moves[0].error is not None and "'move' within 3 s" in received.moves[0].error
    assert "模型：示例" in received.model.notes
    assert received.latency[0].count == 5 and received.to_dict()["modules"][0]["name"] == "fc1"
