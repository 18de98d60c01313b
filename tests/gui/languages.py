"""The window in another language, for tests: ``chinese`` (a fixture) installs Simplified
Chinese and puts English back afterwards; ``speak`` switches at run time as View › Language does.

The compiled catalogue (``resources/i18n/inspector_zh_CN.qm``) is built from the ``.ts`` by
``tools/update_translations.py`` and committed: a test that needs it fails when it is missing,
as the installed app would then show English only.
"""

from __future__ import annotations

import pytest

from inspector import resource_files as rf
from inspector.core.errors import InspectorError


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def speak(qapp, language: str) -> None:
    """Install ``language``'s translators; every widget says its texts again (LanguageChange)."""
    from inspector.gui.common import i18n

    assert i18n.apply_language(language)
    qapp.processEvents()  # the LanguageChange events Qt posts to the windows


@pytest.fixture
def chinese(qapp):
    from inspector.gui.common import i18n

    try:
        rf.resource(i18n.catalogue_name(i18n.CHINESE))
    except InspectorError:
        pytest.fail("resources/i18n/inspector_zh_CN.qm is missing (python tools/update_translations.py builds it)")
    speak(qapp, i18n.CHINESE)
    yield
    speak(qapp, i18n.ENGLISH)
