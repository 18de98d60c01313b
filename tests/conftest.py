import functools
import json
import os
import sys
import tempfile

from tests import odd_host

# bench --repeat records this machine's run-to-run noise (core.measure.run_noise): the tests'
# runs go to a record of their own, never the developer's. No verdict reads it (issue 46).
_RUN_NOISE = os.path.join(tempfile.mkdtemp(prefix="inspector-run-noise-"), "run_noise.json")
os.environ["INSPECTOR_RUN_NOISE_FILE"] = _RUN_NOISE

if odd_host.wanted():  # INSPECTOR_TEST_HOST=odd: a host unlike the developer's (tests/odd_host.py)
    odd_host.set_environment()

# Qt must never try to reach a display in the test suite. Its screen is a 1920x1080 one, as a
# desk has (the offscreen platform's own is 800x800); tests of small screens make their own.
_SCREEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "offscreen_screen.json")
os.environ.setdefault("QT_QPA_PLATFORM", f"offscreen:configfile={_SCREEN}")

from inspector.core.devices.huge_pages import prefer_huge_pages  # noqa: E402

prefer_huge_pages()  # as every command of the app does, before torch allocates

import pytest  # noqa: E402

pytest_plugins = ["tests.fake_cuda"]

import torch  # noqa: E402

if odd_host.wanted():
    odd_host.patch_host()
if odd_host.no_proc_wanted():  # INSPECTOR_TEST_HOST=no-proc: no /proc nor /sys, as on macOS
    odd_host.play_no_proc()


@pytest.fixture
def no_proc_host(monkeypatch):
    """This test runs on a host without /proc and /sys (tests/odd_host.py), undone after."""
    odd_host.play_no_proc(monkeypatch.setattr)
    yield
    odd_host._forget_cpu_name()  # the name read without /proc is not this machine's


def pytest_collection_modifyitems(config, items):
    has_cuda = torch.cuda.is_available()
    skip_cuda = pytest.mark.skip(reason="needs a CUDA device")
    skip_cpu_only = pytest.mark.skip(reason="asserts what a machine without CUDA shows")
    for item in items:
        if "cuda" in item.keywords and not has_cuda:
            item.add_marker(skip_cuda)
        if "cpu_only" in item.keywords and has_cuda:
            item.add_marker(skip_cpu_only)
    # The warm interpreter's imports run on the other core while the first tests run.
    from tests.warm_python import start_if_used

    start_if_used(items)


#: A narrow ``torch.nn.Transformer`` (one encoder and one decoder layer, d_model 16) that
#: brings no example input: its src and tgt come from the input-spec syntax.
SMALL_TRANSFORMER = (
    "from torch import nn\n"
    "def make():\n"
    "    return nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32,\n"
    "                          dropout=0.0)\n"
)


@pytest.fixture
def small_transformer(tmp_path):
    """The spec of ``SMALL_TRANSFORMER`` written as a factory file."""
    path = tmp_path / "small_transformer.py"
    path.write_text(SMALL_TRANSFORMER)
    return f"{path}:make"


# --------------------------------------------------------------------------- the report's JSON Schema
# Every timing report a test writes (``save_report``, in any format: the dict is the same) and every
# one ``bench --json`` prints is checked against the shipped schema (resources/report.schema.json);
# a report that does not validate fails the test that wrote it, naming the field. Files that tests
# break on purpose (hostile and fuzzed reports) are written by hand, not through these, so they pass.

_REPORT_SCHEMA_PROBLEMS: list[str] = []


@functools.cache
def _report_validator():
    from importlib import resources

    import jsonschema

    text = resources.files("inspector.resources").joinpath("report.schema.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def _check_report(report, where: str) -> None:
    """Record why ``report`` (as its .json file would hold it) does not validate, if it does not."""
    import jsonschema

    from inspector.core.report.timing_report import json_ready

    try:
        plain = json_ready(report)
    except Exception:  # noqa: BLE001 -- not a report at all: save_report itself says so to the test
        return
    error = jsonschema.exceptions.best_match(_report_validator().iter_errors(plain))
    if error is not None:
        message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
        _REPORT_SCHEMA_PROBLEMS.append(f"{where}: {error.json_path}: {message}")


def _validating_save(original):
    @functools.wraps(original)
    def save_report(report, path, *args, **kwargs):
        _check_report(report, f"the report saved to {os.fspath(path)!r}")
        return original(report, path, *args, **kwargs)

    return save_report


def _validating_print(original):
    @functools.wraps(original)
    def _print(text: str = "") -> None:
        if isinstance(text, str) and text.startswith("{") and '"schema_version"' in text:
            from inspector.core.report.timing_report import REQUIRED_KEYS

            try:
                printed = json.loads(text)
            except ValueError:
                printed = None
            if isinstance(printed, dict) and all(key in printed for key in REQUIRED_KEYS):
                _check_report(printed, "the report printed as JSON")
        return original(text)

    return _print


@pytest.fixture(scope="session", autouse=True)
def _reports_validate_against_the_shipped_schema():
    """Wrap ``save_report`` and the CLI's ``_print`` where they are defined and in every module
    that imported them by name already (``gui.export``, the CLI's commands); later imports get
    the wrappers from their home modules."""
    from inspector.cli import printing
    from inspector.core.report import timing_report

    with pytest.MonkeyPatch.context() as patch:
        for home, name, wrap in (
            (timing_report, "save_report", _validating_save),
            (printing, "_print", _validating_print),
        ):
            original = getattr(home, name)
            wrapper = wrap(original)
            for module in list(sys.modules.values()):
                if (
                    getattr(module, "__name__", "").startswith(("inspector", "tests"))
                    and getattr(module, name, None) is original
                ):
                    patch.setattr(module, name, wrapper)
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    _REPORT_SCHEMA_PROBLEMS.clear()  # reports saved by this test's fixtures count as its own
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    if _REPORT_SCHEMA_PROBLEMS:
        problems = list(_REPORT_SCHEMA_PROBLEMS)
        _REPORT_SCHEMA_PROBLEMS.clear()
        pytest.fail("a report does not validate against resources/report.schema.json:\n  " + "\n  ".join(problems),
                    pytrace=False)  # fmt: skip
    return result
