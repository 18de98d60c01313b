"""``.safetensors`` weights, read in two steps: the header first (names and shapes, a few
kilobytes), the tensors only once they are known to fit.

A file whose names or shapes cannot match the architecture is refused from its header alone,
however large its data (``state_dicts.load_weights`` checks the shapes, then calls ``read``),
and a file opened without an architecture says how many tensors it holds without reading any.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch

from inspector.core.errors import InspectorError
from inspector.core.files.load_errors import ModelLoadError, describe
from inspector.core.messages import Text
from inspector.core.vocabulary import FailureKind


class SafetensorsFile(Mapping[str, torch.Size]):
    """The tensors a ``.safetensors`` file declares: name -> shape, from its header alone.

    ``read()`` loads the tensors themselves (on the CPU).
    """

    def __init__(self, path: Path, shapes: Mapping[str, torch.Size]) -> None:
        self.path = path
        self._shapes = dict(shapes)

    def __getitem__(self, name: str) -> torch.Size:
        return self._shapes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._shapes)

    def __len__(self) -> int:
        return len(self._shapes)

    def read(self) -> dict[str, torch.Tensor]:
        """Every tensor of the file, on the CPU."""
        with _opened(self.path) as handle:
            return {name: handle.get_tensor(name) for name in self._shapes}


def open_safetensors(path: Path) -> SafetensorsFile:
    """The file's header, checked by the safetensors library itself (offsets within the file,
    no overlaps), as the loader will read it; no tensor data is read."""
    with _opened(path) as handle:
        return SafetensorsFile(path, {name: torch.Size(handle.get_slice(name).get_shape()) for name in handle.keys()})


@contextmanager
def _opened(path: Path) -> Iterator[Any]:
    """``safe_open`` on the CPU, with what the library refuses (a lying header, a file cut
    short) told in one line, whether it is found at opening or at a tensor's read."""
    try:
        from safetensors import SafetensorError, safe_open
    except ImportError:  # a broken install: the package is a dependency
        raise InspectorError(Text("load.needs_safetensors"), kind=FailureKind.LOAD) from None
    try:
        with safe_open(str(path), framework="pt", device="cpu") as handle:
            yield handle
    except (SafetensorError, OSError) as exc:
        raise ModelLoadError(Text("load.incomplete_safetensors", path=path, error=describe(exc))) from exc
