"""``devices --prometheus``: the exposition parses with Prometheus's own parser, labels and all."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from inspector.core.devices.inventory import discover_devices
from inspector.core.devices.prometheus import escape_label_value, render_prometheus
from tests.fake_cuda import GiB, fake_cuda


def _families(text):
    return {f.name: f for f in text_string_to_metric_families(text)}


def test_every_gpu_gets_byte_gauges_labelled_like_dcgm_exporter(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=2)
    text = render_prometheus(discover_devices(), host="node-7")
    families = _families(text)
    total = families["torch_device_inspector_memory_total_bytes"]
    assert total.type == "gauge"
    by_device = {s.labels["device"]: s for s in total.samples}
    assert set(by_device) == {"cpu", "cuda:0", "cuda:1"}
    assert by_device["cuda:1"].value == gpus[1].total_bytes
    assert by_device["cuda:1"].labels["uuid"] == gpus[1].nvml_uuid  # GPU-… as nvidia-smi writes it
    assert by_device["cuda:1"].labels["host"] == "node-7"
    allocated = {s.labels["device"]: s.value for s in families["torch_device_inspector_memory_allocated_bytes"].samples}
    assert allocated["cuda:1"] == 256 * 1024 * 1024
    free = {s.labels["device"]: s.value for s in families["torch_device_inspector_memory_free_bytes"].samples}
    assert free["cuda:0"] < gpus[0].total_bytes - GiB + 1


def test_every_metric_has_help_and_type_before_its_samples(monkeypatch):
    fake_cuda(monkeypatch, count=1)
    lines = render_prometheus(discover_devices(), host="h").splitlines()
    announced = set()
    for line in lines:
        if line.startswith("# TYPE "):
            announced.add(line.split()[2])
        elif not line.startswith("#"):
            assert line.split("{")[0] in announced, line
    helps = [line.split()[2] for line in lines if line.startswith("# HELP ")]
    types = [line.split()[2] for line in lines if line.startswith("# TYPE ")]
    assert helps == types


def test_a_hostile_device_name_cannot_break_out_of_its_label(monkeypatch):
    hostile = 'Evil "GPU"\\ 0\n} 1\nfake_metric 666'
    fake_cuda(monkeypatch, count=1, name=hostile)
    text = render_prometheus(discover_devices(), host='host"\n')
    families = _families(text)
    assert "fake_metric" not in families
    sample = next(s for s in families["torch_device_inspector_memory_total_bytes"].samples if s.labels["device"] == "cuda:0")
    assert sample.labels["name"] == hostile
    assert sample.labels["host"] == 'host"\n'


@pytest.mark.parametrize(("raw", "escaped"), [('a"b', 'a\\"b'), ("a\\b", "a\\\\b"), ("a\nb", "a\\nb")])
def test_label_values_are_escaped_as_the_format_says(raw, escaped):
    assert escape_label_value(raw) == escaped
