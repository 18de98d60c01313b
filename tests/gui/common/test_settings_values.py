"""A settings file the user (or another version) wrote badly never keeps the window from
opening: each bad value is dropped with one line on stderr; a settings file that is a FIFO
is refused before QSettings opens it (it blocked the start for good)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QByteArray, QSettings  # noqa: E402

from inspector.gui.features.remote import connect_dialog  # noqa: E402
from inspector.gui.shell import settings_file  # noqa: E402
from inspector.gui.common import settings_values, window_settings  # noqa: E402
from inspector.gui.common.sample_rate import DEFAULT_SAMPLE_HZ  # noqa: E402
from tests.gui import doors

REPO = Path(__file__).resolve().parents[3]

#: (key, the line as a hand edit, another tool or another version left it in the INI file).
GARBAGE = {
    "window/geometry": "garbage",
    "window/columnSplitters": "a, b",
    "memory/sampleHz": "1e400",
    "folders/reports": "1, 2",
    "folders/models": r"@Variant(\0\0\0\x7f\0\0\0\x10)",  # a type no Qt knows
    "models/inputs": "garbage",
    "view/language": "klingon",
    "hints/cpuOnlyNoteShown": "maybe",
    "remote/recentHosts": "@ByteArray(gpu1)",
    "remote/commands": "[" * 50_000,  # nested past Python's recursion limit
}


def _write_ini(settings: QSettings, values: dict[str, str]) -> None:
    """``values`` written into ``settings``' file as text, the way an editor would."""
    groups: dict[str, list[str]] = {}
    for key, text in values.items():
        group, name = key.split("/", 1)
        groups.setdefault(group, []).append(f"{name}={text}")
    body = "".join(f"[{group}]\n" + "\n".join(lines) + "\n\n" for group, lines in groups.items())
    Path(settings.fileName()).parent.mkdir(parents=True, exist_ok=True)
    Path(settings.fileName()).write_text(body, encoding="utf-8")
    settings.sync()  # the file changed on disk: QSettings reads it again


def _warnings(err: str, key: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning: settings: ignored") and key in line]


def test_a_window_opens_whatever_its_settings_say(make_window, clean_settings, capsys):
    good_spec = "torch.nn:Identity"
    _write_ini(clean_settings, {**GARBAGE, "models/recent": f"{good_spec}, , @ByteArray(x), {'m' * 100_000}.pt"})
    capsys.readouterr()

    window = make_window()  # restores the layout, reads the sample rate, the language, the notes
    assert doors.model(window) is not None and window.isWindow()
    # What the window reads later: File › Open recent, the dialogs' folders, Connect to server….
    assert window.recent_models() == ["example", good_spec]  # the model it opened, then the good entry
    assert window_settings.last_folder(window.settings, "reports") == str(Path.home())
    assert window_settings.last_folder(window.settings, "models") == str(Path.home())
    assert window_settings.remembered_inputs(window.settings, "example") == ""
    assert window_settings.sample_hz(window.settings) == DEFAULT_SAMPLE_HZ
    assert connect_dialog.recent_hosts(window.settings) == []
    assert connect_dialog.command_for(window.settings, "gpu1") == "ssh -- gpu1 torch-device-inspector agent"

    err = capsys.readouterr().err
    for key in (*GARBAGE, "models/recent"):
        lines = _warnings(err, key)
        assert len(lines) == 1, (key, err)
        assert len(lines[0]) < 300  # the 50,000 brackets are not repeated
    assert "ignored 3 of the 4 entries of models/recent" in err  # blank, bytes, 100,000 characters
    # Dropped for good: the next start reads the defaults and says nothing.
    for key in GARBAGE:
        assert not window.settings.contains(key) or key == "hints/cpuOnlyNoteShown", key
    again = make_window()
    assert again.recent_models() == ["example", good_spec]
    assert "ignored" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "expected"),
    [("20", 20.0), (7, 7.0), ("2.5", 2.5), ("nan", None), ("-1e308", None), ("abc", None), ([1, 2], None), (True, None)],
)
def test_numbers_are_checked_by_type_and_range(clean_settings, capsys, value, expected):
    clean_settings.setValue("memory/sampleHz", value)
    got = settings_values.number(clean_settings, "memory/sampleHz", 10.0, 2, 20)
    err = capsys.readouterr().err
    assert got == (10.0 if expected is None else expected)
    assert len(_warnings(err, "memory/sampleHz")) == (expected is None)


def test_window_states_that_qt_cannot_restore_are_dropped(make_window, clean_settings, capsys):
    clean_settings.setValue("window/geometry", QByteArray(b"\x01\xd9\xd0\xcb" + b"\xff" * 40))
    clean_settings.setValue("window/columnSplitters", [QByteArray(b"not a state")] * 2)
    capsys.readouterr()
    window = make_window()
    assert doors.model(window) is not None
    err = capsys.readouterr().err
    assert len(_warnings(err, "window/geometry")) == 1 and len(_warnings(err, "window/columnSplitters")) == 1


# ---------------------------------------------------------------- a settings file that is a FIFO


class _Names:
    """What ``guard_settings_files`` asks of the application: its names."""

    def __init__(self, organization: str, application: str) -> None:
        self._names = organization, application

    def organizationName(self) -> str:  # noqa: N802 -- Qt's name
        return self._names[0]

    def applicationName(self) -> str:  # noqa: N802
        return self._names[1]


def test_a_fifo_settings_file_is_refused_unopened(qapp, monkeypatch, capsys):
    names = ("fifo-test-org", "fifo-test-app")
    user_file, org_file = settings_file.settings_files(*names)[QSettings.Scope.UserScope]
    assert user_file == Path(QSettings(*names).fileName())  # the file QSettings would open
    user_file.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(user_file)
    moved: list[tuple[QSettings.Scope, str]] = []
    monkeypatch.setattr(QSettings, "setPath", lambda fmt, scope, path: moved.append((scope, path)))
    try:
        said = settings_file.guard_settings_files(_Names(*names))  # stat only: returns at once
    finally:
        user_file.unlink()
    assert len(said) == 1 and str(user_file) in said[0] and "FIFO" in said[0]
    assert capsys.readouterr().err.splitlines() == said
    ((scope, folder),) = moved
    assert scope == QSettings.Scope.UserScope and os.listdir(folder) == []
    assert settings_file.problem(Path("/dev/zero")) is not None and settings_file.problem(org_file) is None


def test_the_app_starts_past_a_fifo_settings_file(tmp_path):
    """End to end, in a process of its own: QSettings blocked forever on the FIFO before."""
    config = tmp_path / "config"
    folder = config / "torch-device-inspector"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "torch-device-inspector.conf")
    script = (
        "from inspector.gui.shell.app import ensure_application\n"
        "from PySide6.QtCore import QSettings\n"
        "ensure_application()\n"
        "QSettings().setValue('view/language', 'en')\n"
        "print('opened', QSettings().value('view/language'))\n"
    )
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "opened en"
    refused = [line for line in proc.stderr.splitlines() if line.startswith("warning: not reading the settings file")]
    assert len(refused) == 1 and "FIFO" in refused[0], proc.stderr
    assert os.listdir(folder) == ["torch-device-inspector.conf"]  # nothing written next to the FIFO
