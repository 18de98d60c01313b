"""A bounded static read of pickles: the names they ask for and the storages they declare.

Nothing is imported, built or run: opcodes are decoded with ``pickletools``, and a small
model of the stack follows only strings, whole numbers, tuples and names, which is enough
to read a ``STACK_GLOBAL``'s ``module.name`` and torch's persistent ids
(``('storage', torch.FloatStorage, key, location, elements, ...)``). The walk reads at most
``max_opcodes`` opcodes and ``max_bytes`` bytes and stops there (``over_limit``), so a
hostile pickle (60 MB of ``(``, a million tiny pickles) costs a bounded amount of work;
the caller says what that means. A pickle that stops making sense ends the walk quietly
(``damaged``): the names read so far count.
"""

from __future__ import annotations

import io
import pickletools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO, cast

from inspector.core.errors import Cancelled
from inspector.core.files.dangerous_names import is_dangerous
from inspector.core.messages import Text

#: How many distinct names a scan keeps; past it only those that reach the system are kept
#: (a refusal names those anyway, however many decoys come before them).
MAX_NAMES = 10_000
#: Opcodes read between two looks at ``should_cancel``.
_CANCEL_EVERY = 8192


@dataclass(frozen=True)
class _Name:
    """A class or function the pickle named (a value on the modelled stack)."""

    dotted: str


class _Unknown:
    """A value the scan does not follow (a list, a float, a built object)."""


_UNKNOWN = _Unknown()
_MARK = object()

#: Bytes per element of the storage classes torch.save names (torch.FloatStorage...).
_ELEMENT_SIZES = {
    "Double": 8, "Float": 4, "Half": 2, "BFloat16": 2, "Long": 8, "Int": 4, "Short": 2,
    "Char": 1, "Byte": 1, "Bool": 1, "ComplexDouble": 16, "ComplexFloat": 8, "QInt32": 4,
    "QInt8": 1, "QUInt8": 1, "QUInt4x2": 1, "QUInt2x4": 1, "Untyped": 1,
}  # fmt: skip


def element_size(storage_type: str) -> int:
    """Bytes per element of ``torch.FloatStorage`` & co. (1 for one it does not know)."""
    name = storage_type.rpartition(".")[2]
    return _ELEMENT_SIZES.get(name.removesuffix("Storage"), 1)


@dataclass
class PickleScan:
    """What a bounded walk over one or more pickles in a row found."""

    #: Every ``module.name`` named, in order, no repeats.
    names: dict[str, None] = field(default_factory=dict)
    #: Storage key -> (storage class, elements), from torch's persistent ids.
    storages: dict[str, tuple[str, int]] = field(default_factory=dict)
    opcodes: int = 0
    bytes_read: int = 0
    pickles: int = 0  # whole pickles read (up to their STOP)
    end: int = 0  # offset just past the last whole pickle
    over_limit: bool = False  # stopped at max_opcodes or max_bytes
    damaged: bool = False  # stopped where the data stopped making sense

    def storage_bytes(self) -> int:
        """What the declared storages take, each counted once."""
        return sum(elements * element_size(kind) for kind, elements in self.storages.values())


class _OverLimit(Exception):
    pass


class _Bounded:
    """A stream ``pickletools`` reads through, which refuses to go past ``limit`` bytes."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        self._stream, self._left, self.read_count = stream, limit, 0

    def _take(self, data: bytes) -> bytes:
        self._left -= len(data)
        self.read_count += len(data)
        return data

    def read(self, size: int = -1) -> bytes:
        if size < 0 or size > self._left:
            raise _OverLimit
        return self._take(self._stream.read(size))

    def readline(self, size: int = -1) -> bytes:
        line = self._stream.readline(self._left + 1)
        if len(line) > self._left:
            raise _OverLimit
        return self._take(line)

    def tell(self) -> int:
        return self._stream.tell()


def scan_pickles(
    stream: BinaryIO,
    *,
    max_opcodes: int,
    max_bytes: int,
    max_pickles: int = 1,
    should_cancel: Callable[[], bool] | None = None,
) -> PickleScan:
    """Walk up to ``max_pickles`` pickles in a row from ``stream`` (torch.save's legacy
    format is five; a raw pickle one), reading at most ``max_opcodes`` and ``max_bytes``.
    ``should_cancel``: looked at every few thousand opcodes; True raises ``Cancelled``."""
    scan = PickleScan()
    bounded = _Bounded(stream, max_bytes)
    try:
        while scan.pickles < max_pickles and not scan.damaged:
            start = stream.tell()
            if not stream.read(1):
                break
            stream.seek(start)
            if _walk_one(bounded, scan, max_opcodes, should_cancel):
                scan.pickles += 1
                scan.end = stream.tell()
    except _OverLimit:
        scan.over_limit = True
    scan.bytes_read = bounded.read_count
    return scan


def _walk_one(
    stream: _Bounded, scan: PickleScan, max_opcodes: int, should_cancel: Callable[[], bool] | None
) -> bool:
    """One pickle, up to its STOP; False where it is cut short or garbled."""
    stack: list[object] = []
    memo: dict[int, object] = {}
    try:
        for opcode, arg, _pos in pickletools.genops(cast(BinaryIO, stream)):  # it reads, readlines, tells
            scan.opcodes += 1
            if scan.opcodes > max_opcodes:
                raise _OverLimit
            if should_cancel is not None and scan.opcodes % _CANCEL_EVERY == 0 and should_cancel():
                raise Cancelled(Text("load.scan_cancelled"))
            if opcode.name == "STOP":
                return True
            _step(opcode, arg, stack, memo, scan)
    except (_OverLimit, Cancelled):
        raise
    except Exception:  # noqa: BLE001 -- pickletools raises ValueError & co. on damage: keep what was read
        pass
    scan.damaged = True
    return False


def _pop(stack: list[object]) -> object:
    return stack.pop() if stack else _UNKNOWN


def _pop_to_mark(stack: list[object]) -> list[object]:
    items: list[object] = []
    while stack:
        item = stack.pop()
        if item is _MARK:
            break
        items.append(item)
    items.reverse()
    return items


def _name(scan: PickleScan, dotted: str) -> _Name:
    if len(scan.names) < MAX_NAMES or is_dangerous(dotted):
        scan.names[dotted] = None
    return _Name(dotted)


def _step(opcode: pickletools.OpcodeInfo, arg: object, stack: list[object], memo: dict[int, object],
          scan: PickleScan) -> None:  # fmt: skip
    """The opcode's effect on the modelled stack (and the names and storages it reveals)."""
    name = opcode.name
    if name == "GLOBAL":
        module, _, attribute = str(arg).partition(" ")
        stack.append(_name(scan, f"{module}.{attribute}"))
    elif name == "INST":
        module, _, attribute = str(arg).partition(" ")
        _pop_to_mark(stack)
        _name(scan, f"{module}.{attribute}")
        stack.append(_UNKNOWN)  # the instance it builds
    elif name == "STACK_GLOBAL":
        member, owner = _pop(stack), _pop(stack)
        if isinstance(owner, str) and isinstance(member, str):
            stack.append(_name(scan, f"{owner}.{member}"))
        else:
            stack.append(_name(scan, Text("trust.name_built_at_load")))
    elif "UNICODE" in name or name in ("STRING", "BINSTRING", "SHORT_BINSTRING"):
        stack.append(str(arg))
    elif name in ("INT", "BININT", "BININT1", "BININT2", "LONG", "LONG1", "LONG4"):
        stack.append(arg if isinstance(arg, int) and not isinstance(arg, bool) else _UNKNOWN)
    elif name == "MARK":
        stack.append(_MARK)
    elif name == "TUPLE":
        stack.append(tuple(_pop_to_mark(stack)))
    elif name in ("TUPLE1", "TUPLE2", "TUPLE3"):
        count = int(name[-1])
        items = [_pop(stack) for _ in range(count)]
        stack.append(tuple(reversed(items)))
    elif name == "EMPTY_TUPLE":
        stack.append(())
    elif name in ("PUT", "BINPUT", "LONG_BINPUT"):
        memo[int(str(arg))] = stack[-1] if stack else _UNKNOWN
    elif name == "MEMOIZE":
        memo[len(memo)] = stack[-1] if stack else _UNKNOWN
    elif name in ("GET", "BINGET", "LONG_BINGET"):
        stack.append(memo.get(int(str(arg)), _UNKNOWN))
    elif name == "BINPERSID":
        _note_storage(_pop(stack), scan)
        stack.append(_UNKNOWN)
    elif name == "DUP":
        stack.append(stack[-1] if stack else _UNKNOWN)
    else:
        _generic(opcode, stack)


def _generic(opcode: pickletools.OpcodeInfo, stack: list[object]) -> None:
    """Any other opcode: pop what it consumes, push a value not followed for each it makes."""
    before = opcode.stack_before
    if pickletools.markobject in before:
        _pop_to_mark(stack)
        for _ in range(before.index(pickletools.markobject)):
            _pop(stack)
    else:
        for _ in before:
            _pop(stack)
    stack.extend(_UNKNOWN for _ in opcode.stack_after)


def _note_storage(pid: object, scan: PickleScan) -> None:
    """Record ``('storage', torch.XStorage, key, location, elements, ...)``."""
    if not (isinstance(pid, tuple) and len(pid) >= 5 and pid[0] == "storage"):
        return
    kind, key, elements = pid[1], pid[2], pid[4]
    if isinstance(kind, _Name) and isinstance(key, str) and isinstance(elements, int) and elements >= 0:
        known = scan.storages.get(key)
        if known is None or known[1] < elements:
            scan.storages[key] = (kind.dotted, elements)


def scan_bytes(data: bytes, *, max_opcodes: int, max_pickles: int = 1,
               should_cancel: Callable[[], bool] | None = None) -> PickleScan:  # fmt: skip
    """``scan_pickles`` over bytes already in memory (all of them may be read)."""
    return scan_pickles(io.BytesIO(data), max_opcodes=max_opcodes, max_bytes=len(data),
                        max_pickles=max_pickles, should_cancel=should_cancel)  # fmt: skip
