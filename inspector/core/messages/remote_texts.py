"""Core's texts about the remote window's link to its agent (``remote.client``)."""

from __future__ import annotations

#: The link's failures: a bad command, no start, no answer.
REMOTE: dict[str, str] = {
    # ----- the remote window's link to its agent (remote.client)
    "remote.bad_command": "cannot read the command {command}: {error}",
    "remote.empty_command": "the command to start the agent is empty",
    "remote.cannot_start": "cannot start {program}: {error}",
    "remote.no_answer": "no answer from the agent to {op} within {seconds} s",
    # ----- a remote session (remote.session): what it cannot do, or not now
    "remote.not_connected": "not connected to {host}: use Reconnect",
    "remote.not_connected_because": "not connected to {host} ({reason}): use Reconnect",
    "remote.no_model": "no model is open on {host} yet (File › Open model…)",
    "remote.no_attribution": "the agent sent no per-module figures for this run",
    "remote.no_fit": "“Will it fit?” is not available in a remote session yet: run `torch-device-inspector fit` on {host}",
    "remote.no_train_step": "A training step is not available in a remote session yet: the model on {host} is left as it is",
    "remote.nothing_measured": "nothing was measured on {host} yet",
}
