"""A build from a config alone that says how long it will take, and can be stopped.

A config within every bound (``config_values``) can still declare a model whose meta build
takes a while: 1,024 layers of a 405B-sized Llama take ~10 s here, many small experts in
module lists longer. Before such a build the time is estimated by building the same config
with one and with two layers (each a fraction of the whole: the build is linear in layers),
and said when it is over ``LONG_BUILD_S``. During the build a global parameter-registration
hook of torch's counts the tensors made and asks ``should_cancel`` every ``CHECK_EVERY`` of
them, so the window's Cancel (and the CLI's Ctrl+C, which Python delivers between any two of
those calls) stops it: ``Cancelled``, and nothing was built.

Every build from a config (the trial builds too) is bounded by what it registers: a size
field no check knows by name (Swin's ``depths`` list, a ``*_blocks`` or ``*_depth``) can ask
for millions of layers while ``num_hidden_layers`` says 1, so no estimate is said and the
build would run until memory ran out. Past ``BUILD_LIMIT`` modules, or parameter tensors,
registered, the build is refused: ``ModelLoadError`` in one line.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch
from torch import nn

from inspector.core.errors import Cancelled
from inspector.core.files.load_errors import ModelLoadError
from inspector.core.messages import Text

#: A build estimated longer than this is said before it starts (seconds).
LONG_BUILD_S = 2.0
#: Configs with fewer layers are built without an estimate (their build is short, and the two
#: trial builds would be a large share of it).
ESTIMATE_FROM_LAYERS = 16
#: Parameters registered between two looks at ``should_cancel``.
CHECK_EVERY = 32
#: Modules, or parameter tensors, one build may register. The published model with the most
#: modules, Switch Transformers c-2048 (30 sparse layers of 2,048 experts, five modules each),
#: registers about 308,000 modules and 123,000 parameters; the largest config within
#: ``config_values``' bounds (131,072 expert blocks) about 660,000 modules. Far above both,
#: yet a runaway build is refused holding about 3 GB (~3 KB a module on meta: a Swin layer).
BUILD_LIMIT = 1_000_000
BUILD_LIMIT_PUBLISHED = "about 308,000 modules (Switch Transformers c-2048)"


def _layers(config: Any) -> int | None:
    layers = getattr(config, "num_hidden_layers", None)
    return layers if isinstance(layers, int) and not isinstance(layers, bool) and layers > 0 else None


def _with_layers(config: Any, layers: int) -> Any:
    """A copy of ``config`` declaring ``layers`` layers (a per-layer list cut to match)."""
    small = copy.deepcopy(config)
    small.num_hidden_layers = layers
    for name in ("layer_types", "mlp_only_layers", "block_types"):
        value = getattr(small, name, None)
        if isinstance(value, list) and len(value) > layers:
            setattr(small, name, value[:layers])
    return small


def estimate_seconds(build: Callable[[Any], nn.Module], config: Any, folder: Path) -> float | None:
    """How long ``build(config)`` on the meta device will take, from builds of one and two
    layers (each bounded as the whole is); None for a config with few layers, or where a cut
    config does not build."""
    layers = _layers(config)
    if layers is None or layers < ESTIMATE_FROM_LAYERS:
        return None
    took: list[float] = []
    for count in (1, 2):
        try:
            small = _with_layers(config, count)
            started = time.perf_counter()
            with torch.device("meta"), stoppable(None, folder):
                build(small)
            took.append(time.perf_counter() - started)
        except ModelLoadError:
            raise  # one layer past the bound: the whole is refused too
        except Exception:  # noqa: BLE001 -- a model that cannot have fewer layers: no estimate, the build goes on
            return None
    per_layer = max(took[1] - took[0], 0.0)
    return took[0] + per_layer * (layers - 1)


def announce(config: Any, seconds: float | None, say: Callable[[str], None] | None) -> Text | None:
    """The sentence said before a long build (also kept as a note of the load); None for a short one."""
    if seconds is None or seconds < LONG_BUILD_S:
        return None
    text = Text("load.hf_long_build", layers=f"{_layers(config):,}", seconds=f"{seconds:.0f}")
    if say is not None:
        say(text)
    return text


@contextmanager
def stoppable(should_cancel: Callable[[], bool] | None, folder: Path) -> Iterator[None]:
    """While inside, every module and parameter any module registers counts: past
    ``BUILD_LIMIT`` of either, ``ModelLoadError``. Every ``CHECK_EVERY`` parameters
    ``should_cancel`` (if given) is asked, and ``Cancelled`` raised when it says so."""
    made = {"modules": 0, "tensors": 0}

    def count(kind: str) -> int:
        made[kind] += 1
        if made[kind] > BUILD_LIMIT:
            raise ModelLoadError(Text("load.hf_too_many_modules", path=folder, limit=f"{BUILD_LIMIT:,}",
                                      published=BUILD_LIMIT_PUBLISHED))  # fmt: skip
        return made[kind]

    def module_made(_module: nn.Module, _name: str, _child: Any) -> None:
        count("modules")

    def tensor_made(_module: nn.Module, _name: str, _param: Any) -> None:
        tensors = count("tensors")
        if should_cancel is not None and tensors % CHECK_EVERY == 0 and should_cancel():
            raise Cancelled(Text("load.hf_build_cancelled", tensors=f"{tensors:,}"))

    handles = (nn.modules.module.register_module_module_registration_hook(module_made),
               nn.modules.module.register_module_parameter_registration_hook(tensor_made))  # fmt: skip
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()
