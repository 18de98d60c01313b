"""Benchmarking the model: the launch from the action bar, and the latency plot (samples,
summary, readouts, and the words of a per-module run)."""
