"""The window is on screen before torch is imported, and importing torch after Qt is safe here.

Each case runs in a fresh process (torch must not be imported yet), on the offscreen platform.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the frame comes first on Linux only")

#: Makes ``import torch`` fail, as on a machine where it is missing (the frame must not need it).
_BLOCK_TORCH = textwrap.dedent(
    """
    import sys
    class _Block:
        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                raise ImportError("torch is blocked in this test")
            return None
    sys.meta_path.insert(0, _Block())
    """
)


def run(code: str, tmp_path: Path, timeout: int = 180) -> dict:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path), PYTHONPATH=str(REPO))
    env.pop("TORCH_DEVICE_INSPECTOR_EARLY_WINDOW", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=timeout, cwd=REPO)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "QThread: Destroyed" not in done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_frame_builds_and_paints_without_torch(tmp_path):
    code = _BLOCK_TORCH + textwrap.dedent(
        """
        import json, time
        from inspector.gui.shell.app import ensure_application, create_window
        from inspector.gui.shell import torch_loader
        from inspector.gui.features.moves.action_bar import ActionBar
        app = ensure_application()
        torch_loader.start = lambda parent: torch_loader.TorchLoading(parent)  # a load that never ends
        window = create_window()
        window.show()
        end = time.time() + 2
        while time.time() < end:
            app.processEvents(); time.sleep(0.01)
        window.tabs.setCurrentIndex(1)  # the Memory tab waits, saying why
        app.processEvents()
        enabled = sorted(s.name for s in window.menu_actions.specs() if window.menu_actions.action(s).isEnabled())
        waiting = [l.text() for l in window.tabs.currentWidget().findChildren(type(window.devices.note))]
        result = {"note": window.devices.note.text(), "enabled": enabled, "bar": window.findChild(ActionBar).isEnabled(),
                  "visible": window.isVisible(), "tabs": window.tabs.count(), "waiting": waiting,
                  "session": window.session_started}
        window.close()
        result["stopped"] = window.threads_stopped
        result["torch"] = "torch" in sys.modules
        print(json.dumps(result))
        """
    )
    seen = run(code, tmp_path)
    assert seen["visible"] and not seen["session"] and not seen["torch"]
    assert seen["note"] == "Loading PyTorch…" and seen["waiting"] == ["Loading PyTorch…"]
    assert seen["enabled"] == ["gettingStartedAction", "quitAction", "reportFormatAction", "shortcutsAction"]
    assert seen["bar"] is False and seen["tabs"] == 5 and seen["stopped"] is True


def test_torch_imported_after_the_window_loads_the_model_and_the_window_closes_cleanly(tmp_path):
    code = textwrap.dedent(
        """
        import json, sys, time
        from inspector.gui.shell.app import ensure_application, create_window
        from inspector.gui.features.moves.action_bar import ActionBar
        app = ensure_application()
        order = {"torch_before_window": "torch" in sys.modules}
        window = create_window()
        window.show()
        order["torch_at_show"] = "torch" in sys.modules
        end = time.time() + 120
        # The devices arrive on their own (after the model on a busy machine): waited for too.
        while time.time() < end and (window.session_state.model is None or window.session_state.tasks.task is not None
                                     or window.inventory is None):
            app.processEvents(); time.sleep(0.01)
        rows = window.session_state.model.placement.totals.count if window.session_state.model else None
        order.update(rows=rows, note=window.devices.note.text(), session=window.session_started,
                     bar=window.findChild(ActionBar).isEnabled(), export=window.menu_actions.action('report.export').isEnabled())
        window.close()
        order["stopped"] = window.threads_stopped
        import builtins
        features = sys.modules["shibokensupport.feature"].pyside_feature_dict
        order.update(hook=builtins.__import__.__name__, torch_scanned="torch.nn" in features,
                     window_scanned="inspector.gui.state.workers" in features)
        print(json.dumps(order))
        """
    )
    seen = run(code, tmp_path)
    assert seen["torch_before_window"] is False and seen["torch_at_show"] is False
    assert seen["session"] and seen["rows"] == 4 and seen["bar"] and seen["export"]
    assert seen["note"] != "Loading PyTorch…" and seen["stopped"] is True
    # torch came past PySide's per-module source scan; the window's modules and the hook did not
    assert seen["hook"] == "__feature_import__" and seen["window_scanned"] and not seen["torch_scanned"]


def test_closing_the_window_while_torch_loads_exits_cleanly(tmp_path):
    code = textwrap.dedent(
        """
        import json, sys, time
        from inspector.gui.shell.app import ensure_application, create_window
        app = ensure_application()
        window = create_window()
        window.show()
        for _ in range(30):
            app.processEvents(); time.sleep(0.01)
        started = window.session_started
        window.close()
        for _ in range(300):  # the import finishes in the background; nothing is built after the close
            app.processEvents(); time.sleep(0.01)
        print(json.dumps({"started_before_close": started, "stopped": window.threads_stopped,
                          "session": window.session_started}))
        """
    )
    seen = run(code, tmp_path)
    assert seen["started_before_close"] is False and seen["stopped"] is True and seen["session"] is False


_TORCH_WORK = textwrap.dedent(
    """
    def torch_work():
        import torch
        torch.manual_seed(0)
        a, b = torch.randn(512, 512), torch.randn(512, 512)
        conv = torch.nn.Conv2d(3, 8, 3)
        x = torch.randn(4, 3, 64, 64)
        out = {"threads": torch.get_num_threads(), "interop": torch.get_num_interop_threads(),
               "matmul": float((a @ b).sum()), "conv": float(conv(x).sum()),
               "parallel": "OpenMP" in torch.__config__.parallel_info()}
        return out
    """
)


def test_torch_imported_on_a_thread_after_qt_works_as_when_imported_first(tmp_path):
    # What "import torch before QApplication" protected: the same threads, the same results.
    after_qt = _TORCH_WORK + textwrap.dedent(
        """
        import json, threading, time
        from PySide6.QtWidgets import QApplication, QMainWindow
        app = QApplication([])
        window = QMainWindow(); window.show(); app.processEvents()
        from inspector.gui.shell import torch_loader
        result = {}
        worker = threading.Thread(target=lambda: (torch_loader.preload_native_libraries(), result.update(torch_work())))
        worker.start()
        while worker.is_alive():
            app.processEvents(); time.sleep(0.01)
        print(json.dumps(result))
        """
    )
    first = _TORCH_WORK + "import json, torch\nfrom PySide6.QtWidgets import QApplication\napp = QApplication([])\n"
    first += "print(json.dumps(torch_work()))\n"
    a, b = run(after_qt, tmp_path), run(first, tmp_path)
    assert a == b and a["parallel"] and a["threads"] >= 1
