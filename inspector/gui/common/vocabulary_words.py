"""How the window says core's vocabulary: a benchmark's mode, a move's method, where a model
came from, the built-in model's spec. Core hands them as the values its reports and the CLI
use ("forward", "train-step", "to", "example", "factory"); the window shows words a person
reads in the window's language, and code as code.

- modes are words: "forward" is 前向传播 and "train-step" 训练步, as the mode menu says (in
  English they read as the CLI writes them, as they always did);
- a measurement's clock is words: "host clock" 主机时钟, "cuda events" CUDA 事件;
- methods are code: ``.to()``, ``.cuda()``, ``.cpu()``, the calls a script writes, in every language;
- a model's source is a word where it is one ("example" 示例, "factory" 工厂函数) and a name
  where it is one (TorchScript, ``torch.export``, pickle, ``state_dict``, safetensors);
- the spec "example" names the tutorial's model: 示例 in the window's texts; any other spec
  is data (a path, a module) and stays as it is.

Every word keeps the context "Vocabulary"; each function gives its argument back unchanged
when it is no word it knows.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from inspector.gui.common.marks import QT_TRANSLATE_NOOP


_MODES = {
    "forward": QT_TRANSLATE_NOOP("Vocabulary", "forward"),
    "train-step": QT_TRANSLATE_NOOP("Vocabulary", "train-step"),
}
_TIMERS = {
    "host clock": QT_TRANSLATE_NOOP("Vocabulary", "host clock"),
    "cuda events": QT_TRANSLATE_NOOP("Vocabulary", "cuda events"),
    "xpu events": QT_TRANSLATE_NOOP("Vocabulary", "xpu events"),
}
# The move methods, as the calls a script makes (code: the same in every language).
_METHODS = {"to": ".to()", "cuda": ".cuda()", "cpu": ".cpu()"}
_SOURCES = {
    "example": QT_TRANSLATE_NOOP("Vocabulary", "example"),
    "factory": QT_TRANSLATE_NOOP("Vocabulary", "factory"),
}
# Sources that are names (a format, a PyTorch API): as they are written everywhere.
_SOURCE_NAMES = {"torchscript": "TorchScript", "export": "torch.export", "pickle": "pickle",
                 "state_dict": "state_dict", "safetensors": "safetensors"}  # fmt: skip
# The spec of the tutorial's model (``core.files.models``). (Plain comments in this module:
# lupdate hands a "#:" comment to the translators as a note.)
EXAMPLE_SPEC = "example"


def mode_text(mode: str) -> str:
    """A benchmark mode (a ``BenchMode`` value) as a person reads it."""
    source = _MODES.get(str(mode))
    return QCoreApplication.translate("Vocabulary", source) if source else str(mode)


def timer_text(timer: str) -> str:
    """What timed a measurement's samples (``LatencyResult.timer``) as a person reads it."""
    source = _TIMERS.get(str(timer))
    return QCoreApplication.translate("Vocabulary", source) if source else str(timer)


def method_call(method: str) -> str:
    """A move method as the call a script writes: ``"cuda"`` -> ``".cuda()"``."""
    return _METHODS.get(str(method), str(method))


def source_text(source: str) -> str:
    """Where a model came from (``LoadedModel.source``) as a person reads it."""
    word = _SOURCES.get(str(source))
    if word:
        return QCoreApplication.translate("Vocabulary", word)
    return _SOURCE_NAMES.get(str(source), str(source))


def spec_text(spec: str) -> str:
    """A model's spec where the window names the model: the built-in example in words (示例),
    any other spec (a path, ``module:factory``) as it is, since it is data."""
    return QCoreApplication.translate("Vocabulary", "example") if spec == EXAMPLE_SPEC else spec
