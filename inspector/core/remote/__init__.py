"""The session across a pipe, and across ranks.

Owns: ``agent`` (a Session served over JSON lines on stdin/stdout: the loop and the ops) with
``agent_output`` (its writer and event streams) and ``agent_args`` (a request's arguments,
checked), ``client`` (the Qt-free client: the command as a subprocess, a reader thread) with
``agent_answers`` (what an answer means: a result or the error it stands for), ``hosts`` (the
Host a user names: one word, never an option; the default ``ssh -- HOST …`` argv), ``protocol``
(ops, versions, error kinds), ``wire`` (strict JSON lines), ``session`` (``RemoteSession``:
the local Session's calls with the same result types), ``ranks`` (one report from every rank
under torchrun).

May import: anything in core, the session included. Nothing in core imports it.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.remote.agent import run_agent
    from inspector.core.remote.client import AgentConnection, command_argv
    from inspector.core.remote.agent_answers import AgentInfo, ConnectionLost
    from inspector.core.remote.hosts import check_host, command_text, default_agent_argv, host_problem
    from inspector.core.remote.session import RemoteSession
    from inspector.core.remote.ranks import RankGroup, RankResult, missing_ranks, rank_device, rank_env, ranks_summary

__all__ = [
    "AgentConnection",
    "AgentInfo",
    "ConnectionLost",
    "RankGroup",
    "RankResult",
    "RemoteSession",
    "check_host",
    "command_argv",
    "command_text",
    "default_agent_argv",
    "host_problem",
    "missing_ranks",
    "rank_device",
    "rank_env",
    "ranks_summary",
    "run_agent",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "AgentConnection": "client",
    "AgentInfo": "agent_answers",
    "ConnectionLost": "agent_answers",
    "RankGroup": "ranks",
    "RankResult": "ranks",
    "RemoteSession": "session",
    "check_host": "hosts",
    "command_argv": "client",
    "command_text": "hosts",
    "default_agent_argv": "hosts",
    "host_problem": "hosts",
    "missing_ranks": "ranks",
    "rank_device": "ranks",
    "rank_env": "ranks",
    "ranks_summary": "ranks",
    "run_agent": "agent",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
