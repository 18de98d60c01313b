"""A per-module run's figures (``ModuleStats``, ``Attribution``) and why they may be rough
(``reliability``): what ``attribution.measure_attribution`` makes, the agent sends and the report
writes. Torch-free, so a report's modules are read and shown without importing torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.core.messages import Text
from inspector.core.units import format_ms

#: Per-module figures are flagged when the modules' self times add up to more than this
#: times the forward without hooks, or less than the second figure...
SUM_LIMIT = 1.1
SUM_SHORT = 0.8
#: ...when the hooks make the forward this many times as long as without them...
HOOKS_LIMIT = 1.5
#: ...or when the run's forwards have a p95 this many times their median (``spread.NOISY_TAIL``).
DISTURBED_LIMIT = 2.0


@dataclass(frozen=True)
class ModuleStats:
    """One module of the model, over the attribution's samples (times in milliseconds).

    ``name`` is the qualified name (``""`` for the model itself); ``median_ms`` inclusive of
    its children, ``self_ms`` without them; ``flops`` inclusive, from FlopCounterMode;
    ``activation_bytes``: bytes of new output tensors per forward; ``parameters_bytes``:
    its parameters and its children's, each tensor once.
    """

    name: str
    type: str
    device: str
    depth: int
    is_leaf: bool
    calls: int  # calls per forward (a module reused in a loop is called more than once)
    output_shapes: tuple[tuple[int, ...], ...]
    median_ms: float
    self_ms: float
    #: median_ms over the model's own (the root row's median_ms in the same run), 0..1: the model's
    #: row is 1 and a child's never more than its parent's. (Over the plain forward the model's row
    #: read 125.7 % where the hooks' cost was not all taken out; issue 45 item 3.)
    share: float
    flops: int
    flops_per_s: float | None
    activation_bytes: int
    parameters_bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "device": self.device,
            "output_shapes": [list(s) for s in self.output_shapes],
            "median_ms": self.median_ms,
            "self_ms": self.self_ms,
            "share": self.share,
            "flops": self.flops,
            "flops_per_s": self.flops_per_s,
            "activation_bytes": self.activation_bytes,
            "parameters_bytes": self.parameters_bytes,
            "depth": self.depth,
            "is_leaf": self.is_leaf,
            "calls": self.calls,
        }


@dataclass(frozen=True)
class Attribution:
    """Every module that ran, in call order, and what the hooks cost."""

    device: str
    dtype: str
    input_shapes: tuple[tuple[int, ...], ...]
    samples: int
    modules: tuple[ModuleStats, ...]
    total_flops: int  # FlopCounterMode's total for one forward
    forward_with_hooks_ms: float  # median of whole forwards with the hooks on
    forward_without_hooks_ms: float  # median of plain forwards, alternated with the hooked ones
    notes: tuple[str, ...] = field(default=())
    #: Every module's name in the model's own order (``named_modules``), called or not.
    module_order: tuple[str, ...] = field(default=())

    @property
    def overhead_ratio(self) -> float | None:
        """With hooks over without (1.0: the attribution cost nothing)."""
        if self.forward_without_hooks_ms <= 0:
            return None
        return self.forward_with_hooks_ms / self.forward_without_hooks_ms

    #: Median over the samples of each sample's summed leaf self times: the forward's time
    #: spent inside leaf modules (a median of sums, comparable with the forward's median).
    leaf_self_ms: float = 0.0
    #: The hooks' own cost per module call, measured on empty modules and taken out of every
    #: time above: the part inside the module's own interval, and the part in its parent's.
    hook_inner_ms: float = 0.0
    hook_outer_ms: float = 0.0
    #: Module calls per forward (a module called twice counts twice).
    module_calls: int = 0
    #: The modules' self times (medians) summed, after and before the hooks' cost is taken out.
    self_sum_ms: float = 0.0
    raw_self_sum_ms: float = 0.0
    #: p95 over median of the run's forwards, with hooks and without (how disturbed it was).
    hooked_tail: float = 1.0
    plain_tail: float = 1.0

    @property
    def sum_ratio(self) -> float | None:
        """The modules' self times summed over the forward without hooks (1.0: they add up)."""
        if self.forward_without_hooks_ms <= 0:
            return None
        return self.self_sum_ms / self.forward_without_hooks_ms

    @property
    def hook_cost_per_call_ms(self) -> float | None:
        """What the hooks added per module call in this run: (with - without) / calls."""
        if self.module_calls <= 0:
            return None
        return max(0.0, self.forward_with_hooks_ms - self.forward_without_hooks_ms) / self.module_calls

    @property
    def warnings(self) -> tuple[Text, ...]:
        """Why the per-module figures are not to be trusted, in words; () when they are."""
        return reliability(self)

    def top(self, n: int = 5, *, leaves_only: bool = False) -> list[ModuleStats]:
        """The ``n`` modules with the most self time. Self times never overlap, so parents
        and children rank fairly: a MultiheadAttention whose own code does the work (its
        out_proj child never runs as a module) ranks by that work, a container by its glue."""
        pool = [m for m in self.modules if m.is_leaf or not leaves_only]
        return sorted(pool, key=lambda m: m.self_ms, reverse=True)[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "dtype": self.dtype,
            "input_shapes": [list(s) for s in self.input_shapes],
            "samples": self.samples,
            "total_flops": self.total_flops,
            "forward_with_hooks_ms": self.forward_with_hooks_ms,
            "forward_without_hooks_ms": self.forward_without_hooks_ms,
            "overhead_ratio": self.overhead_ratio,
            "leaf_self_ms": self.leaf_self_ms,
            "hook_inner_ms": self.hook_inner_ms,
            "hook_outer_ms": self.hook_outer_ms,
            "module_calls": self.module_calls,
            "self_sum_ms": self.self_sum_ms,
            "raw_self_sum_ms": self.raw_self_sum_ms,
            "sum_ratio": self.sum_ratio,
            "hooked_tail": self.hooked_tail,
            "plain_tail": self.plain_tail,
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }


def reliability(run: Attribution) -> tuple[Text, ...]:
    """The reasons, in words, why ``run``'s per-module figures are rough; () when none holds.

    Worked out from the run's figures (not stored), so a remote run's are said in the
    window's language too."""
    reasons: list[Text] = []
    tail = max(run.hooked_tail, run.plain_tail)
    if tail >= DISTURBED_LIMIT:
        reasons.append(Text("modules.disturbed", factor=f"{tail:.1f}×"))
    ratio, per_call = run.overhead_ratio, run.hook_cost_per_call_ms
    if ratio is not None and per_call is not None and ratio > HOOKS_LIMIT:
        own = run.forward_without_hooks_ms / run.module_calls
        key = "modules.hooks_dominate" if per_call > own else "modules.hooks_large"
        reasons.append(Text(key, per_call=format_ms(per_call), ratio=f"{ratio:.2f}×",
                            calibrated=format_ms(run.hook_inner_ms + run.hook_outer_ms)))  # fmt: skip
    share = run.sum_ratio
    if share is not None and share > SUM_LIMIT:
        reasons.append(Text("modules.sum_exceeds", factor=f"{share:.2f}×"))
    elif share is not None and share < SUM_SHORT:
        reasons.append(Text("modules.sum_short", factor=f"{share:.2f}×"))
    return tuple(reasons)
