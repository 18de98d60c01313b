"""``hf:ORG/NAME``: a model in the local Hugging Face cache, found as huggingface_hub finds it.

The cache folder is the one huggingface_hub uses (``HF_HUB_CACHE``, the older
``HUGGINGFACE_HUB_CACHE``, ``$HF_HOME/hub``, ``$XDG_CACHE_HOME/huggingface/hub``), read when
asked (huggingface_hub reads it once, at import); an empty variable counts as unset (for
huggingface_hub it would be the working folder). The snapshot is the one ``refs/main`` names,
else the newest, resolved by huggingface_hub's ``try_to_load_from_cache``.

What the cache holds is read as an attacker wrote it (on a shared ``HF_HOME``, whoever can
write one file there): a refs file holding a path (``/home/x``, ``../../..``) picked a folder
outside the cache, and a 200 MB one was read whole. So every refs file huggingface_hub would
read is first read here, bounded: it must hold a commit id (40 hex digits); and the snapshot it
resolves must be a folder of the repository's own ``snapshots/``, inside the cache.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from inspector.core.files.hugging_face import libraries
from inspector.core.files.hugging_face.folder_files import CONFIG
from inspector.core.files.load_errors import ModelLoadError
from inspector.core.files.regular_file import read_regular_file
from inspector.core.messages import Text

PREFIX = "hf:"
REPO_NAME = re.compile(r"[A-Za-z0-9][\w.\-]*/[A-Za-z0-9][\w.\-]*\Z")
_COMMIT = re.compile(r"[0-9a-f]{40}\Z")
#: A refs file holds a commit id and perhaps a newline.
REF_LIMIT = 64


def cache_root() -> Path:
    """The cache folder huggingface_hub uses, by the same rules, absolute."""

    def named(variable: str) -> str | None:
        value = os.environ.get(variable)
        return os.path.expandvars(os.path.expanduser(value)) if value else None

    home = named("HF_HOME") or os.path.join(named("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "huggingface")
    root = named("HF_HUB_CACHE") or named("HUGGINGFACE_HUB_CACHE") or os.path.join(home, "hub")
    return Path(os.path.abspath(root))


def cached_folder(name: str) -> Path:
    """The snapshot folder of ``ORG/NAME`` (a real folder of the repository's ``snapshots/``,
    inside the cache); ``ModelLoadError`` in one line where it is absent or leads elsewhere."""
    if not REPO_NAME.match(name):
        raise ModelLoadError(Text("load.hf_bad_name", name=repr(name)))
    hub = libraries.hub_module(name)
    cache = cache_root()
    repo = cache / hub.file_download.repo_folder_name(repo_id=name, repo_type="model")
    revision = _ref(name, repo, "main") or _newest_snapshot(repo)
    if revision is None:
        raise ModelLoadError(Text("load.hf_not_in_cache", name=name, cache=cache))
    _ref(name, repo, revision)  # huggingface_hub reads refs/<revision> too, where there is one
    found = hub.try_to_load_from_cache(name, CONFIG, cache_dir=str(cache), revision=revision, repo_type="model")
    if not isinstance(found, str):
        raise ModelLoadError(Text("load.hf_not_in_cache", name=name, cache=cache))
    snapshot = Path(found).parent
    snapshots = Path(os.path.realpath(cache)) / repo.name / "snapshots"
    if snapshot.name != revision or Path(os.path.realpath(snapshot)) != snapshots / revision:
        raise ModelLoadError(Text("load.hf_cache_outside", name=name, path=os.path.realpath(snapshot),
                                  snapshots=snapshots))  # fmt: skip
    return snapshot


def repository_of(snapshot: Path) -> Path:
    """The repository folder a snapshot's files may lead into (its ``blobs/``), real."""
    return Path(os.path.realpath(snapshot)).parent.parent


# --------------------------------------------------------------------------- parts


def _ref(name: str, repo: Path, revision: str) -> str | None:
    """The commit id in ``refs/<revision>`` (None where there is no such file), read bounded;
    ``ModelLoadError`` for a refs file that holds anything else."""
    path = repo / "refs" / revision
    if not os.path.lexists(path):
        return None
    shown = f"refs/{revision}"
    try:
        text = read_regular_file(path, REF_LIMIT).decode("ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ModelLoadError(Text("load.hf_cache_bad_ref", name=name, ref=shown, reason=reason)) from None
    if not _COMMIT.match(text):
        raise ModelLoadError(Text("load.hf_cache_bad_ref", name=name, ref=shown, reason=repr(text[:60])))
    return text


def _newest_snapshot(repo: Path) -> str | None:
    """The most recently written snapshot whose name is a commit id (a cache without refs)."""
    try:
        entries = [e for e in os.scandir(repo / "snapshots") if _COMMIT.match(e.name)]
        entries = [e for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        return None
    return max(entries, key=lambda e: e.stat(follow_symlinks=False).st_mtime).name if entries else None
