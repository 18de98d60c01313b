import os

# Qt must never try to reach a display in the test suite.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest_plugins = ["tests.fake_cuda"]
import torch  # noqa: E402


def pytest_collection_modifyitems(config, items):
    has_cuda = torch.cuda.is_available()
    skip_cuda = pytest.mark.skip(reason="needs a CUDA device")
    skip_cpu_only = pytest.mark.skip(reason="asserts what a machine without CUDA shows")
    for item in items:
        if "cuda" in item.keywords and not has_cuda:
            item.add_marker(skip_cuda)
        if "cpu_only" in item.keywords and has_cuda:
            item.add_marker(skip_cpu_only)
