"""The session across a pipe, and across ranks.

Owns: ``agent`` (a Session served over JSON lines on stdin/stdout: the loop and the ops) with
``agent_output`` (its writer and event streams) and ``agent_args`` (a request's arguments,
checked), ``client`` (the Qt-free client: the command as a subprocess, a reader thread) with
``agent_answers`` (what an answer means: a result or the error it stands for), ``protocol``
(ops, versions, error kinds), ``wire`` (strict JSON lines), ``session`` (``RemoteSession``:
the local Session's calls with the same result types), ``ranks`` (one report from every rank
under torchrun).

May import: anything in core, the session included. Nothing in core imports it.
"""
