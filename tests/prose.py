"""Is a text English prose? The reading every language test shares (the window's walk, the
reports' words), Qt-free: code, paths, numbers with units and the identifiers that stay as
they are in every language are taken out first; what is left and reads as words is English.
"""

from __future__ import annotations

import html
import re

#: Words that stay as they are in every language: PyTorch's and Python's identifiers, device
#: and dtype names, units, file formats and proper names. Reviewed: keep it small.
ALLOWED = frozenset(
    """
    PyTorch CUDA GPU GPUs CPU cpu cuda meta mps xpu MPS XPU ROCm NVIDIA NVML Qt PySide pyqtgraph psutil numpy
    torch nn Net Linear SGD Adam AdamW optimizer model net device tensor module forward inputs output loss
    float16 float32 float64 bfloat16 int64 dtype grad True False None
    ms MiB KiB GiB MB GB KB TB TiB GB/s FLOPs MFLOPs GFLOPs kFLOP Hz cuDNN
    JSON CSV HTML Markdown SVG PNG Perfetto pt pt2 pkl safetensors TorchScript
    Torch Device Inspector torchrun ssh HOST agent example Transformer src tgt weight bias
    Enter Esc Ctrl Shift Alt Tab Space BatchNorm Embedding pickle torch-device-inspector Python s
    English GitHub x y Apple cuBLAS
    rank ranks gloo logits
    """.split()
)


def english_words(text: str) -> list[str]:
    """The words of ``text`` that read as English prose: code, paths, numbers with units and
    the allowed identifiers taken out first."""
    text = re.sub(r"<code>.*?</code>", " ", text, flags=re.S)
    # a block set in a fixed-pitch font: the About box's version lines, as --version prints
    # them for a bug report (the same words in every language, so reports read alike)
    text = re.sub(r"<p style='font-family:monospace'>.*?</p>", " ", text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = text.replace("&", "")  # accelerators
    text = re.sub(r"“[\x00-\x7f]*”", " ", text)  # PyTorch's own words, quoted (lesson 5's title)
    text = re.sub(r"(?m)^\s*(ssh|kubectl|docker) .*$", " ", text)  # command lines to type
    text = re.sub(r"\by is x\b", " ", text)  # Python's identity test, as lesson 2 writes it
    # calls, with their arguments: torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    call = r"[\w.]+\((?:[^()]|\([^()]*\))*\)"
    text = re.sub(call, " ", text)
    # code and identifiers: anything with a dot, bracket, underscore, colon, slash or quote inside
    text = re.sub(r"\S*[._()\[\]:/\\'\"=<>`#@{}]\S*", " ", text)
    words = [w for w in re.findall(r"[A-Za-z0-9-]+", text) if not any(c.isdigit() for c in w)]
    return [w for w in words if w.strip("-") and w.strip("-") not in ALLOWED and not w.isupper()]
