"""Runs of a latency measurement in fresh processes: ``bench --repeat``'s workers, and the
window's runs when asked for fresh processes (issue 46 item 3).

A call of tens of microseconds runs as fast as the thread that runs it happens to be. On the
2-vCPU development VM two threads of one process, taking 4 ms blocks of the example in turn,
were 2x apart for 30 blocks on end (one fast, one slow), and the states swap within seconds;
a fresh process lands in either (``one_process``), and the window's own run is one such draw.
A worker is this app's ``bench … --repeat-worker``, started by ``core.launcher`` (isolated, by
the app's own path, in a folder of its own, ended with this process): it loads the model from
the session's source (``ModelSource``: the spec with its paths absolute, the architecture, the
trust), moves it to the same device and dtype and prints each latency entry as a report holds
it, its notes as texts (``messages.text_json``), on one JSON line (``worker_line``), which
``read_worker`` reads back with bounds. ``bench --repeat N`` takes runs 2..N so, run 1 being
its own; ``measure_runs_fresh`` takes every run so, none in the calling process, so nothing of
a window's threads is in the figure.

The cost is a process and a load per run: 3.2 s a run for the example on the development VM
(the run itself takes 11 ms), and the model held twice while a worker runs. So it is asked
for, never the default.
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any, Callable, Sequence

from inspector.core.files.inputs import InputsLike, as_specs, format_inputs
from inspector.core.files.models import LoadedModel
from inspector.core.measure.fit_cluster_proof import ModelSource
from inspector.core.measure.measurement import LatencyResult
from inspector.core.measure.repeats import combine_runs, measure_runs, run_share
from inspector.core.measure.run_control import RunControl
from inspector.core.messages import Text
from inspector.core.messages.text_json import decode_text, encode_text
from inspector.core.units import dtype_name

#: The first key of a worker's line: what the parent looks for on its stdout.
WORKER_KEY = "repeat_worker"
#: What a worker runs: the CLI's entry, with the worker's argv as its command line.
WORKER_ENTRY = "inspector.cli:entry"

#: The most notes of a worker's entry read back (a run says a handful).
MAX_NOTES = 100

RunKey = tuple[str, str, str, tuple[int, ...]]


def worker_line(latencies: Sequence[Any]) -> str:
    """What a worker prints: each latency entry as a report holds it, with its notes as texts
    (``text_json``: a window says them in its language), one JSON line."""
    entries = [{**r.to_dict(), "texts": [encode_text(n) if isinstance(n, Text) else str(n) for n in r.notes]}
               for r in latencies]  # fmt: skip
    return json.dumps({WORKER_KEY: 1, "latency": entries})


def run_key(device: Any, dtype: Any, mode: Any, shape: Any) -> RunKey:
    """The entry a worker's samples belong to: device, dtype, mode and input shape."""
    return str(device), str(dtype), str(mode), tuple(int(d) for d in shape) if isinstance(shape, (list, tuple)) else ()


def worker_samples(values: Any, cap: int) -> list[float] | None:
    """A worker's samples, if they are what a run gives: finite non-negative numbers, at most ``cap``."""
    if not isinstance(values, list) or not values or len(values) > cap:
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0 for v in values):
        return None
    return [float(v) for v in values]


def read_worker(stdout: str, cap: int) -> dict[RunKey, list[float]]:
    """The samples of each entry a worker's stdout holds, by key; {} when it holds no worker line
    (a model may print anything first: only the last line that starts as ours is read)."""
    return {key: samples for key, (samples, _entry, _notes) in _worker_entries(stdout, cap).items()}


def _worker_entries(stdout: str, cap: int) -> dict[RunKey, tuple[list[float], dict[str, Any], tuple[str, ...]]]:
    """Each entry of a worker's line by key: its checked samples, the entry as sent (for the
    caller's report reader, which checks it) and its notes made again (``_notes_of``)."""
    for line in reversed(stdout.splitlines()):
        if not line.startswith('{"' + WORKER_KEY):
            continue
        try:
            data = json.loads(line)
        except ValueError:
            return {}
        out = {}
        for entry in data.get("latency", []) if isinstance(data, dict) else []:
            if not isinstance(entry, dict):
                continue
            samples = worker_samples(entry.get("samples_ms"), cap)
            if samples is not None:
                key = run_key(entry.get("device"), entry.get("dtype"), entry.get("mode"), entry.get("input_shape"))
                out[key] = (samples, entry, _notes_of(entry.get("texts")))
        return out
    return {}


def _notes_of(texts: Any) -> tuple[str, ...]:
    """A worker's notes made again (``text_json.decode_text``); what is not a text is left out."""
    notes = []
    for text in texts[:MAX_NOTES] if isinstance(texts, list) else ():
        try:
            notes.append(decode_text(text))
        except ValueError:
            continue
    return tuple(notes)


def worker_error(stderr: str) -> str:
    """A failed worker's own last ``error:`` line, or what to say when it printed none."""
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    return lines[-1][len("error:") :].strip() if lines else "it ended without a result"


def uniform_placement(loaded: LoadedModel) -> tuple[str, str | None] | None:
    """The one device of every parameter and buffer, as a worker's ``--device`` writes it, and
    their one floating dtype (``--dtype``), or None where they hold several (a Hugging Face
    model's float32 ``inv_freq`` beside bfloat16 weights: the worker keeps the load's own
    dtypes, and the run's key tells whether it matched). None for a model on several devices
    or with no tensors: a worker could not place it the same way."""
    from inspector.core.devices.discovery import device_id
    from inspector.core.measure.model_input import model_tensors

    tensors = list(model_tensors(loaded.module))
    devices = {device_id(t.device) for t in tensors}
    dtypes = {dtype_name(t.dtype) for t in tensors if t.is_floating_point()}
    if len(devices) != 1:
        return None
    return devices.pop(), dtypes.pop() if len(dtypes) == 1 else None


def worker_argv(source: ModelSource, device: str, dtype: str | None, *, mode: str, runs: int | None,
                min_time: float | None, input_shape: InputsLike | None, repeat: int) -> list[str]:  # fmt: skip
    """The ``bench`` command line of one later run: the model from ``source``, moved to ``device``
    (in ``dtype``, when one is given), measured as the first run was (``--repeat`` gives each
    run its share of samples). The spec comes after ``--``: nothing in it is read as an option."""
    argv = ["bench", f"--device={device}", f"--mode={mode}", f"--repeat={repeat}"]
    if dtype is not None:
        argv.append(f"--dtype={dtype}")
    if min_time is not None:
        argv.append(f"--min-time={min_time!r}")
    elif runs is not None:
        argv.append(f"--runs={runs}")
    specs = as_specs(input_shape)
    if specs is not None:
        argv.append(f"--input-shape={format_inputs(specs)}")
    if source.arch:
        argv.append(f"--arch={source.arch}")
    if source.trust:
        argv.append("--trust")
    return [*argv, "--repeat-worker", "--", source.spec]


def measure_runs_fresh(
    loaded: LoadedModel,
    source: ModelSource,
    *,
    repeat: int,
    mode: str,
    runs: int | None,
    min_time: float | None,
    input_shape: InputsLike | None,
    read_entry: Callable[[Any], LatencyResult],
    control: RunControl = RunControl(),
) -> LatencyResult:
    """``repeat`` runs, each in a fresh process, combined (``repeats.combine_runs``): none in
    this process, so nothing of the caller's (a window's threads) is in what they measured.

    Run 1's whole entry is read back with ``read_entry`` (the report's reader, which checks it),
    so the result describes that run as a report does; later runs add their samples. A worker
    must measure the model as this process holds it: its entry's device and dtype are checked.
    Sample indices continue from run to run; ``progress`` counts runs in thousandths (each
    moves it once, when it ends). ``should_cancel()`` ends a running worker at once and raises
    ``Cancelled``; ``should_stop()`` ends a running worker too, keeps the runs taken before it
    and starts no more. A worker that fails is said in a note and the runs taken stand; where
    run 1 fails, or the model cannot be described to a worker (not on one device: a split
    model, one with no tensors), the runs are taken here, one after another, and the note
    says why."""
    from inspector.core.errors import Cancelled
    from inspector.core.measure.model_input import model_dtype

    share = run_share(repeat)
    on_sample, progress = control.on_sample, control.progress

    def here(note: str) -> LatencyResult:  # the runs one after another in this process, as a window's Repeat takes them
        result = measure_runs(loaded, repeat=repeat, mode=mode, runs=runs, min_time=min_time, input_shape=input_shape,
                              control=control)  # fmt: skip
        return dataclasses.replace(result, notes=(*result.notes, note))

    placed = uniform_placement(loaded)
    if placed is None:
        return here(Text("bench.fresh_runs_split_model"))
    argv = worker_argv(source, *placed, mode=mode, runs=runs, min_time=min_time, input_shape=input_shape, repeat=repeat)
    expected = (placed[0], dtype_name(model_dtype(loaded.module)), str(mode))
    first: LatencyResult | None = None
    key: RunKey | None = None  # run 1's entry: the later runs' samples are of the same
    later: list[list[float]] = []
    notes: list[str] = []
    taken = 0
    for number in range(1, repeat + 1):
        if control.stop_asked():
            break
        found, failed = _take_run(argv, share, number, repeat, control)
        if control.cancelled():
            raise Cancelled(Text("failure.cancelled_benchmark", samples=taken))
        if control.stop_asked():  # the worker was ended mid-run: its samples are not a run
            break
        if key is None:  # run 1: the one entry of the model as this process holds it, read as a report's
            matching = [(k, got) for k, got in found.items() if k[:3] == expected]
            entry = read_entry(matching[0][1][1]) if failed is None and len(matching) == 1 else None
            if entry is None or not entry.samples_ms:
                return here(Text("bench.fresh_runs_first_failed", why=failed or worker_failed(number, repeat, "")))
            key, (samples, _sent, said) = matching[0]
            first = dataclasses.replace(entry, notes=said)
        elif failed is None and key in found:
            samples = found[key][0]
            later.append(samples)
        else:
            notes.append(failed or worker_failed(number, repeat, ""))
            continue
        if on_sample is not None:
            for index, ms in enumerate(samples, start=taken):
                on_sample(index, ms)
        taken += len(samples)
        if progress is not None:
            progress(number * 1000, repeat * 1000)
    if first is None:  # stopped before run 1 ended: nothing was measured
        raise Cancelled(Text("failure.cancelled_benchmark", samples=0))
    return combine_runs(first, later, [*notes, Text("bench.fresh_runs", runs=1 + len(later))])


def worker_failed(number: int, repeat: int, stderr: str) -> Text:
    """Run ``number`` of ``repeat`` failed in its worker: what the worker said (``worker_error``)."""
    return Text("bench.fresh_run_failed", number=number, repeat=repeat, why=worker_error(stderr))


def _take_run(argv: list[str], cap: int, number: int, repeat: int,
              control: RunControl) -> tuple[dict[RunKey, tuple[list[float], dict[str, Any], tuple[str, ...]]], Text | None]:  # fmt: skip
    """One worker run to its end (or ended by a cancel or a stop): its entries, and why it
    failed (None: it did not)."""
    from inspector.core import launcher

    try:
        done = launcher.run_app_workers(WORKER_ENTRY, [argv], should_stop=lambda: control.cancelled() or control.stop_asked())[0]
    except OSError as exc:  # no temporary folder, pipe or process to be had
        return {}, Text("bench.fresh_run_not_started", number=number, repeat=repeat, why=exc.strerror or str(exc))
    if done.returncode != 0:
        return {}, worker_failed(number, repeat, done.stderr)
    return _worker_entries(done.stdout, cap), None
