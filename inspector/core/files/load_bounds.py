"""A file's declared sizes and its pickle, checked statically before PyTorch reads it.

``torch.load`` inflates a zip's pickle whole, walks every opcode of it in Python
(weights-only), and, for a legacy (pre-1.6) file, allocates each storage at the size its
pickle declares before reading a byte of it. A 300 KB file can declare gigabytes of each.
So, for a file that is not trusted, before anything is inflated or allocated:

- a zip's records are judged by the sizes its central directory declares: tensor records
  (``data/…``, ``constants/…``, stored uncompressed by PyTorch) may not declare more bytes
  than the file holds, and everything else together (the pickle, TorchScript code, JSON)
  no more than ``metadata_bound(tensors)``;
- the pickle is then read with a bounded walk (``opcode_bound(tensors)`` opcodes), which
  also lists every name it asks for (``trust``'s refusal, dangerous names first);
- a legacy file's declared storages must fit in the bytes after its pickles.

A file over a bound is refused in one line; one whose pickle is merely too large to check
can still be opened with ``--trust`` (the user's word that it is what it says).
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import torch

from inspector.core.files.load_errors import ModelLoadError, incomplete, untrusted
from inspector.core.files.pickle_scan import PickleScan, element_size, scan_bytes, scan_pickles
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: What a zip's records other than tensors (the pickle, code, JSON) may declare together,
#: uncompressed: a base, plus this much per tensor record. A state dict's pickle takes a few
#: hundred bytes per tensor; the base leaves room for configs, vocabularies, optimizer scalars.
METADATA_BASE = 64 * 2**20
METADATA_PER_TENSOR = 16 * 2**10
#: Opcodes the static walk reads: a tensor costs about 30 in a torch.save pickle.
OPCODES_BASE = 1_000_000
OPCODES_PER_TENSOR = 256
#: The most pickles in a legacy torch.save file: magic number, protocol, system info, the
#: object, its storage keys.
LEGACY_PICKLES = 5
_LEGACY_MAGIC = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19."

ShouldCancel = Callable[[], bool] | None


def metadata_bound(tensors: int) -> int:
    return METADATA_BASE + METADATA_PER_TENSOR * tensors


def opcode_bound(tensors: int) -> int:
    return OPCODES_BASE + OPCODES_PER_TENSOR * tensors


def _is_tensor_record(record: str) -> bool:
    return record.startswith(("data/", "constants/")) and not record.endswith((".pkl", ".json"))


def check_zip_sizes(path: Path) -> int:
    """Refuse a zip whose central directory declares more than the file can honestly hold;
    nothing is inflated. Returns how many tensor records it declares."""
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return 0  # the loader says what is wrong with it
    file_size = path.stat().st_size
    tensors = metadata = 0
    largest, largest_size, count = "", -1, 0
    for info in infos:
        record = info.filename.partition("/")[2] or info.filename
        if _is_tensor_record(record):
            tensors += info.file_size
            count += 1
        else:
            metadata += info.file_size
            if info.file_size > largest_size:
                largest, largest_size = record, info.file_size
    if tensors > file_size:
        raise incomplete(path, Text("load.reason_declares_more", declared=format_bytes(tensors),
                                    length=format_bytes(file_size)))  # fmt: skip
    bound = metadata_bound(count)
    if metadata > bound:
        raise _too_large(path, largest, metadata, bound, count)
    return count


def _too_large(path: Path, record: str, size: int, bound: int, tensors: int) -> ModelLoadError:
    what = Text("trust.too_large", record=record, size=format_bytes(size), bound=format_bytes(bound),
                count=tensors)  # fmt: skip
    return untrusted(path, (what,), reason=Text("load.reason_too_large"))


def _too_long(path: Path, scan: PickleScan, opcodes: int) -> ModelLoadError:
    what = Text("trust.too_long", opcodes=f"{opcodes:,}", size=format_bytes(scan.bytes_read))
    return untrusted(path, (what,), reason=Text("load.reason_too_large"))


def scan_zip_checkpoint(path: Path, tensors: int, should_cancel: ShouldCancel = None) -> PickleScan | None:
    """The bounded walk over a zip checkpoint's ``data.pkl``, read with PyTorch's own zip
    reader (its declared size checked again as that reader sees it); None without one."""
    try:
        reader = torch._C.PyTorchFileReader(str(path))
        if "data.pkl" not in reader.get_all_records():
            return None
        declared = int(reader.get_record_size("data.pkl"))
        if declared > metadata_bound(tensors):
            raise _too_large(path, "data.pkl", declared, metadata_bound(tensors), tensors)
        data = bytes(reader.get_record("data.pkl"))
    except RuntimeError:
        return None  # the zip reader refuses it: so will torch.load, which says why
    scan = scan_bytes(data, max_opcodes=opcode_bound(tensors), should_cancel=should_cancel)
    if scan.over_limit:
        raise _too_long(path, scan, opcode_bound(tensors))
    return scan


def scan_plain_pickle(path: Path, should_cancel: ShouldCancel = None) -> PickleScan:
    """The bounded walk over a file that is not a zip: a raw pickle (one), or torch.save's
    legacy format (five in a row, then the storages' bytes, which must hold what the
    pickles declare)."""
    file_size = path.stat().st_size
    with open(path, "rb") as stream:
        legacy = stream.read(len(_LEGACY_MAGIC)) == _LEGACY_MAGIC
        stream.seek(0)
        scan = scan_pickles(
            stream, max_opcodes=OPCODES_BASE, max_bytes=METADATA_BASE,
            max_pickles=LEGACY_PICKLES if legacy else 1, should_cancel=should_cancel,
        )  # fmt: skip
    if scan.over_limit:
        raise _too_long(path, scan, OPCODES_BASE)
    if legacy:
        # Each storage is its element count (8 bytes) and its data, after the pickles.
        declared = scan.storage_bytes() + 8 * len(scan.storages)
        room = file_size - scan.end
        if declared > room:
            raise incomplete(path, Text("load.reason_declares_more", declared=format_bytes(declared),
                                        length=format_bytes(room)))  # fmt: skip
        _check_storage_records(path, scan)
    return scan


def _check_storage_records(path: Path, scan: PickleScan) -> None:
    """Each storage's record (its element count, then its bytes, in the order of the sorted
    keys, as ``torch.save`` writes them) agrees with what the pickles declare: PyTorch
    would otherwise refuse the file itself with a garbled "expected %ld got %ld"."""
    with open(path, "rb") as stream:
        stream.seek(scan.end)
        for key in sorted(scan.storages):
            kind, elements = scan.storages[key]
            head = stream.read(8)
            recorded = int.from_bytes(head, "little", signed=True) if len(head) == 8 else -1
            if recorded != elements:
                raise incomplete(path, Text("load.reason_record_differs", key=key, declared=f"{elements:,}",
                                            recorded=f"{max(recorded, 0):,}"))  # fmt: skip
            stream.seek(elements * element_size(kind), 1)


def is_zip(path: Path) -> bool:
    """As torch.load decides: by the zip's local-header magic at the start."""
    with open(path, "rb") as stream:
        return stream.read(4) == b"PK\x03\x04"

