"""The JSON Schema (``resources/report.schema.json``) against the types the report is written from.

Each section of a report is a type's ``to_dict``: a latency entry is a ``LatencyResult``, a move a
``MoveResult``, a module row a ``ModuleStats``... Here every field (and every figure a property
derives) of each type is held to the schema's property of that name: it must be there, with a JSON
type the annotation allows, and the schema may name no property the type lacks. So a field added
to a type, renamed, or retyped without the schema fails here, and the schema cannot keep
describing a field that is gone. (What a reader may be handed and refuses is
``test_report_json_schema``'s; which keys a real report writes, too.)
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import pytest

from inspector.core.errors import Failure
from inspector.core.devices.discovery import MemoryReading
from inspector.core.measure.attribution import Attribution, ModuleStats
from inspector.core.measure.fit import FitResult
from inspector.core.measure.fit_batch import BatchSearch
from inspector.core.measure.fit_cluster_plan import ClusterPlan, GpuSearch, RankPeak
from inspector.core.measure.machine_noise import MachineNoise
from inspector.core.measure.timing import LatencyResult
from inspector.core.messages import Text
from inspector.core.moves.transaction import MoveResult
from inspector.core.remote.ranks import RankResult

SCHEMA = json.loads(resources.files("inspector.resources").joinpath("report.schema.json").read_text(encoding="utf-8"))

#: Each ``$defs`` entry of the schema and the type whose ``to_dict`` writes it.
WRITTEN_BY: dict[str, type] = {
    "latencyEntry": LatencyResult,
    "machine": MachineNoise,
    "module": ModuleStats,
    "attributionRun": Attribution,
    "fitAnswer": FitResult,
    "batchSearch": BatchSearch,
    "clusterPlan": ClusterPlan,
    "rankPeak": RankPeak,
    "gpuSearch": GpuSearch,
    "rank": RankResult,
    "memoryReading": MemoryReading,
    "move": MoveResult,
    "failure": Failure,
}
#: Fields a type keeps in its process, or writes elsewhere than under its own name, and why.
NOT_ITS_KEYS: dict[type, dict[str, str]] = {
    LatencyResult: {"timeline": "when the calls ran: for a trace, never written"},
    Attribution: {"modules": "written as the report's top-level 'modules'",
                  "module_order": "orders the window's tree; not written"},  # fmt: skip
    FitResult: {"batch_search": "written as 'max_batch'"},
    ClusterPlan: {"gpu_search": "written as 'min_gpus'"},
    RankResult: {"spans": "trace spans, sent to rank 0 for --trace; not in the report"},
    MoveResult: {"started_ns": "the move's start on this host's clock; not written",
                 "request": "the request as resolved, for the code view; not written"},  # fmt: skip
}
RENAMED: dict[type, dict[str, str]] = {FitResult: {"max_batch": "batch_search"}, ClusterPlan: {"min_gpus": "gpu_search"}}
#: Optional fields ``to_dict`` leaves out when unset (older readers never see the key), so null is never written.
LEFT_OUT_WHEN_NONE: dict[type, set[str]] = {LatencyResult: {"pair_id", "threads", "batch"}, FitResult: {"cluster"}}
#: None only in a measurement read from a file nobody checked, or from before the field (its
#: readers show "?"): ``measure_latency`` sets them all, and a checked file's entry holds a sample.
NONE_ONLY_WHEN_READ: dict[type, set[str]] = {
    LatencyResult: {"warmup_ms", "timer", "warmup_asked", "median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms",
                    "max_ms", "std_ms", "iqr_ms"},  # fmt: skip
}


def _def(name: str) -> dict[str, Any]:
    found: dict[str, Any] = SCHEMA["$defs"][name]
    return found


def json_types(node: Mapping[str, Any]) -> set[str]:
    """The JSON types a schema node accepts (``$ref``, ``anyOf``/``oneOf`` and ``type`` followed)."""
    if "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/$defs/"), ref
        return json_types(_def(ref.removeprefix("#/$defs/")))
    for key in ("anyOf", "oneOf"):
        if key in node:
            return set().union(*(json_types(part) for part in node[key]))
    if "const" in node or "enum" in node:
        values = [node["const"]] if "const" in node else node["enum"]
        return {_json_type_of(v) for v in values}
    declared = node.get("type")
    if declared is None:
        return {"any"}
    return {declared} if isinstance(declared, str) else set(declared)


def _json_type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string" if isinstance(value, str) else "object" if isinstance(value, dict) else "array"


def written_types(annotation: Any) -> set[str]:
    """The JSON types ``to_dict`` can write for a value of ``annotation`` ({"any"}: anything)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return set().union(*(written_types(a) for a in typing.get_args(annotation)))
    if annotation is type(None):
        return {"null"}
    if annotation is Any:
        return {"any"}
    plain = origin or annotation
    if plain is bool:
        return {"boolean"}
    if plain is int:
        return {"integer"}
    if plain is float:
        return {"number"}
    if isinstance(plain, type) and (issubclass(plain, (str, Text)) or issubclass(plain, enum.Enum)):
        return {"string"}
    if isinstance(plain, type) and issubclass(plain, (tuple, list)) or plain in (Sequence, typing.Sequence):
        return {"array"}
    if isinstance(plain, type) and (issubclass(plain, dict) or plain in (Mapping, typing.Mapping)):
        return {"object"}
    if dataclasses.is_dataclass(plain):
        return {"object"}
    raise AssertionError(f"no JSON type known for {annotation!r}")


def accepts(schema: set[str], written: set[str]) -> bool:
    """Every JSON type written is one the schema takes (a whole number is a number too)."""
    if "any" in schema:
        return True
    if "any" in written:
        return False
    widened = schema | ({"integer"} if "number" in schema else set())
    return written <= widened


def type_keys(cls: type) -> dict[str, Any]:
    """The keys ``cls`` writes, each with its annotation: its fields (less those it keeps to
    itself) and the properties the schema names (figures derived from the fields)."""
    hints = typing.get_type_hints(cls)
    skipped = NOT_ITS_KEYS.get(cls, {})
    keys = {f.name: hints[f.name] for f in dataclasses.fields(cls) if f.name not in skipped}
    for key in _def(_def_of(cls))["properties"]:
        attribute = getattr(cls, RENAMED.get(cls, {}).get(key, key), None)
        if isinstance(attribute, property):
            keys[key] = typing.get_type_hints(attribute.fget)["return"]
        elif key in RENAMED.get(cls, {}):
            keys[key] = hints[RENAMED[cls][key]]
    return _without_none(keys, LEFT_OUT_WHEN_NONE.get(cls, set()) | NONE_ONLY_WHEN_READ.get(cls, set()))


def _without_none(keys: dict[str, Any], names: set[str]) -> dict[str, Any]:
    """``keys`` with ``names``' annotations less None (null is never written for them)."""
    for key in names:
        keys[key] = typing.Union[tuple(a for a in typing.get_args(keys[key]) if a is not type(None))]
    return keys


def _def_of(cls: type) -> str:
    return next(name for name, written in WRITTEN_BY.items() if written is cls)


@pytest.mark.parametrize("name", sorted(WRITTEN_BY))
def test_every_key_of_the_type_is_in_the_schema_with_a_type_it_accepts_and_no_other(name):
    cls = WRITTEN_BY[name]
    properties = _def(name)["properties"]
    keys = type_keys(cls)
    assert sorted(set(keys) - set(properties)) == [], f"{cls.__name__} fields report.schema.json's {name} lacks"
    assert sorted(set(properties) - set(keys)) == [], f"{name} properties {cls.__name__} has no field for"
    wrong = {
        key: (sorted(written_types(annotation)), sorted(json_types(properties[key])))
        for key, annotation in keys.items()
        if not accepts(json_types(properties[key]), written_types(annotation))
    }
    assert wrong == {}, f"{cls.__name__} fields whose JSON type the schema's {name} does not take: (written, schema)"


def test_the_pairs_checked_are_the_schemas_sections_written_from_a_type():
    """Each ``$defs`` object is a type's here, or a value the report builds itself (named below),
    so a section added to the schema is paired with its type or said to have none."""
    built_in_place = {"memoryPoint", "modelMemoryPoint", "device"}  # report_point, model_report, discovery's dict
    objects = {name for name, node in SCHEMA["$defs"].items() if "properties" in node}
    assert objects == set(WRITTEN_BY) | built_in_place


def test_a_field_the_schema_lacks_or_mistypes_is_found():
    """The check above can fail: a type with a field the schema does not name, and one whose
    annotation the schema's type does not take."""

    @dataclasses.dataclass(frozen=True)
    class Grown(BatchSearch):
        tries: int = 0

    WRITTEN_BY["batchSearch"] = Grown
    try:
        with pytest.raises(AssertionError, match="lacks"):
            test_every_key_of_the_type_is_in_the_schema_with_a_type_it_accepts_and_no_other("batchSearch")
    finally:
        WRITTEN_BY["batchSearch"] = BatchSearch
    assert not accepts(json_types(_def("latencyEntry")["properties"]["samples_ms"]), written_types(str))
    assert not accepts(json_types(_def("latencyEntry")["properties"]["threads"]), written_types(float))
    assert accepts(json_types(_def("latencyEntry")["properties"]["warmup_ms"]), written_types(int))
