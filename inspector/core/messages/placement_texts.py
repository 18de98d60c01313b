"""Core's texts about placement: where a model's tensors are, their sizes, the findings."""

from __future__ import annotations

_REFRESH_STATE = (
    "Load the optimizer's state_dict again (it follows each parameter's device and dtype), "
    "or create the optimizer after moving the model."
)

#: What the next step does with state of another dtype, as torch 2.13 does it on the CPU:
#: Adam and AdamW stop ("expected dtype float for `end` but got dtype double"); SGD, RMSprop
#: and Adagrad run, their state keeping its dtype (tests/core/test_messages.py runs both).
_NEXT_STEP_DTYPE = (
    "depending on the optimizer, the next optimizer.step() stops with a dtype error (Adam, AdamW) "
    "or runs with this state still in {state} (SGD), without a word. "
)

#: Where a model's tensors are (``placement.tensor_rows``, ``placement.texts``).
PLACEMENT: dict[str, str] = {
    # ----- where a model's tensors are (placement.tensor_rows: the tree, its totals, its findings)
    "placement.would_be": "{size} (would be {dense})",
    "placement.quantized": "{size} (quantized)",
    "placement.sparse": "{size} ({layout}; dense {dense})",
    "placement.meta_note": " (+ {size} on meta, not allocated)",
    "placement.device_tensor": "{device} (1 tensor)",
    "placement.device_tensors": "{device} ({count} tensors)",
    "placement.split_model": (
        "The model is split across devices: {where}. A forward pass fails with "
        "'Expected all tensors to be on the same device' until it is moved as a whole."
    ),
    "placement.optimizer_state_device": (
        "The optimizer's state stayed on {state} while the model is on {model}: "
        "{count} optimizer-state tensors ({names}). Module.to() does not move optimizer state; "
        "the next optimizer.step() fails or mixes devices. " + _REFRESH_STATE
    ),
    "placement.optimizer_state_device_one": (
        "The optimizer's state stayed on {state} while the model is on {model}: "
        "1 optimizer-state tensor ({names}). Module.to() does not move optimizer state; "
        "the next optimizer.step() fails or mixes devices. " + _REFRESH_STATE
    ),
    "placement.optimizer_state_dtype": (
        "The optimizer's state stayed in {state} while the model is in {model}: "
        "{count} optimizer-state tensors ({names}). Module.to() does not move optimizer state; "
        + _NEXT_STEP_DTYPE + _REFRESH_STATE
    ),
    "placement.optimizer_state_dtype_one": (
        "The optimizer's state stayed in {state} while the model is in {model}: "
        "1 optimizer-state tensor ({names}). Module.to() does not move optimizer state; "
        + _NEXT_STEP_DTYPE + _REFRESH_STATE
    ),
    "placement.buffer_elsewhere": "{count} buffers ({names}) are not on {device} with the parameters.",
    "placement.buffer_elsewhere_one": "1 buffer ({names}) is not on {device} with the parameters.",
}
