"""The one place the app imports ``transformers`` and ``huggingface_hub``: with the Hub offline.

A config can make transformers reach the network (``attn_implementation`` naming a kernel
repository, a telemetry ping, a missing file looked up on the Hub) and import what it finds.
So before either library is first imported the environment says offline, and it stays so for
the rest of the process (the app never downloads anything; a benchmark's workers inherit it):

- ``HF_HUB_OFFLINE`` / ``TRANSFORMERS_OFFLINE``: every Hub request fails at once;
  ``huggingface_hub`` reads them when it is imported, so where it was imported already (by a
  test, by another library) its constant is set too (transformers asks it on each call);
- ``HF_HUB_DISABLE_TELEMETRY``: nothing is reported either;
- ``USE_HUB_KERNELS=NO``: transformers' own switch that keeps it from swapping a model's
  layers for kernels from the Hub's cache (it does so by default when ``kernels`` is
  installed); a kernel the config names itself is refused unless trusted (``code_names``);
- ``HF_HUB_DISABLE_PROGRESS_BARS``: the libraries' progress bars (carriage returns on
  stderr) are not drawn; the front ends show their own progress.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from inspector.core.files.load_errors import ModelLoadError
from inspector.core.messages import Text

#: What the environment says while the app may use the libraries (forced, not defaulted:
#: a variable the environment brings cannot turn the Hub back on).
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "USE_HUB_KERNELS": "NO",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
}


def go_offline() -> None:
    """Set ``OFFLINE`` in the environment, and in ``huggingface_hub`` where it is imported."""
    os.environ.update(OFFLINE)
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:  # imported before us: its constants were read then
        constants.HF_HUB_OFFLINE = True  # type: ignore[attr-defined]
        constants.HF_HUB_DISABLE_TELEMETRY = True  # type: ignore[attr-defined]
        constants.HF_HUB_DISABLE_PROGRESS_BARS = True  # type: ignore[attr-defined]
    logging_module = sys.modules.get("transformers.utils.logging")
    if logging_module is not None:  # read the progress-bar switch when it was imported
        logging_module.disable_progress_bar()


def transformers_module(folder: Path) -> Any:
    """``transformers``, imported offline; ``ModelLoadError`` naming the extra where absent."""
    go_offline()
    try:
        import transformers
    except ImportError:
        raise ModelLoadError(Text("load.hf_needs_transformers", path=folder)) from None
    go_offline()  # its import may have imported huggingface_hub's logging before ours ran
    return transformers


def hub_module(name: str) -> Any:
    """``huggingface_hub`` (transformers brings it), imported offline."""
    go_offline()
    try:
        import huggingface_hub
        import huggingface_hub.file_download  # repo_folder_name: how it names a repository's folder
    except ImportError:
        raise ModelLoadError(Text("load.hf_needs_transformers", path=f"hf:{name}")) from None
    return huggingface_hub
