"""The ranks of a torchrun report side by side."""
