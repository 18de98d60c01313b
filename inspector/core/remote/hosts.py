"""The Host a user names for Connect to server…: one word, never an option.

The default command is ``ssh -- HOST torch-device-inspector agent``, built as an argv, so the
host reaches ssh as one argument after ``--``. The check goes further, because a host also
reaches ssh's config (``%h`` in a ``ProxyCommand`` runs in a shell) and the agent's Recent
list: a host is ``[user@]name``, where ``name`` is a host name or alias (letters, digits,
``.``, ``-``, ``_``) or an IPv6 address, and ``user`` the same letters. No whitespace, no
control character, no leading ``-`` (ssh would read ``-oProxyCommand=…``, ``-F``, ``-E`` as
options), nothing a shell reads (``; | & $ ` ' "`` …), at most ``MAX_HOST_CHARS``.

A port is not part of a host (``gpu1:2222``: ssh would look up a host of that name): it goes
in the Command field (``ssh -p 2222 -- gpu1 …``) or in ``~/.ssh/config``. Options the user
means (``-J bastion``) go there too: the Command field is theirs.
"""

from __future__ import annotations

import re
import shlex

from inspector.core.errors import InputError
from inspector.core.messages import Text

#: A host name's limit (DNS: 253) with room for ``user@``; longer is not a host.
MAX_HOST_CHARS = 255
#: What the agent's default command runs on the host.
AGENT_PROGRAM = ("torch-device-inspector", "agent")

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*\Z")
_IPV6 = re.compile(r"[0-9A-Fa-f]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f.]*\Z")  # two colons at least
_SHOWN_CHARS = 60


def _shown(host: str) -> str:
    """``host`` as a message shows it: quoted, control characters escaped, bounded."""
    return repr(host if len(host) <= _SHOWN_CHARS else host[:_SHOWN_CHARS] + "…")


def host_problem(host: str) -> Text | None:
    """Why ``host`` is not one host ssh may be given, in words; None when it is."""
    if not host:
        return Text("remote.host_empty")
    shown = _shown(host)
    if len(host) > MAX_HOST_CHARS:
        return Text("remote.host_too_long", host=shown, limit=MAX_HOST_CHARS)
    if host.startswith("-"):
        return Text("remote.host_option", host=shown)
    odd = next((ch for ch in host if ch.isspace() or not ch.isprintable()), None)
    if odd is not None:
        return Text("remote.host_space", host=shown, char=repr(odd))
    user, at, name = host.rpartition("@")
    if at and not _NAME.match(user):
        return Text("remote.host_character", host=shown, char=repr(_first_odd(user)))
    if name.count(":") == 1:  # an IPv6 address has two at least: this is host:port
        return Text("remote.host_port", host=shown)
    if not (_NAME.match(name) or _IPV6.match(name)):
        return Text("remote.host_character", host=shown, char=repr(_first_odd(name)))
    return None


def _first_odd(part: str) -> str:
    """The first character of ``part`` a host's part may not hold (where it is the cause)."""
    for index, ch in enumerate(part):
        if not (ch.isascii() and (ch.isalnum() or ch in "._-")) or (index == 0 and ch in ".-"):
            return ch
    return part[:1] or "@"


def check_host(host: str) -> str:
    """``host``, if it is one host (see the module's docstring); ``InputError`` saying why not."""
    problem = host_problem(host)
    if problem is not None:
        raise InputError(problem)
    return host


def default_agent_argv(host: str) -> list[str]:
    """``ssh -- HOST torch-device-inspector agent`` as an argv, for a host that passes the check."""
    return ["ssh", "--", check_host(host), *AGENT_PROGRAM]


def command_text(argv: list[str]) -> str:
    """An argv as a line the Command field shows and ``client.command_argv`` reads back."""
    return shlex.join(argv)
