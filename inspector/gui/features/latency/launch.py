"""The benchmark, launched from the action bar (its Benchmark button, and Return in its input
field): the request read from the bar once, refused with its reason in the banner when the
model cannot run as asked (``state.readiness``), and announced on the state
(``state.runs.BenchmarkRun``) so the plot is ready before the request leaves and its series
begins once it has left (``follows.LatencyFollows``).

The bar is the moves feature's widget: what is read of it is named by ``BenchmarkFields``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QSettings, SignalInstance

from inspector.core.errors import Failure
from inspector.core.session import BenchmarkRequest
from inspector.core.vocabulary import BenchMode, FailureKind
from inspector.gui.common import window_settings
from inspector.gui.common.i18n import fill, translate
from inspector.gui.state.readiness import benchmark_blocker, input_shape, model_device_and_dtype
from inspector.gui.state.runs import BenchmarkRun
from inspector.gui.state.tasks import Task

if TYPE_CHECKING:
    from PySide6.QtWidgets import QCheckBox, QLineEdit, QPushButton, QSpinBox

    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.state.dispatcher import Dispatcher
    from inspector.gui.state.session_state import SessionState


class BenchmarkFields(Protocol):
    """What the launch reads of the action bar (the moves feature's ``ActionBar``)."""

    benchmarkButton: QPushButton  # noqa: N815 (the bar's object names)
    inputShapeEdit: QLineEdit  # noqa: N815
    runsSpin: QSpinBox  # noqa: N815
    repeatSpin: QSpinBox  # noqa: N815
    perModuleCheck: QCheckBox  # noqa: N815

    def mode(self) -> str: ...

    def input_shape_text(self) -> str: ...

    def fresh_processes(self) -> bool: ...


class BenchmarkLaunch(QObject):
    """Sends the benchmark the action bar asks for (see the module docstring)."""

    def __init__(
        self, parent: QObject, *, dispatcher: Dispatcher, request: SignalInstance, bar: BenchmarkFields,
        banner: ErrorBanner, settings: QSettings, state: SessionState,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.dispatcher, self._request, self.bar = dispatcher, request, bar
        self.banner, self.settings, self.state = banner, settings, state
        bar.benchmarkButton.clicked.connect(self.run_benchmark)
        bar.inputShapeEdit.returnPressed.connect(self.run_benchmark)

    def run_benchmark(self) -> bool:
        a = self.bar
        blocker = benchmark_blocker(self.state.model, a)
        if blocker is not None:
            self.banner.show_failure(Failure(FailureKind.INPUT, blocker), "benchmark", source=Task.BENCHMARK)
            return False
        request = BenchmarkRequest(
            mode=a.mode(), runs=a.runsSpin.value(), input_shape=input_shape(a), per_module=a.perModuleCheck.isChecked(),
            repeat=a.repeatSpin.value(), fresh_processes=a.fresh_processes(),
        )
        if self.state.model is not None:
            window_settings.remember_inputs(self.settings, self.state.model.info.spec, a.input_shape_text())
        device, dtype = model_device_and_dtype(self.state.model)
        runs = f"{request.runs:,}"
        # (the translation context of the words' first home, so their translations are kept)
        if request.mode == BenchMode.TRAIN_STEP:
            label = fill(translate("ModelCommands", "benchmark ×%1 train step · %2 %3"), runs, device, dtype)
        else:
            label = fill(translate("ModelCommands", "benchmark ×%1 · %2 %3"), runs, device, dtype)
        # Said while the cores are still free: who shows the run gets ready for it (``state.runs``),
        # and the page it opens is drawn before the request leaves.
        run = BenchmarkRun(device, dtype, request.mode, expected=(request.runs or 0) * request.repeat)
        self.state.benchmarkPlanned.emit(run)
        opening = run.opens if run.opens is not None else True
        if not self.dispatcher.send(Task.BENCHMARK, self._request, request, mark=label, drawn_first=opening):
            self.state.benchmarkRefused.emit(run)
            return False
        self.state.benchmarkSent.emit(run)
        return True
