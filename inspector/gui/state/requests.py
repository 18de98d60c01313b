"""The window's requests to its workers, one signal each: queued, because the workers live on
threads of their own (``shell.session_parts`` connects them to the workers' slots). The window
owns one ``Requests``; every feature is handed it (``feature.FeatureContext.requests``) and sends
through the one door to the worker (``dispatcher.Dispatcher``).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class Requests(QObject):
    """The requests to the ModelWorker and the MemorySampler (see the module docstring)."""

    load = Signal(object)  # LoadRequest
    move = Signal(object)  # MoveRequest
    benchmark = Signal(object)  # BenchmarkRequest
    report = Signal(object)  # outcomes.ReportRequest
    fit = Signal(object)  # tuple[FitRequest, ...]
    train_step = Signal(object)  # input shape, or None for the model's own input
    lesson = Signal(object)  # the lesson's number
    sample_rate = Signal(float)
    rediscover = Signal()
    stop_sampler = Signal()
