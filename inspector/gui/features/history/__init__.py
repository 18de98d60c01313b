"""The history: every load, move, measurement and export, with its outcome."""
