"""The window, wiring only: it builds the frame (the panels, the menus as data: ``menus``),
then (once torch is imported: ``deferred_start`` holds the frame until then) the session: every
feature of the table (``features.FEATURES``) installs itself from one context
(``state.feature.FeatureContext``: the session state, the task machine, the one door to the
worker, the settings, the tab pages by typed key, the actions, the frame's shared widgets), and
the two background workers, which its *kind* makes (``window_kind``), are connected to the
state (``session_parts``). The app's main window is of the local kind (``local_kind.LocalKind``: the
session in this process); a window of ``remote_window``'s ``RemoteKind`` runs it in an agent on
another machine. The app (``shell.app``) hands the kind over; the kinds never import this module.

The window never touches the model: it sends requests to the ModelWorker through queued
signals and shows the frozen results that come back. It names no feature's session part: the
parts the tests and the kinds use (``window.reports``, ``window.run_benchmark``) are what the
features published (``FeatureContext.publish``, read by ``__getattr__``); the menus' actions are
enabled as each declares (``common.actions``); ``window_settings`` is what is remembered
between runs.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QPaintEvent, QShowEvent
from PySide6.QtWidgets import QMainWindow, QWidget

from inspector.gui.common import i18n, screen_fit, window_settings
from inspector.gui.shell import close_guard, torch_loader
from inspector.gui.shell.deferred_start import DeferredStart
from inspector.gui.features.help.pages import HelpPages, note_missing_cjk_font_once
from inspector.gui.features.help import actions as help_actions
from inspector.gui.features.devices import actions as devices_actions
from inspector.gui.features.model import actions as model_actions
from inspector.gui.features.remote import actions as remote_actions
from inspector.gui.common.i18n import fill, is_language_change, translate
from inspector.gui.common.pages import LATENCY
from inspector.gui.shell.layout import build_frame
from inspector.gui.shell.language_menu import LanguageMenu
from inspector.gui.shell.menus import DISMISS_ERROR, MENUS, PREFERENCES, QUIT, build_menus, place, retranslate_menus
from inspector.gui.features.moves.action_bar import ActionBar
from inspector.gui.common.actions import ActionRegistry, Situation
from inspector.gui.common.code_panel import CodePanel
from inspector.gui.features.devices.panel import DevicesPanel
from inspector.gui.common.error_banner import ErrorBanner
from inspector.gui.features.history.panel import HistoryView
from inspector.gui.features.model.panel import ParametersPanel
from inspector.gui.common.plain_text import shown
from inspector.gui.state.feature import Live
from inspector.gui.state.outcomes import LoadOutcome
from inspector.gui.state.requests import Requests
from inspector.gui.state.session_state import SessionState
from inspector.gui.common.status_line import StatusLine
from inspector.gui.shell.stuck_notice import StuckNotice, quit_leaving_work
from inspector.gui.shell.local_kind import LocalKind
from inspector.gui.shell.window_kind import WindowKind
from inspector.gui.shell.window_stop import stop_session
from inspector.gui.state.tasks import TaskController
from inspector.gui.common.vocabulary_words import spec_text
from inspector.gui.state.threads import start_in_thread

if TYPE_CHECKING:
    from inspector.core.session import ModelState
    from inspector.gui.common import dialogs
    from inspector.gui.state.sample_gate import SampleGate
    from inspector.gui.state.outcomes import TaskEnded

class InspectorWindow(QMainWindow):
    #: File › Connect to server…: the app answers it (``app.create_window`` wires it: the app
    #: makes a window of the remote kind, ``remote_window.RemoteKind``).
    connectServerRequested = Signal()

    def __init__(
        self,
        model_spec: str = "example",
        trust: bool = False,
        settings: QSettings | None = None,
        *,
        kind: WindowKind | None = None,
    ) -> None:
        """The window's frame now; its session (the parts, the workers, the model's load) as soon
        as torch is imported: at once when it already is, else when ``torch_loader`` has
        imported it off the GUI thread, so the frame paints first (issue 25).

        ``kind``: what makes it local or remote (``window_kind``); None: local (``LocalKind``)."""
        super().__init__()
        #: Local or remote: the workers, the dialogs and the texts that differ (``window_kind``).
        self.kind: WindowKind = kind if kind is not None else LocalKind()
        self.setObjectName(self.kind.object_name)
        if self.kind.deletes_on_close:
            self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.settings = settings if settings is not None else QSettings()
        self.cancel_event = threading.Event()
        self.tasks = TaskController(self.cancel_event, self)
        #: The evented session state: the workers' answers, which every feature subscribes to.
        self.session_state = SessionState(self.tasks, self)
        #: The requests to the workers (``state.requests``), which every feature is handed.
        self.requests = Requests(self)
        self._title_info: Any = None  # the loaded model's ModelInfo, which the title names
        self.threads_stopped: bool | None = None
        #: Parks this window's threads around timed samples (a local session's: ``LocalKind``).
        self.sample_gate: SampleGate | None = None
        self._placed = False  # brought onto the screen after its first show (showEvent)
        #: The parts and workers exist (``_start_session`` ran).
        self.session_started = False
        self._first_load = (model_spec, trust)
        self._lessons = False  # the session runs the tutorial's lessons (known once it exists)
        #: Windows opened from this one, held while they are open (``keep_open``).
        self.opened_windows: list[QMainWindow] = []

        # ----- the frame: torch-free (tests/gui/test_first_paint.py builds it without torch)
        self.errorBanner = ErrorBanner(self)
        self.action_bar = ActionBar(self)
        self.devices = DevicesPanel(self)
        self.parameters = ParametersPanel(self)
        self.historyView = HistoryView(self)
        self.code = CodePanel(self)
        frame = self.frame = build_frame(
            self, banner=self.errorBanner, action_bar=self.action_bar, devices=self.devices,
            parameters=self.parameters, history=self.historyView, code=self.code,
        )  # fmt: skip
        self.tabs, self.lazy_tabs, self.model_box = frame.tabs, frame.pages, frame.model_box
        self.main_splitter, self.top_splitter = frame.splitters()
        self.status = StatusLine(self.statusBar())
        self.statusModel, self.statusDevice, self.statusBusy = self.status.model, self.status.device, self.status.busy
        self.help = HelpPages(self, self.session_state, menus=lambda: MENUS)
        self._help_dialogs = self.help.dialogs  # (the pages shown, for the tests)
        #: The menus' actions, by id: each feature binds what its actions call (``common.actions``).
        self.menu_actions = ActionRegistry(self)
        self._menus = build_menus(self, self.menu_actions)
        self.menu_actions.refresh()  # no session yet: what works while loading (``ActionSpec.while_loading``)
        self.recentMenu = self._menus.recent
        self.recentMenu.menuAction().setVisible(self.kind.keeps_recent_models)  # a remote window opens the server's
        self._bind_frame_actions()
        self.language = LanguageMenu(self._menus.language_parent, self.settings, self)
        self.language.changed.connect(lambda _language: self._note_missing_font())
        self.language.unavailable.connect(self.say_language_unavailable)
        self.recent = window_settings.RecentModels(self.recentMenu, self.settings, self)
        self.recent.chosen.connect(self.open_model)
        #: No saved splitter positions: the first show sizes them for the screen (``Frame.first_start``).
        self._first_start = not window_settings.restore_layout(self.settings, self, frame.splitters())
        self._note_missing_font()
        self.kind.attach(self)

        #: The frame's wait for torch, while it is imported (None: it was imported already).
        self.deferred_start: DeferredStart | None = None
        if torch_loader.imported():
            self._start_session()
        else:  # the frame paints while torch is imported off the GUI thread
            self.deferred_start = DeferredStart(
                devices=self.devices, action_bar=self.action_bar, pages=self.lazy_tabs,
                banner=self.errorBanner, status=self.status, tasks=self.tasks, start=self._start_session, parent=self,
            )  # fmt: skip

    def _bind_frame_actions(self) -> None:
        """What the actions that need no session call (the window's own, Help's); bound with the frame."""
        bind = self.menu_actions.bind
        bind(QUIT, self.quit_asked)
        bind(PREFERENCES, self.preferences_dialog)
        bind(DISMISS_ERROR, self.errorBanner.dismiss)
        bind(model_actions.OPEN, self.open_model_dialog)  # (a remote window opens its own way)
        bind(remote_actions.CONNECT, self.connectServerRequested.emit)
        bind(devices_actions.REFRESH, self.requests.rediscover.emit)
        help_actions.bind(self.menu_actions, self.help)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.session_started and self.deferred_start is not None:
            self.deferred_start.frame_painted()

    def _start_session(self) -> None:
        """The features, each installed from one context (``features``: their table), and the
        workers that own the model (``session_parts``); then the first load.

        Their modules import torch, so they are imported here (already imported by
        ``torch_loader`` off the GUI thread when the frame came first)."""
        from inspector.core.measure import MemoryTimeline
        from inspector.gui.shell import features, session_parts
        from inspector.gui.state.dispatcher import Dispatcher
        from inspector.gui.state.feature import FeatureContext, FrameParts

        if self.session_started or self.tasks.closed:
            return
        frame = FrameParts(
            action_bar=self.action_bar, banner=self.errorBanner, history=self.historyView, code=self.code,
            status=self.status, status_bar=self.statusBar(), tabs=self.tabs, model_box=self.model_box,
            parameters=self.parameters, devices=self.devices,
        )  # fmt: skip
        #: The memory readings since the start (the sampler fills it; the plot and the report read it).
        self.timeline = MemoryTimeline()
        self.dispatcher = Dispatcher(self.tasks, self.action_bar, self.status)
        #: What the features were installed with, and what they left in it (``state.feature``).
        self.features: FeatureContext = features.install(FeatureContext(
            parent=self, state=self.session_state, tasks=self.tasks, settings=self.settings,
            dispatcher=self.dispatcher, requests=self.requests, pages=self.lazy_tabs, actions=self.menu_actions,
            frame=frame, timeline=self.timeline, cancel=self.cancel, open_model=lambda spec: self.open_model(spec),
            ask_trust=self.ask_trust, place=lambda menu, action: place(self, menu, action),
        ))  # fmt: skip
        # (after the parts: a remote window's workers use the timeline and the session state)
        self.worker, self.sampler = self.kind.make_workers(window_settings.sample_hz(self.settings))
        capabilities = self.worker.session.capabilities  # (read before the worker's thread starts)
        self.action_bar.freshProcessesCheck.setVisible(capabilities.fresh_processes)
        if not capabilities.remote:
            # A Cancel that cannot stop a forward which never returns says so, with what can be
            # done (a remote session's forward runs in its agent: the connection gives up on it).
            self.stuckNotice = StuckNotice(self.tasks, self.quit_leaving_work, self.centralWidget())
            self.stuckNotice.overlay(self.main_splitter)
        self.session_state.taskEnded.connect(self._on_task_ended)
        session_parts.connect_workers(self.session_state, self.requests, self.worker, self.sampler)
        self.model_thread = start_in_thread(self.worker, "model-worker")
        self.sampler_thread = start_in_thread(self.sampler, "memory-sampler", on_started=self.sampler.start)
        self.session_started = True
        self.action_bar.setEnabled(True)
        self._lessons = capabilities.lessons
        # Each action enabled as it declares (``common.actions``), whenever the state changes.
        state = self.session_state
        self.menu_actions.follow(self.situation, state.modelChanged, state.inventoryChanged, self.tasks.busyChanged)
        self.tasks.busyChanged.connect(lambda _task: self.recentMenu.setEnabled(self.situation().idle))
        for started in self.features.started:
            started()
        self.lazy_tabs.release()
        spec, trust = self._first_load
        self.open_model(spec, trust=trust)

    def situation(self) -> Situation:
        """What the menus' actions are enabled by (``ActionSpec.enabled``)."""
        return Situation(
            started=self.session_started, idle=self.tasks.task is None and not self.tasks.closed,
            model=self.session_state.model, lessons=self._lessons,
        )  # fmt: skip

    @Slot(object)
    def _on_task_ended(self, end: TaskEnded) -> None:
        """A model loaded: the recent list and the title name it."""
        outcome = end.result_of(LoadOutcome)
        if outcome is None:
            return
        info = outcome.state.info
        self.add_recent_model(info.spec)
        self._title_info = info
        self._show_model_title()

    def _show_model_title(self) -> None:
        """The title names the model: its class and spec (names from the file, plain_text), the
        built-in example in words (示例), said again on a change of language."""
        info = self._title_info
        if info is not None:
            self.show_title(f"{shown(info.class_name)} — {shown(spec_text(info.spec))}")

    def show_title(self, title: str | None) -> None:
        """``title`` (None: no model's yet) as the kind shows it (a remote one names its host first)."""
        text = self.kind.title(title)
        if text is not None:
            self.setWindowTitle(text)

    # ------------------------------------------------------------------ language

    def _note_missing_font(self) -> None:
        """The window speaks Chinese and no font draws it: said once (``help``)."""
        #: The notice shown now, if any (for the tests).
        self.cjk_font_notice = note_missing_cjk_font_once(self, self.settings)

    def say_language_unavailable(self, language: str) -> None:
        """``language``'s catalogue could not be read (at start, or from View › Language)."""
        name = i18n.LANGUAGES.get(language, language)
        text = translate("InspectorWindow", "The %1 translation could not be read: the window stays in English.")
        self.status.flash(fill(text, name), 15_000)

    # ------------------------------------------------------------------ what the parts hold

    @property
    def busy_task(self) -> str | None:
        """The task the window waits for (a ``Task``, which is its name); None when idle."""
        return self.tasks.task

    @property
    def closed(self) -> bool:
        return self.tasks.closed

    @property
    def model_state(self) -> ModelState | None:
        return self.session_state.model

    @property
    def inventory(self) -> Any:
        return self.session_state.inventory

    @property
    def last_readings(self) -> tuple[Any, ...]:
        return self.session_state.readings

    def __getattr__(self, name: str) -> Any:
        """A part a feature published for the tests and the kinds (``window.reports``,
        ``window.run_benchmark``: ``FeatureContext.publish``); the window names none of them."""
        features = self.__dict__.get("features")
        if features is None or name not in features.handles:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        part = features.handles[name]
        return part.read() if isinstance(part, Live) else part

    @property
    def latencyPlot(self) -> Any:  # noqa: N802 (the documented object name)
        """The Latency tab's plot (``gui.features.latency.plot.LatencyPlot``), built on first use."""
        return self.lazy_tabs.page(LATENCY)

    # ------------------------------------------------------------------ commands

    def open_model(
        self, spec: str, *, trust: bool = False, architecture: str | None = None, inputs: str | None = None
    ) -> bool:
        if not self.session_started:  # a recent model picked while torch loads: it loads first
            self._first_load = (spec, trust)
            return True
        return bool(self.opener.open(spec, trust=trust, architecture=architecture, inputs=inputs))

    def cancel(self) -> None:
        """Ask the running move or benchmark to stop at its next safe point."""
        self.dispatcher.cancel()

    def about_text(self) -> str:
        return self.help.about_text()

    # ------------------------------------------------------------------ what a remote window does its own way

    def open_model_dialog(self) -> None:
        self.kind.open_model_dialog()

    def make_open_model_dialog(self) -> dialogs.OpenModelDialog:
        dialog: dialogs.OpenModelDialog = self.opener.make_dialog(self.recent_models())
        return dialog

    def ask_trust(self, path: str, wanted: tuple[str, ...]) -> None:
        self.kind.ask_trust(path, wanted)

    def recent_models(self) -> list[str]:
        return self.recent.specs() if self.kind.keeps_recent_models else []

    def add_recent_model(self, spec: str) -> None:
        if self.kind.keeps_recent_models:  # the local recent list holds this machine's specs
            self.recent.add(spec)

    def keep_open(self, other: QMainWindow) -> None:
        """Hold ``other`` (a window opened from this one: File › Connect to server…) until it is destroyed."""
        self.opened_windows.append(other)
        other.destroyed.connect(lambda *_: self.opened_windows.remove(other) if other in self.opened_windows else None)

    # ------------------------------------------------------------------ settings

    def preferences_dialog(self) -> None:
        from inspector.gui.common import dialogs

        dialog = dialogs.PreferencesDialog(window_settings.sample_hz(self.settings), self)
        if dialog.exec() == dialogs.PreferencesDialog.DialogCode.Accepted:
            self.set_sample_rate(dialog.sample_hz())

    def set_sample_rate(self, hz: float) -> None:
        self.requests.sample_rate.emit(window_settings.set_sample_hz(self.settings, hz))

    # ------------------------------------------------------------------ shutdown

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._placed:
            # Once the window manager has framed it, the frame (title bar included) is known:
            # the window is brought wholly onto the screen if the frame made it stick out.
            self._placed = True
            QTimer.singleShot(0, lambda: screen_fit.keep_on_screen(self))
            if self._first_start:
                QTimer.singleShot(0, self.frame.first_start)

    def changeEvent(self, event: QEvent) -> None:
        # A new language: the menus and the parts that are not widgets set their texts again
        # (widgets get the same event from Qt and do it themselves).
        if is_language_change(event):
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        retranslate_menus(self, self.menu_actions, self._menus)
        self._show_model_title()
        for part in self.retranslatable_parts():
            part.retranslate()
        self.kind.retranslate()  # after the menus: they reset what a kind says its own way

    def retranslatable_parts(self) -> list[Any]:
        """The parts that are no widgets but show texts (each has ``retranslate()``)."""
        parts = [self.language, self.status, self.frame, self.recent]
        if self.session_started:
            parts += self.features.retranslatable
        return parts

    def quit_asked(self) -> None:
        """File › Quit: a person's close, which asks before losing work (``close_guard``)."""
        self._person_closes = True
        try:
            self.close()
        finally:
            self._person_closes = False

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.kind.saves_layout:  # (a remote window's close just ends its agent)
            # A person's close (the title bar's button: spontaneous; File › Quit) may ask first.
            asked = event.spontaneous() or getattr(self, "_person_closes", False)
            if not self.tasks.closed and not close_guard.agree(self, asked_by_person=asked):
                event.ignore()
                return
            if not self.tasks.closed:
                window_settings.save_layout(self.settings, self, self.frame.splitters())
        self.shutdown()
        super().closeEvent(event)

    def quit_leaving_work(self) -> None:
        """The stuck notice's "Save settings and quit": settings saved, the other windows
        closed, and the process ended now, leaving the call that never returns behind."""
        from PySide6.QtWidgets import QApplication

        def save() -> None:
            window_settings.save_layout(self.settings, self, self.frame.splitters())
            self.settings.sync()

        others: list[QWidget] = [
            w for w in QApplication.topLevelWidgets() if isinstance(w, InspectorWindow) and w.isVisible()
        ]
        quit_leaving_work(self, save, others)

    def shutdown(self, timeout_s: float = 2.0) -> bool:
        """Cancel running work, quit both threads and wait for them and for a report being
        written or read (``timeout_s`` in all).

        Returns True when everything ended. Safe to call more than once. The kind does what it
        must around it (a remote one closes the agent's stdin first, and waits for it after).
        """
        if self.tasks.closed:
            return bool(self.threads_stopped)
        return self.kind.shutdown(lambda: self._stop(timeout_s))

    def _stop(self, timeout_s: float) -> bool:
        self.threads_stopped = stop_session(self, timeout_s)
        return self.threads_stopped

    def threads(self) -> list[Any]:
        return [self.model_thread, self.sampler_thread] if self.session_started else []

