import json
import os
import tempfile

from tests import odd_host

# compare's verdicts of single runs read this machine's run-to-run noise record
# (core.measure.run_noise): the tests get a record of their own, never the developer's, which
# says this is a quiet machine (runs ±5 % apart: sd 0.05 of the log median), so a
# 2x difference between two single runs is claimed as it is on a measured quiet machine.
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

from inspector.core.measure import run_noise  # noqa: E402

with open(_RUN_NOISE, "w") as _record:
    _record.write(json.dumps({"version": 1, "machines": {run_noise.machine_key(): {"records": [
        {"sd": 0.05, "df": 19, "when": "2026-01-01T00:00:00+00:00", "what": "tests/conftest.py: a quiet machine"}]}}}))  # fmt: skip

import pytest  # noqa: E402

pytest_plugins = ["tests.fake_cuda"]
import torch  # noqa: E402

if odd_host.wanted():
    odd_host.patch_host()


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
