"""Each package of core shows the window and the CLI one face: its ``__all__``, each name the
object its module defines, imported only when read (the window's frame imports faces before
torch is loaded)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FACES = ("devices", "files", "measure", "messages", "moves", "placement", "remote", "report")


@pytest.mark.parametrize("package", FACES)
def test_each_public_name_is_the_object_its_module_defines(package):
    face = importlib.import_module(f"inspector.core.{package}")
    assert face.__all__ and len(set(face.__all__)) == len(face.__all__)
    for name in face.__all__:
        home, _, original = face._HOMES.get(name, "").partition(":")
        if not home:  # defined in the face itself (messages' Text)
            assert name in vars(face)
            continue
        module = importlib.import_module(f"inspector.core.{package}.{home}")
        assert getattr(face, name) is getattr(module, original or name), name
        assert name in dir(face)
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        face.not_a_name  # noqa: B018


@pytest.mark.parametrize("package", FACES)
def test_no_public_name_is_also_a_module_of_its_package(package):
    # importing that module would replace the package's attribute with the module
    face = importlib.import_module(f"inspector.core.{package}")
    modules = {info.name for info in pkgutil.iter_modules(face.__path__)}
    assert not modules & set(face.__all__)


def test_importing_every_face_imports_no_module_behind_it_and_no_torch():
    code = (
        "import sys\n"
        f"for p in {FACES!r}: __import__('inspector.core.' + p)\n"
        "print(sorted(m for m in sys.modules if m.startswith('inspector.core.') and m.count('.') > 2"
        " and '_texts' not in m), 'torch' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.split() == ["[]", "False"]


def test_a_name_patched_in_its_module_is_what_the_face_gives_and_only_while_patched(monkeypatch):
    # tests patch core's modules (tests/cli/test_bench_requests.py patches ranks.RankGroup);
    # the CLI, reading the name through the face, must see the patch, and no later test may
    from inspector.core import remote
    from inspector.core.remote import ranks

    real = ranks.RankGroup
    assert remote.RankGroup is real
    with monkeypatch.context() as patch:
        patch.setattr(ranks, "RankGroup", "patched")
        from inspector.core.remote import RankGroup

        assert RankGroup == "patched"
    assert remote.RankGroup is real
