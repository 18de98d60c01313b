"""Core's texts about the remote window's link to its agent (``remote.client``)."""

from __future__ import annotations

#: The link's failures: a bad command, no start, no answer.
REMOTE: dict[str, str] = {
    # ----- the remote window's link to its agent (remote.client)
    "remote.bad_command": "cannot read the command {command}: {error}",
    "remote.empty_command": "the command to start the agent is empty",
    "remote.cannot_start": "cannot start {program}: {error}",
    "remote.no_answer": "no answer from the agent to {op} within {seconds} s",
    # ----- the Host of Connect to server… (remote.hosts): one word, never an option
    "remote.host_empty": "name the host to connect to",
    "remote.host_too_long": "the host {host} is longer than {limit} characters: a host is one name",
    "remote.host_option": "the host {host} starts with '-', which ssh would read as an option: "
    "put options in the Command field, and the host alone here",
    "remote.host_space": "the host {host} holds {char}: a host is one name, without spaces or control characters "
    "(options go in the Command field)",
    "remote.host_character": "the host {host} holds {char}: a host is [user@]name, with letters, digits, '.', '-' "
    "and '_' (or an IPv6 address)",
    "remote.host_port": "the host {host} names a port: ssh takes it as -p in the Command field "
    "(ssh -p 2222 -- host …) or from ~/.ssh/config",
    # ----- a remote session (remote.session): what it cannot do, or not now
    "remote.not_connected": "not connected to {host}: use Reconnect",
    "remote.not_connected_because": "not connected to {host} ({reason}): use Reconnect",
    "remote.no_model": "no model is open on {host} yet (File › Open model…)",
    "remote.no_attribution": "the agent sent no per-module figures for this run",
    "remote.no_fit": "“Will it fit?” is not available in a remote session yet: run `torch-device-inspector fit` on {host}",
    "remote.no_train_step": "A training step is not available in a remote session yet: the model on {host} is left as it is",
    "remote.nothing_measured": "nothing was measured on {host} yet",
}
