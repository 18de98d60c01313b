"""Hostile model files, built small at test time (issue 32, items 3, 5, 6, 7).

Each generator writes into a folder the test owns; nothing here is committed as data. The
payload of every pickle that could run creates a file in that folder, so a test can assert
it was never created.
"""

from __future__ import annotations

import io
import shlex
import zipfile
from pathlib import Path

import torch

#: The model classes a hostile pickle names before the one that matters.
DECOYS = tuple(f"aaa_models.TransformerBlock{number}" for number in range(9))


def decoy_pickle(target: Path) -> bytes:
    """~300 bytes, protocol 2: nine model classes, then ``posix.system("touch target")``
    (what unpickling it runs). Written opcode by opcode: no decoy module need exist."""
    parts = [b"\x80\x02("]
    parts += [f"c{name.replace('.', chr(10), 1)}\n".encode() for name in DECOYS]
    command = f"touch {shlex.quote(str(target))}"
    parts.append(b"cposix\nsystem\n(X" + len(command).to_bytes(4, "little") + command.encode() + b"tR")
    parts.append(b"l.")
    return b"".join(parts)


def _clean_checkpoint_members() -> tuple[str, dict[str, bytes]]:
    blob = io.BytesIO()
    torch.save({"weight": torch.ones(2)}, blob)
    with zipfile.ZipFile(blob) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    return next(iter(members)).partition("/")[0], members


def checkpoint_with_pickle(path: Path, pickle: bytes) -> Path:
    """A zip checkpoint as torch.save writes it, its ``archive/data.pkl`` replaced."""
    top, members = _clean_checkpoint_members()
    members[f"{top}/data.pkl"] = pickle
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def zip_bomb(path: Path, *, record: str = "data.pkl", inflated_mib: int = 80, fill: bytes = b"(") -> Path:
    """A torch.save zip whose ``record`` is deflated: ``inflated_mib`` MiB of ``fill`` (a
    pickle of MARK opcodes) in a file of about a thousandth of that."""
    top, members = _clean_checkpoint_members()
    chunk = fill * 2**20
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            if name != f"{top}/{record}":
                archive.writestr(name, data)
                continue
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as stream:
                stream.write(b"\x80\x02")
                for _ in range(inflated_mib):
                    stream.write(chunk)
    return path


def marks_pickle(path: Path, count: int) -> Path:
    """``count`` MARK opcodes and nothing else: a pickle that never ends."""
    path.write_bytes(b"(" * count)
    return path


def tiny_pickles(path: Path, count: int) -> Path:
    """``count`` one-opcode pickles in a row (``N.`` each)."""
    path.write_bytes(b"N." * count)
    return path


def legacy_with_huge_storage(path: Path, elements: int = 2**34) -> Path:
    """A real pre-1.6 ``torch.save`` of a 3-float tensor (~350 bytes), its storage patched to
    declare ``elements`` floats: the legacy loader allocates that before reading a byte."""
    blob = io.BytesIO()
    torch.save(torch.ones(3), blob, _use_new_zipfile_serialization=False)
    data = blob.getvalue()
    old = b"cpuq\x04K\x03N"  # location 'cpu', memoised, then BININT1 3 elements, no view
    assert data.count(old) == 1, "torch.save's legacy layout changed"
    new = b"cpuq\x04\x8a\x08" + elements.to_bytes(8, "little") + b"N"
    path.write_bytes(data.replace(old, new))
    return path
