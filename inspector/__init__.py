"""torch-device-inspector: where does every tensor of a PyTorch model live, and what does a move cost."""

__version__ = "0.1.0"
