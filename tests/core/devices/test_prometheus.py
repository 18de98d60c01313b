"""``devices --prometheus``: written with prometheus_client, parsed by its parser, and joined
with dcgm-exporter's series on the labels dcgm-exporter itself writes (once
``docs/prometheus/dcgm-join.rules.yml`` has copied ours to its names)."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from inspector.core.devices.inventory import discover_devices
from inspector.core.devices.prometheus import render_prometheus
from tests.fake_cuda import GiB, fake_cuda

#: What dcgm-exporter 3.x writes for two GPUs (its default counters, trimmed to two): the
#: labels and their spelling as its documentation shows them.
DCGM_SAMPLE = """\
# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{{gpu="3",UUID="{uuid0}",pci_bus_id="00000000:3B:00.0",device="nvidia3",modelName="{name}",Hostname="node-7",DCGM_FI_DRIVER_VERSION="570.124.06"}} 1024
DCGM_FI_DEV_FB_USED{{gpu="1",UUID="{uuid1}",pci_bus_id="00000000:1A:00.0",device="nvidia1",modelName="{name}",Hostname="node-7",DCGM_FI_DRIVER_VERSION="570.124.06"}} 2048
# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).
# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{{gpu="3",UUID="{uuid0}",pci_bus_id="00000000:3B:00.0",device="nvidia3",modelName="{name}",Hostname="node-7",DCGM_FI_DRIVER_VERSION="570.124.06"}} 97
"""


def _families(text):
    return {f.name: f for f in text_string_to_metric_families(text)}


def _join_on(ours, theirs, *labels):
    """PromQL's ``ours * on(labels) group_left theirs``: pairs whose labels agree."""
    key = lambda s: tuple(s.labels.get(label) for label in labels)  # noqa: E731
    index = {key(s): s for s in theirs}
    return [(s, index[key(s)]) for s in ours if key(s) in index]


def _as_rules_label(sample):
    """The sample as ``docs/prometheus/dcgm-join.rules.yml`` records it: each ``label_replace``
    it makes (``"UUID", "$1", "uuid", "(.+)"``) applied, read from the file itself."""
    import re
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[3] / "docs" / "prometheus" / "dcgm-join.rules.yml").read_text()
    copies = set(re.findall(r'"(\w+)", "\$1", "(\w+)", "\(\.\+\)"', rules))
    assert copies == {("UUID", "uuid"), ("Hostname", "hostname"), ("modelName", "model_name")}
    labels = dict(sample.labels)
    labels.update({to: labels[source] for to, source in copies if source in labels})
    return sample._replace(labels=labels)


def test_our_gpu_series_join_dcgm_exporters_on_uuid_and_on_host_and_gpu(monkeypatch):
    # CUDA_VISIBLE_DEVICES=3,1: CUDA's 0 and 1 are NVML's (so DCGM's) 3 and 1
    gpus = fake_cuda(monkeypatch, count=2)
    gpus[0].nvml_index, gpus[0].minor_number = 3, 3
    gpus[1].nvml_index, gpus[1].minor_number = 1, 1
    ours = _families(render_prometheus(discover_devices(), host="node-7"))["torch_device_inspector_memory_total_bytes"]
    dcgm = _families(DCGM_SAMPLE.format(uuid0=gpus[0].nvml_uuid, uuid1=gpus[1].nvml_uuid, name=gpus[0].name))
    used = dcgm["DCGM_FI_DEV_FB_USED"].samples
    assert not _join_on(ours.samples, used, "UUID")  # our names are snake_case: joined through the rules
    ours.samples[:] = [_as_rules_label(s) for s in ours.samples]
    by_uuid = _join_on(ours.samples, used, "UUID")
    assert {(o.labels["torch_device"], d.labels["gpu"]) for o, d in by_uuid} == {("cuda:0", "3"), ("cuda:1", "1")}
    for o, d in by_uuid:  # every label both write holds the same value
        assert all(o.labels[k] == d.labels[k] for k in ("UUID", "gpu", "device", "modelName", "Hostname"))
    assert len(_join_on(ours.samples, used, "Hostname", "gpu")) == 2
    cpu = next(s for s in ours.samples if s.labels["torch_device"] == "cpu")
    assert not _join_on([cpu], used, "UUID") and "UUID" not in cpu.labels and "gpu" not in cpu.labels


def test_without_nvml_a_gpu_keeps_its_uuid_and_claims_no_dcgm_numbering(monkeypatch):
    fake_cuda(monkeypatch, count=1, nvml=False)
    sample = next(s for s in _families(render_prometheus(discover_devices(), host="h"))[
        "torch_device_inspector_device_info"].samples if s.labels["torch_device"] == "cuda:0")
    assert sample.labels["uuid"].startswith("GPU-")
    assert "gpu" not in sample.labels and "device" not in sample.labels  # the CUDA ordinal is not DCGM's index
    assert all(value != "" for value in sample.labels.values())


def test_the_device_gauges_are_facts_about_devices_and_the_exporters_room_is_its_own_series(monkeypatch):
    gpus = fake_cuda(monkeypatch, count=1)
    families = _families(render_prometheus(discover_devices(), host="h"))
    assert set(families) == {f"torch_device_inspector_{name}" for name in (
        "memory_total_bytes", "memory_free_bytes", "memory_used_bytes", "device_info", "process_memory_room_bytes")}
    [room] = families["torch_device_inspector_process_memory_room_bytes"].samples
    assert room.labels == {"hostname": "h"}  # about the exporting process, under no device's name
    free = {s.labels["torch_device"]: s.value for s in families["torch_device_inspector_memory_free_bytes"].samples}
    assert free["cuda:0"] < gpus[0].total_bytes - GiB + 1
    assert all(f.type == "gauge" for f in families.values())


def test_a_hostile_device_name_cannot_break_out_of_its_label(monkeypatch):
    hostile = 'Evil "GPU"\\ 0\n} 1\nfake_metric 666'
    fake_cuda(monkeypatch, count=1, name=hostile)
    families = _families(render_prometheus(discover_devices(), host='host"\n'))
    assert "fake_metric" not in families
    sample = next(s for s in families["torch_device_inspector_memory_total_bytes"].samples
                  if s.labels["torch_device"] == "cuda:0")
    assert sample.labels["model_name"] == hostile and sample.labels["hostname"] == 'host"\n'


@pytest.mark.parametrize("count", [0, 3])
def test_every_device_has_one_info_series(monkeypatch, count):
    fake_cuda(monkeypatch, count=count)
    info = _families(render_prometheus(discover_devices(), host="h"))["torch_device_inspector_device_info"]
    assert [s.labels["torch_device"] for s in info.samples] == ["cpu"] + [f"cuda:{i}" for i in range(count)]
