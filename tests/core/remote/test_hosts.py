"""Issue 43, item 2: the Host of Connect to server… is one word, never an ssh option.

Typed as the host, ``-oProxyCommand='touch x' gpu1`` ran ``touch x`` on this machine, ``-F``
read anyone's config, ``-E`` appended ssh's log to any file, ``gpu1; touch x`` reached the
server's shell. Each is refused with a sentence saying why; the default command is an argv
with ``--`` before the host.
"""

from __future__ import annotations

import shlex

import pytest

from inspector.core.errors import InputError
from inspector.core.remote import check_host, command_argv, command_text, default_agent_argv, host_problem

HOSTILE = {
    "-oProxyCommand=touch x gpu1": "starts with '-'",
    "-F/path/config": "starts with '-'",
    "-E/path/log": "starts with '-'",
    "gpu1; touch x": "holds ' '",
    "gpu1;touch x": "holds ' '",
    "gpu1;x": "holds ';'",
    "gpu1\nx": "holds '\\n'",
    "gpu1\x1b]0;T\x07": "holds '\\x1b'",
    "gpu\u202e1": "holds '\\u202e'",
    "$(touch x)": "holds ' '",
    "$(id)": "holds '$'",
    "`id`": "holds '`'",
    "gpu1|x": "holds '|'",
    "gpu1&x": "holds '&'",
    "'gpu1'": "holds \"'\"",
    "gpu1:2222": "names a port",
    "user@-oProxyCommand=x": "holds '-'",
    "@gpu1": "holds '@'",
    ".hidden": "holds '.'",
    "gpü1": "holds 'ü'",
    "g" * 256: "longer than 255 characters",
    "": "name the host",
}


@pytest.mark.parametrize("host", list(HOSTILE))
def test_each_hostile_host_is_refused_with_a_sentence_saying_why(host):
    problem = host_problem(host)
    assert problem is not None and HOSTILE[host] in problem
    assert "\n" not in problem and "\x1b" not in problem and "\u202e" not in problem  # shown, never obeyed
    assert len(problem) < 300  # the host is quoted bounded, however long
    with pytest.raises(InputError) as refused:
        check_host(host)
    assert refused.value.kind == "input" and refused.value.message == problem


@pytest.mark.parametrize("host", ["gpu1", "gpu-test", "user@gpu1", "my_host.example.com", "10.0.0.7", "fe80::1", "::1",
                                  "GPU1.local", "a" * 255])  # fmt: skip
def test_a_host_ssh_takes_as_one_name_is_accepted(host):
    assert host_problem(host) is None
    assert check_host(host) == host


def test_the_default_command_is_an_argv_with_the_host_after_double_dash():
    assert default_agent_argv("gpu1") == ["ssh", "--", "gpu1", "torch-device-inspector", "agent"]
    assert command_text(default_agent_argv("user@gpu1")) == "ssh -- user@gpu1 torch-device-inspector agent"
    # As text, it reads back (no shell) as the same argv.
    assert command_argv(command_text(default_agent_argv("fe80::1"))) == default_agent_argv("fe80::1")
    with pytest.raises(InputError):
        default_agent_argv("-oProxyCommand=touch x")
    assert shlex.split(command_text(["ssh", "--", "gpu1", "a b"]))[-1] == "a b"  # quoted when shown
