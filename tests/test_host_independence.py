"""No test depends on the host: the tests that read the machine (its CPU's name and cores, the
locale, fonts, the time zone, the home folder) pass on an odd one too (``tests/odd_host.py``).

The suite once failed on every machine whose CPU is named "Intel(R) Xeon(R) Processor": the
language walk read the brand string as English left on screen. These tests run in a child
pytest, since the locale and time zone must be set before Python, Qt and torch start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import odd_host

REPO = Path(__file__).resolve().parents[1]

#: The tests that show what the host is: the device panel and its texts in both languages, the
#: whole-session language walk, the locale's pick of a language, the fonts notice, the home
#: folder as the default export place, the devices command.
HOST_READING_TESTS = [
    "tests/gui/shell/test_language_walk.py",
    "tests/gui/shell/test_window_i18n.py",
    "tests/gui/common/test_language.py",
    "tests/gui/features/model/test_inputs_and_tree.py",
    "tests/core/devices/test_discovery.py",
    "tests/cli/test_cli.py",
]


def _odd_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "QT_QPA"))}
    env[odd_host.ENV] = "odd"
    return env


@pytest.mark.skipif(odd_host.wanted(), reason="already on the odd host")
def test_the_tests_that_read_the_host_pass_on_an_odd_one(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *HOST_READING_TESTS],
        cwd=REPO, env=_odd_env(), capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_odd_host_is_the_one_the_app_sees(tmp_path):
    """The fake reaches what the app reads (else the run above proves nothing)."""
    probe = (
        "import json, time, locale, os, torch\n"
        "from tests import conftest\n"
        "from inspector.core.devices.inventory import discover_devices\n"
        "from inspector.core.devices.environment import collect_environment\n"
        "cpu = discover_devices().devices[0]\n"
        "print(json.dumps({'name': cpu.name, 'cores': cpu.details['cores'], 'threads': torch.get_num_threads(),\n"
        "  'env_cpu': collect_environment()['cpu'], 'tz': time.strftime('%z'), 'home': os.path.expanduser('~'),\n"
        "  'lang': os.environ['LANG']}))\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], cwd=REPO, env=_odd_env(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["name"] == seen["env_cpu"] == odd_host.CPU_NAME
    assert seen["cores"] == 1 and seen["threads"] == 1
    assert seen["tz"] in ("+1245", "+1345") and seen["lang"] == "C"
    assert seen["home"] != str(Path.home()) and not any(Path(seen["home"]).iterdir())
