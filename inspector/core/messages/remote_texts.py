"""Core's texts about the remote window's link to its agent (``remote.client``)."""

from __future__ import annotations

#: The link's failures: a bad command, no start, no answer.
REMOTE: dict[str, str] = {
    # ----- the remote window's link to its agent (remote.client)
    "remote.bad_command": "cannot read the command {command}: {error}",
    "remote.empty_command": "the command to start the agent is empty",
    "remote.cannot_start": "cannot start {program}: {error}",
    "remote.no_answer": "no answer from the agent to {op} within {seconds} s",
}
