"""A build from a config alone that says how long it will take, and can be stopped.

A config within every bound (``config_values``) can still declare a model whose meta build
takes a while: 1,024 layers of a 405B-sized Llama take ~10 s here, many small experts in
module lists longer. Before such a build the time is estimated by building the same config
with one and with two layers (each a fraction of the whole: the build is linear in layers),
and said when it is over ``LONG_BUILD_S``. During the build a global parameter-registration
hook of torch's counts the tensors made and asks ``should_cancel`` every ``CHECK_EVERY`` of
them, so the window's Cancel (and the CLI's Ctrl+C, which Python delivers between any two of
those calls) stops it: ``Cancelled``, and nothing was built.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn

from inspector.core.errors import Cancelled
from inspector.core.messages import Text

#: A build estimated longer than this is said before it starts (seconds).
LONG_BUILD_S = 2.0
#: Configs with fewer layers are built without an estimate (their build is short, and the two
#: trial builds would be a large share of it).
ESTIMATE_FROM_LAYERS = 16
#: Parameters registered between two looks at ``should_cancel``.
CHECK_EVERY = 32


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


def estimate_seconds(build: Callable[[Any], nn.Module], config: Any) -> float | None:
    """How long ``build(config)`` on the meta device will take, from builds of one and two
    layers; None for a config with few layers, or where a cut config does not build."""
    layers = _layers(config)
    if layers is None or layers < ESTIMATE_FROM_LAYERS:
        return None
    took: list[float] = []
    for count in (1, 2):
        try:
            small = _with_layers(config, count)
            started = time.perf_counter()
            with torch.device("meta"):
                build(small)
            took.append(time.perf_counter() - started)
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
def stoppable(should_cancel: Callable[[], bool] | None) -> Iterator[None]:
    """While inside, every parameter any module registers counts; every ``CHECK_EVERY`` of
    them ``should_cancel`` is asked, and ``Cancelled`` raised when it says so."""
    if should_cancel is None:
        yield
        return
    made = [0]

    def look(_module: nn.Module, _name: str, _param: Any) -> None:
        made[0] += 1
        if made[0] % CHECK_EVERY == 0 and should_cancel():
            raise Cancelled(Text("load.hf_build_cancelled", tensors=f"{made[0]:,}"))

    handle = nn.modules.module.register_module_parameter_registration_hook(look)
    try:
        yield
    finally:
        handle.remove()
