"""``devices --prometheus`` as Prometheus's own tool reads it (issue 47 items 9, 10): promtool's
``check metrics`` is clean, the recording rules in ``docs/prometheus/dcgm-join.rules.yml`` join
our gauges with dcgm-exporter's (``promtool test rules``), and the CPU's gauges describe the
machine, not the exporting process's limits. promtool comes with Debian's ``prometheus``
package; where it is absent (CI installs only Python packages) those tests skip, and the label
rule is checked as the documentation states it."""

from __future__ import annotations

import json
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from inspector.core.devices.inventory import discover_devices
from inspector.core.devices.prometheus import render_prometheus
from tests.fake_cuda import MiB, fake_cuda

RULES = Path(__file__).resolve().parents[3] / "docs" / "prometheus" / "dcgm-join.rules.yml"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool not installed (Debian: apt-get install prometheus)")

#: https://prometheus.io/docs/concepts/data_model/: "Label names may contain ASCII letters,
#: numbers, as well as underscores. They must match the regex [a-zA-Z_][a-zA-Z0-9_]*."
LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
#: promtool check metrics lints with client_golang's promlint, which reports "label names
#: should be written in 'snake_case' not 'camelCase'" where a name matches ``[a-z][A-Z]``;
#: https://prometheus.io/docs/practices/naming/ asks for snake_case, so: lower case only.
SNAKE_CASE = re.compile(r"[a-z_][a-z0-9_]*")
#: The PromQL docs/cli.md gives for our bytes against DCGM's MiB, with no rule loaded.
BYTES_AS_MIB = ('torch_device_inspector_memory_used_bytes / 2^20 - on(uuid) group_left '
                'label_replace(DCGM_FI_DEV_FB_USED, "uuid", "$1", "UUID", "(.+)")')


def _two_gpus(monkeypatch) -> str:
    """Our exposition for two GPUs that CUDA_VISIBLE_DEVICES=3,1 renumbered, a hostile name on one."""
    gpus = fake_cuda(monkeypatch, count=2)
    gpus[0].nvml_index, gpus[0].minor_number = 3, 3
    gpus[1].nvml_index, gpus[1].minor_number = 1, 1
    return render_prometheus(discover_devices(), host="node-7")


def test_every_label_name_is_a_prometheus_label_name_in_snake_case(monkeypatch):
    """promtool check metrics exited 3 on ``modelName`` (and Prometheus's naming practice
    asks for snake_case): every label name we write is lower snake_case."""
    names = {name for family in text_string_to_metric_families(_two_gpus(monkeypatch)) for sample in family.samples
             for name in sample.labels}  # fmt: skip
    assert {"torch_device", "type", "hostname", "model_name", "uuid", "gpu", "device"} <= names
    assert all(LABEL_NAME.fullmatch(name) and SNAKE_CASE.fullmatch(name) for name in names), sorted(names)


@needs_promtool
def test_promtool_check_metrics_is_clean(monkeypatch):
    done = subprocess.run([PROMTOOL, "check", "metrics"], input=_two_gpus(monkeypatch), capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def _series(text: str) -> list[dict]:
    """Each sample of an exposition as a promtool input series (value in a plain decimal)."""
    out = []
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
            out.append({"series": f"{s.name}{{{labels}}}", "values": repr(int(s.value))})
    return out


@needs_promtool
def test_the_recording_rules_join_our_gauges_with_dcgm_exporters_in_mib(monkeypatch, tmp_path):
    """``DCGM_FI_DEV_FB_USED - on(UUID) group_left …:memory_used_mib:dcgm_labels`` is 0 for each
    GPU when both say the same memory, joined on UUID and on (Hostname, gpu) alike."""
    ours = _two_gpus(monkeypatch)
    used = {s.labels["uuid"]: (s.labels["gpu"], s.value) for f in text_string_to_metric_families(ours)
            for s in f.samples if s.name.endswith("_used_bytes") and "uuid" in s.labels}  # fmt: skip
    dcgm = [{"series": f'DCGM_FI_DEV_FB_USED{{gpu="{gpu}",UUID="{uuid}",device="nvidia{gpu}",modelName="NVIDIA H200",'
                       f'Hostname="node-7",DCGM_FI_DRIVER_VERSION="570.124.06"}}', "values": repr(int(value // MiB))}
            for uuid, (gpu, value) in used.items()]  # fmt: skip
    assert len(dcgm) == 2
    expected = [{"labels": d["series"][len("DCGM_FI_DEV_FB_USED"):], "value": 0} for d in dcgm]  # its labels, no name
    tests = {"rule_files": [str(RULES)], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": _series(ours) + dcgm,
        "promql_expr_test": [
            {"expr": "DCGM_FI_DEV_FB_USED - on(UUID) group_left torch_device_inspector:memory_used_mib:dcgm_labels",
             "eval_time": "1m", "exp_samples": expected},
            {"expr": "DCGM_FI_DEV_FB_USED - on(Hostname, gpu) group_left torch_device_inspector:memory_used_mib:dcgm_labels",
             "eval_time": "1m", "exp_samples": expected},
            {"expr": "count(torch_device_inspector:memory_total_mib:dcgm_labels{modelName=\"NVIDIA H200\"})",
             "eval_time": "1m", "exp_samples": [{"labels": "{}", "value": 2}]},
        ],
    }]}  # fmt: skip
    (tmp_path / "tests.yml").write_text(json.dumps(tests))  # JSON is YAML
    done = subprocess.run([PROMTOOL, "test", "rules", str(tmp_path / "tests.yml")], capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@needs_promtool
def test_the_documented_promql_turns_our_bytes_into_dcgms_mib(monkeypatch, tmp_path):
    docs = (Path(__file__).resolve().parents[3] / "docs" / "cli.md").read_text()
    assert BYTES_AS_MIB in docs
    ours = [s for s in _series(_two_gpus(monkeypatch)) if "_used_bytes{" in s["series"] and "uuid=" in s["series"]]
    dcgm = [{"series": 'DCGM_FI_DEV_FB_USED{UUID="%s",gpu="%s"}' % (re.search(r'uuid="([^"]+)"', s["series"])[1], i),
             "values": repr(int(s["values"]) // MiB - 1)} for i, s in enumerate(ours)]  # fmt: skip
    tests = {"tests": [{"interval": "1m", "input_series": ours + dcgm, "promql_expr_test": [
        {"expr": f"count({BYTES_AS_MIB} == 1)", "eval_time": "0m", "exp_samples": [{"labels": "{}", "value": 2}]}]}]}
    (tmp_path / "tests.yml").write_text(json.dumps(tests))
    done = subprocess.run([PROMTOOL, "test", "rules", str(tmp_path / "tests.yml")], capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="MemAvailable and RLIMIT_AS: Linux")
def test_under_ulimit_v_the_cpus_free_is_the_machines_and_the_exporters_room_its_own_series():
    """Issue 47 item 10: under ``ulimit -v`` the CPU's free gauge was the exporting process's
    room (5.49e9 against MemAvailable's 2.40e10), so free + used != total."""
    limit = 6_000_000 * 1024  # ulimit -v 6000000 (KiB)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))

    code = "import sys; from inspector.cli import main; sys.exit(main(['devices', '--prometheus']))"
    done = subprocess.run([sys.executable, "-c", code], preexec_fn=limited, capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    values = {(s.name, s.labels.get("torch_device")): s.value for f in text_string_to_metric_families(done.stdout)
              for s in f.samples}  # fmt: skip
    prefix = "torch_device_inspector_"
    total, free, used = (values[(f"{prefix}memory_{what}_bytes", "cpu")] for what in ("total", "free", "used"))
    room = values[(f"{prefix}process_memory_room_bytes", None)]
    assert free + used == total  # the machine's figures, read together
    assert 0 < room < limit  # the process's room under its limit, a series of its own
    if free > limit:  # (a machine with more available than the limit: the two differ)
        assert room < free
