"""The window's frame while torch is imported (issue 25): "Loading PyTorch…", only the commands
that need no session, the import started once the frame is painted, and the session started
when ``torch_loader`` says torch is there (or a failed import said in the banner).

Torch-free, like the frame: it is imported with the window, not with the session.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from inspector.gui.shell import torch_loader
from inspector.gui.common.i18n import translate

if TYPE_CHECKING:
    from inspector.gui.common.lazy_tabs import LazyTabs
    from inspector.gui.features.devices.panel import DevicesPanel
    from inspector.gui.common.error_banner import ErrorBanner
    from inspector.gui.common.status_line import StatusLine
    from inspector.gui.state.tasks import TaskController

#: A window not painted by then (not shown yet) starts importing torch anyway (ms).
FRAME_PAINT_GRACE_MS = 300


class DeferredStart(QObject):
    """Holds the frame in its loading state until torch is imported, then calls ``start``."""

    def __init__(
        self, *, devices: DevicesPanel, action_bar: QWidget, pages: LazyTabs,
        banner: ErrorBanner, status: StatusLine, tasks: TaskController, start: Callable[[], None], parent: QObject,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self._banner, self._status, self._tasks, self._start = banner, status, tasks, start
        #: The import under way (``torch_loader.start``), once begun.
        self.loading: torch_loader.TorchLoading | None = None
        self._first_paint_seen = False
        devices.show_loading()
        # (the menus' actions wait too, but those that say ``while_loading``: ``common.actions``)
        action_bar.setEnabled(False)
        # (the window's context: the catalogue has this text under it)
        pages.hold(translate("InspectorWindow", "Loading PyTorch…"))
        # The import starts once the frame is painted: started sooner, it takes the GIL from
        # the very paint it waits behind. (A window never shown starts it after a moment.)
        QTimer.singleShot(FRAME_PAINT_GRACE_MS, self._import_torch)

    def frame_painted(self) -> None:
        """The window's paintEvent: the first one starts the import, after it reaches the screen."""
        if not self._first_paint_seen:
            self._first_paint_seen = True
            QTimer.singleShot(0, self._import_torch)

    def _import_torch(self) -> None:
        # (the session starts only from the loader's ``loaded``: begun once, it is under way)
        if self.loading is not None or self._tasks.closed:
            return
        self.loading = torch_loader.start(self)  # (a child of this part: it lives as long as the window)
        self.loading.loaded.connect(self._start)
        self.loading.failed.connect(self._torch_failed)

    def _torch_failed(self, message: str) -> None:
        """torch could not be imported: the window says why and stays open (it can still quit)."""
        from inspector.core.errors import Failure

        self._banner.show_failure(Failure("load", message), "import torch")
        self._status.show_task(None)
