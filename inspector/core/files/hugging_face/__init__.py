"""Hugging Face model folders: a folder with ``config.json`` (and, optionally, its weights as
``model.safetensors`` or shards named by ``model.safetensors.index.json``), or ``hf:ORG/NAME``
found in the local Hugging Face cache. Nothing is ever downloaded.

The gate (docs/architecture.md, "Gates"): one loader, and this package is it. It alone imports ``transformers`` and
``huggingface_hub`` (a test fails if any other module of the app does), and every load:

- runs with the Hub offline, set before either library is imported (``libraries``);
- reads only files it stat-checked first: regular, inside the folder, bounded; transformers
  is given a private folder of those files alone (``folder_files``, ``json_file``);
- builds only what the config may declare: sizes bounded by published models, types checked
  (``config_values``); a class from ``architectures`` only if it is a ``PreTrainedModel``, an
  attention, experts or quantization method only if transformers ships it (``code_names``);
  the folder's own code only with ``--trust``;
- says what the libraries printed again, escaped like the app's own lines (``library_output``).

``cache``: ``hf:`` names, resolved with huggingface_hub's cache functions and checked to stay
inside the cache. ``transformers`` is an optional dependency (the ``hf`` extra), imported only
when such a folder is opened (about 2 s, once); building on meta allocates nothing (under a
second for an 8B config); loading weights reads them whole.
"""

from __future__ import annotations

from inspector.core.files.hugging_face.cache import PREFIX, cache_root, cached_folder
from inspector.core.files.hugging_face.folder_files import CONFIG, SAFETENSORS, SAFETENSORS_INDEX
from inspector.core.files.hugging_face.loader import (
    EXAMPLE_TOKENS,
    HuggingFaceModel,
    is_model_folder,
    load_cached,
    load_folder,
)

__all__ = [
    "CONFIG",
    "EXAMPLE_TOKENS",
    "PREFIX",
    "SAFETENSORS",
    "SAFETENSORS_INDEX",
    "HuggingFaceModel",
    "cache_root",
    "cached_folder",
    "is_model_folder",
    "load_cached",
    "load_folder",
]
