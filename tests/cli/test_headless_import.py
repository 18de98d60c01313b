"""The core and the headless CLI must work where Qt is not installed (a GPU server)."""

import json
import subprocess
import sys
import textwrap

BLOCK_QT = textwrap.dedent(
    """
    import sys, importlib.abc

    class BlockQt(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"):
                raise ImportError(f"No module named {name!r} (blocked by the test)")
            return None

    sys.meta_path.insert(0, BlockQt())
    """
)


def run_without_qt(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_QT + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_core_modules_import_without_pyside6():
    proc = run_without_qt(
        """
        import pkgutil, importlib, inspector.core
        names = [m.name for m in pkgutil.iter_modules(inspector.core.__path__, "inspector.core.")]
        for name in names:
            importlib.import_module(name)
        assert not any(k.startswith(("PySide6", "pyqtgraph")) for k in sys.modules)
        print(len(names))
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip()) >= 5


def test_headless_cli_devices_and_inspect_run_without_pyside6():
    proc = run_without_qt(
        """
        import io, contextlib, json
        from inspector.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["devices", "--json"]) == 0
            assert main(["inspect", "--json"]) == 0
        print(out.getvalue())
        """
    )
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.split("\n}\n", 1)
    devices = json.loads(first + "\n}")
    assert devices["devices"][0]["id"] == "cpu"
    assert json.loads(second)["totals"]["bytes"] == 44


def test_window_without_pyside6_is_a_clear_error():
    proc = run_without_qt(
        """
        from inspector.cli import main
        raise SystemExit(main([]))
        """
    )
    assert proc.returncode == 1
    assert "error: the window needs PySide6" in proc.stderr
    assert "devices, inspect, bench" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_html_report_without_pyside6_leaves_the_plots_out_and_says_so(tmp_path):
    out = tmp_path / "report.html"
    proc = run_without_qt(
        f"""
        from inspector.cli import main
        raise SystemExit(main(["bench", "--device", "cpu", "--runs", "3", "--output", {str(out)!r}]))
        """
    )
    assert proc.returncode == 0, proc.stderr
    page = out.read_text()
    assert "The plots were left out because PySide6 is not installed." in page
    assert "<img" not in page
