"""Runs of a latency measurement in fresh processes: ``bench --repeat``'s workers, and the window's
Repeat when asked for fresh processes (issue 46 item 3).

A call of tens of microseconds runs as fast as the thread that runs it happens to be. On the
2-vCPU development VM two threads of one process, taking 4 ms blocks of the example in turn,
were 2x apart for 30 blocks on end (one fast, one slow), and the states swap within seconds;
a fresh process lands in either (``one_process``). The window's own run is one such draw, as a
plain ``bench`` is. Runs in fresh processes are independent draws: this module takes runs
2..N of a measurement as ``bench … --repeat-worker`` processes, started one at a time by
``core.launcher`` (isolated, by the app's own path, in a folder of their own, ended with this
process), each loading the model from the session's source (``ModelSource``: the spec with its paths
absolute, the architecture, the trust), moving it to the same device and dtype
and printing its samples as one JSON line (``worker_line``), which ``read_worker`` reads back
with bounds. Run 1 is the calling process's own, so the result is ``bench --repeat N``'s by
construction, whoever asks.

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
from inspector.core.units import dtype_name

#: The first key of a worker's line: what the parent looks for on its stdout.
WORKER_KEY = "repeat_worker"
#: What a worker runs: the CLI's entry, with the worker's argv as its command line.
WORKER_ENTRY = "inspector.cli:entry"

RunKey = tuple[str, str, str, tuple[int, ...]]


def worker_line(latencies: Sequence[Any]) -> str:
    """What a worker prints: its latency entries' keys and samples, and each whole entry as a
    report holds it (``entry``: a window that takes every run in a worker reads run 1's from
    it), one JSON line."""
    entries = [
        {"device": r.device, "dtype": r.dtype, "mode": r.mode, "input_shape": list(r.input_shape),
         "samples_ms": list(r.samples_ms), "notes": [str(n) for n in r.notes], "entry": r.to_dict(),
         "texts": [_text_json(n) for n in r.notes]}
        for r in latencies
    ]  # fmt: skip
    return json.dumps({WORKER_KEY: 1, "latency": entries})


def _text_json(note: str) -> Any:
    """A note as its template id and arguments (a window translates it), or as it reads."""
    if isinstance(note, Text):
        return {"key": note.key, "args": {name: _text_json(value) for name, value in note.args.items()}}
    return str(note)


def _text_of(value: Any) -> str | None:
    """A note sent by a worker, made again: a ``Text`` of a known template whose arguments are
    words (or such notes), a plain string as it is; None for anything else."""
    from inspector.core.messages import TEMPLATES

    if isinstance(value, str):
        return value
    if not isinstance(value, dict) or value.get("key") not in TEMPLATES or not isinstance(value.get("args"), dict):
        return None
    args = {name: _text_of(arg) for name, arg in value["args"].items() if isinstance(name, str)}
    if any(arg is None for arg in args.values()):
        return None
    try:
        return Text(value["key"], **args)
    except TypeError:  # a template whose fields the sender filled otherwise
        return None


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


def _worker_entries(stdout: str, cap: int) -> dict[RunKey, tuple[list[float], Any, tuple[str, ...]]]:
    """Each entry of a worker's line by key: its checked samples, its whole entry as sent (None
    if it sent none; read by the caller's report reader, which checks it) and its notes made
    again (``_text_of``)."""
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
                texts = entry.get("texts")
                notes = [_text_of(t) for t in texts] if isinstance(texts, list) and len(texts) <= 100 else []
                out[key] = (samples, entry.get("entry"), tuple(n for n in notes if n is not None))
        return out
    return {}


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

    tensors = [*loaded.module.parameters(), *loaded.module.buffers()]
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
    from inspector.core import launcher
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
    later: list[list[float]] = []
    notes: list[str] = []
    taken = 0
    for number in range(1, repeat + 1):
        if control.stop_asked():
            break
        try:
            done = launcher.run_app_workers(WORKER_ENTRY, [argv], should_stop=lambda: control.cancelled() or control.stop_asked())[0]
        except OSError as exc:  # no temporary folder, pipe or process to be had: the runs so far stand
            notes.append(Text("bench.fresh_run_not_started", number=number, repeat=repeat, why=exc.strerror or str(exc)))
            done = None
        if control.cancelled():
            raise Cancelled(Text("failure.cancelled_benchmark", samples=taken))
        if control.stop_asked():  # the worker was ended mid-run: its samples are not a run
            break
        found = _worker_entries(done.stdout, share) if done is not None else {}
        matching = [(key, got) for key, got in found.items() if key[:3] == expected]
        if first is None:
            entry = read_entry(matching[0][1][1]) if done is not None and done.returncode == 0 and len(matching) == 1 else None
            if entry is None or not entry.samples_ms:
                if done is not None:
                    notes.append(Text("bench.fresh_run_failed", number=number, repeat=repeat,
                                      why=worker_error(done.stderr)))  # fmt: skip
                return here(Text("bench.fresh_runs_first_failed", why="; ".join(str(n) for n in notes)))
            first, key, samples = dataclasses.replace(entry, notes=matching[0][1][2]), matching[0][0], list(entry.samples_ms)
        else:
            got = found.get(key) if done is not None and done.returncode == 0 else None
            if got is None:
                if done is not None:
                    notes.append(Text("bench.fresh_run_failed", number=number, repeat=repeat,
                                      why=worker_error(done.stderr)))  # fmt: skip
                continue
            samples = got[0]
            later.append(samples)
        if on_sample is not None:
            for index, ms in enumerate(samples, start=taken):
                on_sample(index, ms)
        taken += len(samples)
        if progress is not None:
            progress(number * 1000, repeat * 1000)
    if first is None:  # stopped before run 1 ended: nothing was measured
        raise Cancelled(Text("failure.cancelled_benchmark", samples=0))
    said = [*notes, Text("bench.fresh_runs", runs=1 + len(later))]
    if not later:  # (combine_runs keeps a lone run as it is)
        return dataclasses.replace(first, notes=(*first.notes, *said))
    return combine_runs(first, later, said)
