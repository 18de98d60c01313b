"""What in a model file would run code or touch the disk if PyTorch loaded it.

Every check here reads the file statically (zip records, JSON, pickle opcodes, source text);
nothing in the file is imported, unpickled or run. Each check returns the things the file
asks for, in words; an empty tuple means the file opens without the user's trust.

The archives are read with PyTorch's own zip reader (``torch._C.PyTorchFileReader``), the
one ``torch.export.load`` and ``torch.jit.load`` use, so a crafted zip cannot show one set
of records to this check and another to the loader.
"""

from __future__ import annotations

import io
import json
import math
import operator
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import torch

from inspector.core.files.dangerous_names import dangerous_first
from inspector.core.files.load_bounds import LEGACY_PICKLES, METADATA_BASE, OPCODES_BASE
from inspector.core.files.pickle_scan import scan_bytes, scan_pickles
from inspector.core.messages import Text
from inspector.core.units import format_bytes

# --------------------------------------------------------------------------- pickles


def pickle_globals(data: bytes) -> list[str]:
    """Every class or function a pickle names (``module.name``), in order, read statically.

    Covers every protocol: GLOBAL / INST (0-1, "module name" in the opcode), and
    STACK_GLOBAL (2+, module and name pushed as strings, possibly through the memo). Reads
    torch.save's legacy format (several pickles in a row) as well as a raw pickle; the walk
    is bounded (``pickle_scan``) and stops quietly where the pickle is cut short or garbled:
    names seen so far count.
    """
    return list(scan_bytes(data, max_opcodes=OPCODES_BASE, max_pickles=LEGACY_PICKLES).names)


def _weights_only_allowed() -> set[str]:
    """The globals ``torch.load(weights_only=True)`` accepts (PyTorch's own list + the user's)."""
    from torch import _weights_only_unpickler as unpickler

    user_allowed = unpickler._get_user_allowed_globals()
    return set(unpickler._get_allowed_globals()) | set(user_allowed)


def weights_only_refuses(names: Iterable[str]) -> tuple[str, ...]:
    """The names weights-only loading refuses, those that reach the system first
    (``dangerous_names``), then the rest sorted."""
    allowed = _weights_only_allowed()
    return dangerous_first(sorted({name for name in names if name not in allowed}))


def unsafe_pickle_globals(data: bytes) -> tuple[str, ...]:
    """The names in a raw pickle that weights-only loading refuses, dangerous ones first."""
    return weights_only_refuses(pickle_globals(data))


def is_pickle(data: bytes) -> bool:
    """Whether ``data`` parses as one whole pickle (statically; nothing is built). A pickle
    still going at the walk's bound counts: the load's own check refuses it by name."""
    scan = scan_bytes(data, max_opcodes=OPCODES_BASE)
    return scan.pickles == 1 or scan.over_limit


#: How much of a file without a header is read to tell whether it is a pickle.
_SNIFF_BYTES = 2**20
_SNIFF_OPCODES = 50_000


def starts_like_pickle(path: Path) -> bool:
    """Whether the file reads as a pickle as far as its first MiB (a whole pickle, or one
    still going there); the load's own bounded check reads the rest."""
    with open(path, "rb") as stream:
        scan = scan_pickles(stream, max_opcodes=_SNIFF_OPCODES, max_bytes=_SNIFF_BYTES)
    return scan.pickles == 1 or scan.over_limit


def _torch_saved_unsafe_globals(data: bytes) -> tuple[str, ...]:
    """The globals weights-only loading refuses in a ``torch.save`` blob (zip or legacy)."""
    if data[:4] == b"PK\x03\x04":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                record = next(info for info in archive.infolist() if info.filename.endswith("/data.pkl"))
                if record.file_size > METADATA_BASE:
                    return (Text("trust.too_large", record=record.filename, size=format_bytes(record.file_size),
                                 bound=format_bytes(METADATA_BASE), count=0),)  # fmt: skip
                scan = scan_bytes(archive.read(record), max_opcodes=OPCODES_BASE)
        except Exception:  # noqa: BLE001 -- unreadable statically: trust decides, not us
            return ("a pickled member that cannot be read safely",)
        if scan.over_limit:
            return (Text("trust.too_long", opcodes=f"{OPCODES_BASE:,}", size=format_bytes(scan.bytes_read)),)
        return weights_only_refuses(scan.names)
    return unsafe_pickle_globals(data)


# --------------------------------------------------------------------------- ops

#: Operators that read or write files, or talk to other processes (found by listing every
#: registered schema with a file-name argument, and the communication namespaces).
_FILE_OR_PROCESS_OPS = frozenset({"from_file", "save", "load_tensor"})
_PROCESS_NAMESPACES = frozenset(
    {"c10d", "c10d_functional", "_c10d_functional", "_c10d_functional_autograd", "symm_mem", "_dtensor", "debugprims"}
)


def _touches_files_or_processes(parts: list[str]) -> str | None:
    """The offending name in a dotted call target (``torch.ops.aten.from_file.default``)."""
    for part in parts:
        if part in _FILE_OR_PROCESS_OPS or part in _PROCESS_NAMESPACES:
            return part
    return None


# --------------------------------------------------------------------------- TorchScript

_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_SETSTATE = re.compile(r"\bdef\s+__setstate__\b")


def torchscript_risks(path: Path) -> tuple[str, ...]:
    """What a TorchScript archive would run at load, or which file/process ops its code calls.

    ``torch.jit.load`` compiles the sources under ``code/`` and calls a class's scripted
    ``__setstate__`` for every object of it in the archive's pickles: that runs at load,
    before any forward. Ops are found by their names in the source text (TorchScript has no
    way to call an op whose name is not written out), so a false alarm costs a trust prompt,
    never a missed op.
    """
    reader = torch._C.PyTorchFileReader(str(path))
    risks: list[str] = []
    for record in sorted(reader.get_all_records()):
        if not (record.startswith("code/") and record.endswith(".py")):
            continue
        source = bytes(reader.get_record(record)).decode("utf-8", errors="replace")
        if _SETSTATE.search(source):
            risks.append(Text("trust.setstate", record=record))
        for match in _DOTTED.finditer(source):
            parts = re.split(r"\s*\.\s*", match.group())
            offender = _touches_files_or_processes(parts)
            if offender is not None:
                risks.append(Text("trust.touches_files", what='.'.join(parts), record=record))
    return tuple(dict.fromkeys(risks))


# --------------------------------------------------------------------------- torch.export

#: Call targets an exported graph names outside ``torch.ops``: the symbolic-shape operators
#: torch.export serialises by module and name (serde's _SYM_OPS), and tuple indexing.
def _symbolic_targets() -> frozenset[str]:
    try:
        from torch._export.serde.serialize import _SYM_OPS

        ops: set[Any] = set(_SYM_OPS)
    except ImportError:  # a torch without the table: these are its members in 2.13
        ops = {operator.eq, operator.add, operator.mul, math.trunc, torch.sym_int, torch.sym_float}
    ops.add(operator.getitem)
    return frozenset(f"{op.__module__}.{op.__name__}" for op in ops)


#: Names a shape expression may use: torch's sympy functions, sympy's arithmetic and
#: logic, numbers, and symbols such as s0, u3, zuf1 (torch.utils._sympy.symbol.SymT).
_SYMPY_NAMES = frozenset(
    {
        "FloorDiv", "ModularIndexing", "Where", "PythonMod", "Mod", "CleanDiv", "CeilToInt",
        "FloorToInt", "CeilDiv", "LShift", "RShift", "PowByNatural", "FloatPow", "FloatTrueDiv",
        "IntTrueDiv", "IsNonOverlappingAndDenseIndicator", "TruncToFloat", "TruncToInt",
        "RoundToInt", "RoundDecimal", "ToFloat", "Identity", "OpaqueUnaryFn_sqrt", "BitwiseFn_bitwise_and",
        "BitwiseFn_bitwise_or", "BitwiseFn_bitwise_xor", "Min", "Max", "Abs", "Eq", "Ne", "Lt", "Le",
        "Gt", "Ge", "And", "Or", "Not", "Integer", "Rational", "Float", "floor", "ceiling", "oo",
        "zoo", "nan", "true", "false", "True", "False", "Piecewise", "ITE", "sqrt", "Pow", "Mul",
        "Add", "Symbol",
    }
)
#: Assumptions torch writes into ``Symbol('s77', positive=True, integer=True)``.
_SYMPY_ASSUMPTIONS = frozenset(
    {
        "positive", "negative", "nonnegative", "nonpositive", "integer", "real", "finite",
        "infinite", "zero", "nonzero", "even", "odd", "rational", "commutative", "extended_real",
        "prime", "composite",
    }
)
_SYMBOL_NAME = re.compile(r"[a-z]+\d+\Z")
_EXPRESSION_TOKEN = re.compile(
    r"\s*(?:(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)|([A-Za-z_]\w*)|'([A-Za-z_]\w*)'"
    r"|(\*\*|//|<=|>=|==|!=|[-+*/%(),<>~&|^=]))"
)


def _safe_shape_expression(text: str) -> bool:
    """Whether a serialised shape expression is arithmetic on known names only.

    torch.export's loader hands ``expr_str`` to ``sympy.sympify``, which ``eval``s it: an
    expression is allowed only if every token is a number, an operator, a bracket or comma,
    a name from the lists above or shaped like a size symbol, or such a symbol name in
    quotes (``Symbol('s77', positive=True)``). No other string, no dot after a name, no
    square bracket or lambda gets through, so no Python object can be reached.
    """
    position = 0
    while position < len(text):
        match = _EXPRESSION_TOKEN.match(text, position)
        if match is None or match.end() == position:
            return text[position:].strip() == ""
        name = match.group(2)
        if name is not None and not (
            name in _SYMPY_NAMES or name in _SYMPY_ASSUMPTIONS or _SYMBOL_NAME.match(name)
        ):
            return False
        quoted = match.group(3)  # Symbol('s77', ...): only a symbol's name may be quoted
        if quoted is not None and not _SYMBOL_NAME.match(quoted):
            return False
        position = match.end()
    return True


def _graph_nodes_and_expressions(value: Any) -> Iterator[tuple[str, str]]:
    """("target", name) for every graph node and ("expr", text) for every shape expression."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            target = item.get("target")
            if isinstance(target, str) and "inputs" in item and "outputs" in item:
                yield "target", target
            expression = item.get("expr_str")
            if isinstance(expression, str):
                yield "expr", expression
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _graph_risks(document: bytes, record: str) -> list[str]:
    """File/process ops, unknown call targets and code-bearing shape expressions in a graph."""
    try:
        graph = json.loads(document)
    except (ValueError, RecursionError):
        return []  # the loader fails on it too, before building anything
    symbolic = _symbolic_targets()
    risks: list[str] = []
    for kind, text in _graph_nodes_and_expressions(graph):
        if kind == "expr":
            if not _safe_shape_expression(text):
                risks.append(Text("trust.shape_code", record=record, code=repr(text[:60])))
            continue
        if text.startswith("#"):  # an extension op: a handler registered in this process
            continue
        if text.startswith("torch.ops."):
            offender = _touches_files_or_processes(text.split("."))
            if offender is not None:
                risks.append(Text("trust.touches_files", what=text, record=record))
            continue
        if text.startswith(("torch", "_operator", "math")) and text not in symbolic:
            # The loader resolves these with getattr from the torch, operator or math
            # module: "torch.os.system" would be os.system.
            risks.append(Text("trust.call", what=text, record=record))
    return risks


def _payload_config(reader: Any, name: str) -> Any:
    from torch._export.serde import schema
    from torch._export.serde.serialize import _dict_to_dataclass

    text = bytes(reader.get_record(name)).decode("utf-8")
    return _dict_to_dataclass(schema.PayloadConfig, json.loads(text))


def exported_program_risks(path: Path) -> tuple[str, ...]:
    """What ``torch.export.load`` would unpickle without weights-only, or run, for this file.

    Follows torch 2.13's loader (torch/export/pt2_archive/_package.py ``load_pt2`` and the
    pre-2.8 fallback in ``torch.export.load``) record by record:
    - every entry of each model's constants config, decided by its ``path_name`` exactly as
      the loader dispatches on it: ``tensor_*`` raw bytes are plain tensors, ``tensor_*``
      with ``use_pickle`` go through ``torch.load`` (checked for unsafe globals),
      ``custom_obj_*`` through TorchScript's unpickler and ``opaque_obj_*`` through plain
      ``pickle.loads`` — both need trust;
    - pickled weights, legacy weight/constant files and sample inputs (``torch.load``);
    - the graph: shape expressions (``sympy.sympify`` evaluates them) and call targets.
    """
    from torch.export.pt2_archive import constants as pt2

    risks: list[str] = []
    reader = torch._C.PyTorchFileReader(str(path))
    records = set(reader.get_all_records())

    def torch_loaded(record: str) -> None:
        if record in records:
            for name in _torch_saved_unsafe_globals(bytes(reader.get_record(record))):
                risks.append(Text("trust.pickled_name", name=name, record=record))

    if any(record.startswith(pt2.AOTINDUCTOR_DIR) for record in records):
        risks.append(Text("trust.compiled_code", folder=pt2.AOTINDUCTOR_DIR))
    prefix, suffix = pt2.MODELS_FILENAME_FORMAT.split("{}")
    for record in sorted(records):
        if not record.startswith(pt2.MODELS_DIR):
            continue
        model = record[len(prefix) : -len(suffix)]
        risks.extend(_graph_risks(bytes(reader.get_record(record)), record))
        torch_loaded(pt2.SAMPLE_INPUTS_FILENAME_FORMAT.format(model))
        torch_loaded(f"{pt2.WEIGHTS_DIR}{model}.pt")
        torch_loaded(f"{pt2.CONSTANTS_DIR}{model}.pt")
        weights_config = pt2.WEIGHTS_CONFIG_FILENAME_FORMAT.format(model)
        if weights_config in records:
            for meta in _payload_config(reader, weights_config).config.values():
                if meta.use_pickle:
                    torch_loaded(f"{pt2.WEIGHTS_DIR}{meta.path_name}")
        constants_config = pt2.CONSTANTS_CONFIG_FILENAME_FORMAT.format(model)
        if constants_config in records:
            for fqn, meta in _payload_config(reader, constants_config).config.items():
                where = f"{pt2.CONSTANTS_DIR}{meta.path_name}"
                if meta.path_name.startswith(pt2.TENSOR_CONSTANT_FILENAME_PREFIX):
                    if meta.use_pickle:
                        torch_loaded(where)
                elif meta.path_name.startswith(pt2.CUSTOM_OBJ_FILENAME_PREFIX):
                    risks.append(Text("trust.torchscript_constant", name=fqn, where=where))
                elif meta.path_name.startswith(pt2.OPAQUE_OBJ_FILENAME_PREFIX):
                    risks.append(Text("trust.pickled_constant", name=fqn, where=where))
    risks.extend(_legacy_export_risks(path))
    return tuple(dict.fromkeys(risks))


def _legacy_export_risks(path: Path) -> list[str]:
    """The pre-2.8 layout torch.export.load falls back to (read with zipfile, as it does)."""
    risks: list[str] = []
    with zipfile.ZipFile(path) as archive:
        if "version" not in archive.namelist():
            return risks
        members: dict[str, bytes] = {}
        for info in archive.infolist():  # the last of duplicate names wins, as in the loader
            members[info.filename] = archive.read(info.filename)
    for name in ("serialized_state_dict.pt", "serialized_constants.pt", "serialized_example_inputs.pt"):
        if name in members:
            risks.extend(f"{found} (pickled in {name})" for found in _torch_saved_unsafe_globals(members[name]))
    program = members.get("serialized_exported_program.json")
    if program is not None:
        risks.extend(_graph_risks(program, "serialized_exported_program.json"))
    return risks
