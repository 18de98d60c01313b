"""Models deeper than the example, as factory files the window can open (issue 12's tests)."""

from __future__ import annotations

from pathlib import Path

#: ``torch.nn.Transformer``'s own tree (6 encoder + 6 decoder layers, 184 tensors, the same
#: names), made narrow so a test moves and trains it in milliseconds; with its two inputs.
TRANSFORMER = (
    "import torch\n\n"
    "def make():\n"
    "    torch.manual_seed(0)\n"
    "    model = torch.nn.Transformer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0)\n"
    "    return model, (torch.randn(5, 2, 16), torch.randn(4, 2, 16))\n"
)

#: A two-layer LSTM with a linear head, and its (seq, batch, features) input.
LSTM = (
    "import torch\n\n"
    "class Tagger(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.lstm = torch.nn.LSTM(8, 16, num_layers=2)\n"
    "        self.head = torch.nn.Linear(16, 4)\n\n"
    "    def forward(self, x):\n"
    "        out, _ = self.lstm(x)\n"
    "        return self.head(out)\n\n"
    "def make():\n"
    "    torch.manual_seed(0)\n"
    "    return Tagger(), torch.randn(7, 3, 8)\n"
)


def factory_spec(tmp_path: Path, source: str, name: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return f"{path}:make"
