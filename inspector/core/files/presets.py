"""Ready-made models to try the app on, each with the input it needs (the Open model
dialog's presets). The factories return a bare module: the input comes from the spec, as
it would for a user's own model, so the input field shows how to give several."""

from __future__ import annotations

from dataclasses import dataclass

from torch import nn


@dataclass(frozen=True)
class Preset:
    label: str
    spec: str
    inputs: str  # core.files.inputs syntax; "" when the model brings its own example input
    description: str


def cnn() -> nn.Module:
    """A small image classifier with BatchNorm (buffers, and a train/eval difference)."""
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(64, 10),
    )  # fmt: skip


def mlp() -> nn.Module:
    """A multi-layer perceptron on flattened 28×28 images."""
    return nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))


class TokenModel(nn.Module):
    """A small language model: token ids (integers) in, next-token scores out."""

    def __init__(self, vocab: int = 1000, width: int = 128) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.lstm = nn.LSTM(width, width, batch_first=True)
        self.head = nn.Linear(width, vocab)

    def forward(self, ids):  # type: ignore[no-untyped-def]
        hidden, _ = self.lstm(self.embed(ids))
        return self.head(hidden)


PRESETS: tuple[Preset, ...] = (
    Preset("The tutorial's example (Linear 3→2→1)", "example", "", "brings its own (64, 3) input"),
    Preset("CNN with BatchNorm", "inspector.core.files.presets:cnn", "8,3,32,32", "8 RGB images of 32×32"),
    Preset("Transformer (torch.nn.Transformer, two inputs)", "torch.nn:Transformer", "10,32,512; 20,32,512",
           "src and tgt: (sequence, batch, d_model=512)"),
    Preset("MLP on 28×28 images", "inspector.core.files.presets:mlp", "64,784", "64 flattened images"),
    Preset("Token model (Embedding + LSTM, int64 ids)", "inspector.core.files.presets:TokenModel", "8,64:int64",
           "8 sequences of 64 token ids below the embedding's 1,000"),
)  # fmt: skip
