"""A hostile agent cannot take the local window down (issue 32, item 9).

The agent is the real one (``python -m inspector agent``) behind a small proxy that slips one
event of its own before the first benchmark's answer: a ``latency`` event whose first sample
is number 10**12. The window refuses that run in one line and carries on.
"""

from __future__ import annotations

import json
import sys


from inspector.core.remote.client import local_agent_command
from inspector.core.vocabulary import MAX_SAMPLES
from inspector.gui.shell.app import connect_server
from tests.warm_python import warm_command

#: Passes lines both ways; before the first benchmark's answer, its own hostile event.
_PROXY = r"""
import json, subprocess, sys, threading
agent = subprocess.Popen(json.loads(sys.argv[1]), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out, lock = sys.stdout.buffer, threading.Lock()
def write(line):
    with lock:
        out.write(line); out.flush()
def back():
    for line in agent.stdout:
        write(line)
threading.Thread(target=back, daemon=True).start()
hostile = True
for line in sys.stdin.buffer:
    message = json.loads(line)
    if message.get("op") == "benchmark" and hostile:
        hostile = False
        event = {"id": message["id"], "event": "latency", "data": {"first": 1000000000000, "ns": [1000]}}
        write(json.dumps(event).encode() + b"\n")
    agent.stdin.write(line); agent.stdin.flush()
agent.stdin.close()
agent.wait()
"""


def test_a_latency_event_at_sample_10_12_is_refused_in_one_line_and_the_window_carries_on(
    make_window, remote_windows, qtbot
):
    local = make_window()
    agent = warm_command(local_agent_command()[1:])
    remote = connect_server(local, "hostile", [sys.executable, "-c", _PROXY, json.dumps(agent)])
    remote_windows.append(remote)
    qtbot.waitUntil(lambda: remote.model_state is not None and remote.busy_task is None, timeout=60_000)

    remote.action_bar.runsSpin.setValue(20)
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None and not remote.errorBanner.isHidden(), timeout=30_000)
    message = remote.errorBanner.message.text()
    assert "1,000,000,000,000" in message and "refused" in message and "\n" not in message
    # Nothing was padded: every series holds at most the run's samples.
    assert all(len(series.samples) <= 20 for series in remote.latencyPlot.series.values())

    # The window is free, and talks to the same agent: the next benchmark measures.
    remote.action_bar.benchmarkButton.click()
    qtbot.waitUntil(lambda: remote.busy_task is None and remote.historyView.history.entries()[-1].result.startswith("median"),
                    timeout=30_000)  # fmt: skip
    (series,) = [s for s in remote.latencyPlot.series.values() if len(s.samples)]
    assert len(series.samples) == 20 and remote.kind.link.alive

    # The plot itself never pads past a run's cap, whoever hands it a sample.
    remote.latencyPlot.add_sample(10**12, 1.0)
    remote.latencyPlot.add_sample(MAX_SAMPLES, 1.0)
    assert len(series.samples) == 20
