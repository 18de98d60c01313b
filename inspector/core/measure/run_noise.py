"""How much a measurement moves from one run to the next: the run-to-run noise.

The samples of one run say how well that run's median is known, not how far a second run, in
a fresh process a minute later, will land from it: CPU frequency, where memory was placed
(ASLR, page colouring), which cores the threads got, neighbours. On a shared machine that is
±20-40 %, far more than one run's interval. So a comparison of one run per side must know it
from elsewhere, and that is a stated constant (``stated_noise``: ``DEFAULT_SIGMA``, measured
on separate invocations minutes apart, as two separate benches are), never what this machine
ran before: the same two files get the same verdict on any machine, whatever ran there.

The noise is ``sigma``: the standard deviation of the natural log of a run's median (0.05 is
about ±5 % for one run). ``bench --repeat N`` still records the spread of its N runs' medians
per machine (``record``, read back by ``this_machine``) and says it, so a user sees how noisy
their machine is; no verdict reads that record.

The record is a small JSON file, ``$INSPECTOR_RUN_NOISE_FILE`` or
``$XDG_CACHE_HOME/torch-device-inspector/run_noise.json`` (``~/.cache/...``); a missing or
damaged file is no record, never an error, and writing one that fails is skipped. It is read
as every file is (``files.regular_file``: a regular file of at most 1 MiB, never a FIFO or a
device) and written as reports are (``core.atomic_write``).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import platform
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from inspector.core.atomic_write import write_atomically
from inspector.core.files.regular_file import FileTooLarge, NotRegularFile, read_regular_text
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: The run-to-run noise every comparison of few runs assumes, on any machine, measured, not assumed: on the development
#: VM with nothing else running (2 cores, load average 0.7-1.4), an MLP of ~2 ms, 1 s per run,
#: ``benchmarks/verdict_truth.py --pairs 20 --no-calibrate``: 20 pairs of identical runs in
#: fresh processes, back to back over 7 minutes, gave B/A from 0.78 to 1.80, an sd of the log
#: ratios of 0.20, so 0.14 a run (the issue's 5 pairs on this VM suggested ~0.14 too). Five
#: runs in a row spread less (0.015-0.127, ``--option``): runs minutes apart drift further. The
#: same VM under other developers' load gave 0.68-1.36. So one run per side claims no difference
#: under 1.96 · 0.14 · √2 in log terms (a ratio within ~1.5×), and the note names the commands
#: that can (``bench A --against B``; ``--repeat``). Stated in docs/cli.md and docs/performance.md.
DEFAULT_SIGMA = 0.14
#: Records kept per machine (the latest), and machines kept per file.
MAX_RECORDS = 20
MAX_MACHINES = 20
_MAX_FILE_BYTES = 1 << 20
ENV_FILE = "INSPECTOR_RUN_NOISE_FILE"


@dataclass(frozen=True)
class RunNoise:
    """The run-to-run noise a comparison assumes: ``sigma`` (sd of log run medians), from
    ``runs`` runs in ``records`` measurements (0: the default), the latest made ``when``;
    ``unread``: why the record file was not read (the default is then assumed)."""

    sigma: float
    runs: int = 0
    records: int = 0
    when: str | None = None
    #: Why the record was there but not read (a FIFO, a folder, too large, not JSON), in words;
    #: "" when it was read or there is none.
    unread: str = ""

    @property
    def measured(self) -> bool:
        return self.records > 0

    def percent(self) -> str:
        """``sigma`` as the typical run-to-run change, ``'±5 %'``."""
        return f"±{math.expm1(self.sigma):.0%}".replace("%", " %")


def default_noise() -> RunNoise:
    return RunNoise(DEFAULT_SIGMA)


def stated_noise() -> RunNoise:
    """The run-to-run noise a comparison of few runs assumes: the stated constant, the same on
    every machine whatever it ran before (its record is not read)."""
    return default_noise()


def log_medians(runs_ms: Sequence[Sequence[float] | np.ndarray]) -> np.ndarray:
    """The natural log of each run's median (runs with no positive median left out)."""
    medians = [float(np.median(np.asarray(r, dtype=np.float64))) for r in runs_ms if len(r)]
    return np.log(np.asarray([m for m in medians if m > 0 and math.isfinite(m)], dtype=np.float64))


def spread_of_runs(runs_ms: Sequence[Sequence[float] | np.ndarray]) -> tuple[float, int] | None:
    """(sd of the log run medians, degrees of freedom), or None under two runs."""
    logs = log_medians(runs_ms)
    if logs.size < 2:
        return None
    return float(np.std(logs, ddof=1)), int(logs.size - 1)


# --------------------------------------------------------------------------- the record


def record_path() -> Path:
    explicit = os.environ.get(ENV_FILE)
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "torch-device-inspector" / "run_noise.json"


def machine_key() -> str:
    """This machine, as its record is filed: host, CPU and core count (a resized VM is another)."""
    from inspector.core.devices.inventory import cpu_model_name

    return f"{socket.gethostname()} | {cpu_model_name() or platform.machine()} | {os.cpu_count() or 0} cores"


def _read(path: Path) -> tuple[dict[str, Any], str]:
    """The record's machines, and why it was not read ("" when it was, or is absent)."""
    # Read as a file the user names is (a FIFO, /dev/zero, a folder, a huge file: no record),
    # since anyone who can set the variable or write the cache folder chooses what is here.
    try:
        data = json.loads(read_regular_text(path, _MAX_FILE_BYTES))
    except FileNotFoundError:
        return {}, ""
    except NotRegularFile:
        return {}, Text("run_noise.record_not_regular", path=path)
    except IsADirectoryError:
        return {}, Text("run_noise.record_folder", path=path)
    except FileTooLarge:
        return {}, Text("run_noise.record_too_large", path=path, limit=format_bytes(_MAX_FILE_BYTES))
    except OSError as exc:
        return {}, Text("run_noise.record_unreadable", path=path, error=exc.strerror or exc)
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        return {}, Text("run_noise.record_damaged", path=path)
    machines = data.get("machines") if isinstance(data, dict) else None
    if not isinstance(machines, dict):
        return {}, Text("run_noise.record_damaged", path=path)
    return machines, ""


def _records(entry: Any) -> list[dict[str, Any]]:
    records = entry.get("records") if isinstance(entry, dict) else None
    if not isinstance(records, list):
        return []
    out = []
    for r in records[-MAX_RECORDS:]:
        if not isinstance(r, dict):
            continue
        sd, df = r.get("sd"), r.get("df")
        if isinstance(sd, (int, float)) and not isinstance(sd, bool) and math.isfinite(sd) and 0 <= sd < 10 \
                and isinstance(df, int) and not isinstance(df, bool) and 1 <= df <= 10_000:  # fmt: skip
            out.append({"sd": float(sd), "df": df, "when": r.get("when") if isinstance(r.get("when"), str) else None})
    return out


def this_machine(path: Path | None = None) -> RunNoise:
    """This machine's recorded run-to-run noise, pooled over its records; the default without one."""
    machines, unread = _read(path or record_path())
    records = _records(machines.get(machine_key()))
    if not records:
        return RunNoise(DEFAULT_SIGMA, unread=unread)
    df = sum(r["df"] for r in records)
    sigma = math.sqrt(sum(r["df"] * r["sd"] ** 2 for r in records) / df)
    return RunNoise(sigma, runs=df + len(records), records=len(records), when=records[-1]["when"])


def record(
    runs_ms: Sequence[Sequence[float] | np.ndarray], what: str = "", path: Path | None = None
) -> RunNoise | None:
    """Add what these runs (each in a fresh process) showed to this machine's record; the
    pooled noise afterwards, or None (under two runs, a file there that is not a record,
    or the file could not be written)."""
    spread = spread_of_runs(runs_ms)
    if spread is None:
        return None
    path = path or record_path()
    machines, unread = _read(path)
    if unread:  # never replace what is not a record of ours (a FIFO, a device, someone's file)
        return None
    key = machine_key()
    records = _records(machines.get(key))
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    records.append({"sd": spread[0], "df": spread[1], "when": now, "what": what[:200]})
    machines.pop(key, None)
    machines[key] = {"records": records[-MAX_RECORDS:]}
    kept = dict(list(machines.items())[-MAX_MACHINES:])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # As reports are written: a random temporary name opened O_EXCL | O_NOFOLLOW, then a rename.
        write_atomically(path, json.dumps({"version": 1, "machines": kept}, indent=1).encode("utf-8"))
    except OSError:
        return None
    return this_machine(path)
