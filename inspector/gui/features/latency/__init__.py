"""The latency plot: samples, summary, readouts, and the words of a per-module run."""
