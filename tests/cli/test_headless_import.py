"""The core and the headless CLI must work where Qt is not installed (a GPU server).

All four checks run in ONE child process with PySide6 made unimportable (each fresh
interpreter costs seconds of ``import torch``): the core's modules are imported first, while
nothing else is loaded, then each CLI call runs with its own captured stdout and stderr.
"""

import json
import subprocess
from pathlib import Path
import sys
import textwrap

import pytest

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


#: Each check's {exit code, stdout, stderr}, as if it were a process of its own: a check that
#: raises gets exit code 1 and the traceback on its stderr, as a bare ``python -c`` would.
_CHECKS = """
import contextlib, importlib, io, json, pkgutil, traceback

def run(check):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = check()
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            traceback.print_exc()
            code = 1
    return {"returncode": code or 0, "stdout": out.getvalue(), "stderr": err.getvalue()}

def core_modules():
    import inspector.core
    names = [m.name for m in pkgutil.walk_packages(inspector.core.__path__, "inspector.core.")]
    for name in names:
        importlib.import_module(name)
    assert not any(k.startswith(("PySide6", "pyqtgraph")) for k in sys.modules)
    print(len(names))

def devices_and_inspect():
    from inspector.cli import main
    assert main(["devices", "--json"]) == 0
    assert main(["inspect", "--json"]) == 0

def window():
    from inspector.cli import main
    return main([])

def html_report():
    from inspector.cli import main
    return main(["bench", "--device", "cpu", "--runs", "3", "--output", sys.argv[1]])

def chinese_reports():
    from inspector.cli import main
    for suffix in (".md", ".html"):
        assert main(["bench", "--device", "cpu", "--runs", "3", "--lang", "zh_CN", "--output", sys.argv[1] + suffix]) == 0

def unknown_language():
    from inspector.cli import main
    return main(["bench", "--device", "cpu", "--runs", "3", "--lang", "fr", "--output", sys.argv[1] + ".fr.md"])

# The core first, before the CLI has loaded anything.
checks = (core_modules, devices_and_inspect, window, html_report, chinese_reports, unknown_language)
results = {f.__name__: run(f) for f in checks}
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def without_qt(tmp_path_factory):
    """The checks' results, and the HTML report's path (the Chinese ones add .md, .html)."""
    out = tmp_path_factory.mktemp("headless") / "report.html"
    proc = subprocess.run(
        [sys.executable, "-c", BLOCK_QT + _CHECKS, str(out)], capture_output=True, text=True, timeout=180
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1]), out


def test_core_modules_import_without_pyside6(without_qt):
    done = without_qt[0]["core_modules"]
    assert done["returncode"] == 0, done["stderr"]
    assert int(done["stdout"].strip()) >= 5


def test_headless_cli_devices_and_inspect_run_without_pyside6(without_qt):
    done = without_qt[0]["devices_and_inspect"]
    assert done["returncode"] == 0, done["stderr"]
    first, second = done["stdout"].split("\n}\n", 1)
    devices = json.loads(first + "\n}")
    assert devices["devices"][0]["id"] == "cpu"
    assert json.loads(second)["totals"]["bytes"] == 44


def test_window_without_pyside6_is_a_clear_error(without_qt):
    done = without_qt[0]["window"]
    assert done["returncode"] == 1
    assert "error: the window needs PySide6" in done["stderr"]
    assert "devices, inspect, bench" in done["stderr"]
    assert "Traceback" not in done["stderr"]


def test_html_report_without_pyside6_leaves_the_plots_out_and_says_so(without_qt):
    done, out = without_qt[0]["html_report"], without_qt[1]
    assert done["returncode"] == 0, done["stderr"]
    page = out.read_text()
    assert "The plots were left out because PySide6 is not installed." in page
    assert "<img" not in page


def test_bench_writes_a_chinese_report_without_pyside6(without_qt):
    """--lang needs no Qt: core reads its own catalogue (issue 35, §2)."""
    from tests.prose import english_words

    done, out = without_qt[0]["chinese_reports"], without_qt[1]
    assert done["returncode"] == 0, done["stderr"]
    page = Path(f"{out}.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>\n<html lang=zh-CN>")
    assert "未安装 PySide6，因此报告中没有图表。" in page and "<img" not in page
    markdown = Path(f"{out}.md").read_text(encoding="utf-8")
    assert markdown.startswith("### torch-device-inspector 计时报告\n") and "**延迟**" in markdown
    assert not english_words(markdown.split("**环境**")[0])  # (the machine's own names come after)


def test_an_unknown_report_language_is_bad_usage_naming_the_ones_there_are(without_qt):
    done = without_qt[0]["unknown_language"]
    assert done["returncode"] == 2
    assert done["stderr"] == "error: --lang 'fr': reports are written in en or zh_CN\n"
    assert done["stdout"] == "" and not Path(f"{without_qt[1]}.fr.md").exists()  # refused before measuring
