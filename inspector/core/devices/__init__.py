"""Devices and the machine: which devices exist, how full they are, and what else runs there.

Owns: ``discovery`` (which devices exist and their names, memory readings, synchronise and
empty-cache per backend: cheap, called often), ``inventory`` (every device's snapshot in one go),
``nvml`` (the optional NVIDIA management library), ``other_processes`` (what other processes
hold on a GPU), ``device_events`` (per-sample CUDA/XPU events), ``environment`` (the report's
environment section), ``huge_pages`` (the CPU allocator's huge-page setting), ``prometheus``
(the ``devices --prometheus`` exposition).

May import: ``inspector.core.errors``, ``vocabulary``, ``units``, ``gc_pause``, torch and psutil.
Never a model: nothing here knows what is loaded.
"""
