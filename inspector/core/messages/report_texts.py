"""Core's texts about reports: comparison verdicts, writing and opening one, environment rows."""

from __future__ import annotations

#: How two latency figures compare, and the runs of one session (``report.compare``, ``run_verdicts``).
VERDICTS: dict[str, str] = {
    # ----- verdicts: how two latency figures compare (measure.spread, report.compare)
    "verdict.slower": "{label} {factor}× slower",
    "verdict.faster": "{label} {factor}× faster",
    "verdict.slower_unsure": "{label} {factor}× slower? too few samples to tell",
    "verdict.faster_unsure": "{label} {factor}× faster? too few samples to tell",
    "verdict.unclear": "no clear difference",
    "verdict.same_within": "about the same (within {within})",
    "verdict.same": "about the same",
    "verdict.noisy_one": "{verdict} ({label} noisy: may not repeat)",
    "verdict.within_run_noise": "no clear difference: within run-to-run noise ({floor})",
    "verdict.machine_too_busy": (
        "no verdict: the machine stalled the sampling threads in {spoiled} of {rounds} rounds, so the medians are "
        "the machine's, not the code's; rerun on a quieter machine"
    ),
    # a side of fewer than 3 runs whose samples are flagged noisy supports no claim (measure.run_ratio)
    "verdict.too_noisy_one": (
        "no verdict: {label}'s run is too noisy to tell (flagged noisy, under {least} runs); "
        "bench A --against B, or bench --repeat 5 on each side on a quieter machine, can tell"
    ),
    "verdict.too_noisy_both": (
        "no verdict: {label_a}'s and {label_b}'s runs are too noisy to tell (flagged noisy, under {least} runs); "
        "bench A --against B, or bench --repeat 5 on each side on a quieter machine, can tell"
    ),
    # ----- the run-to-run noise a comparison of few runs assumes (report.compare, measure.run_noise)
    "run_noise.one_run_each": (
        "one run on each side: how far a rerun lands is unknown, so no difference under {floor} is claimed ({source})"
    ),
    "run_noise.few_runs": (
        "{label_a} holds {runs_a} runs and {label_b} {runs_b}: fewer than {least} cannot show how far a rerun lands, "
        "so no difference under {floor} is claimed ({source})"
    ),
    "run_noise.runs_agree": (
        "the runs of {label_a} and {label_b} agree more closely than this machine's usually do: "
        "no difference under {floor} is claimed ({source})"
    ),
    "run_noise.paired": (
        "{label_a} and {label_b} were timed turn about in {rounds} rounds, each in a fresh process: "
        "the interval is that of the rounds' ratios, so it sees how far a rerun lands"
    ),
    "run_noise.measured": "this machine's run-to-run noise, {percent} a run, measured by bench --repeat in {runs} runs, last on {when}",
    "run_noise.stated": (
        "run-to-run noise of {percent} a run: a constant stated for separate benches minutes apart (measured on a "
        "quiet 2-core VM, docs/cli.md), the same whatever this machine ran before; bench A --against B (turn about, "
        "fresh processes) or bench --repeat 5 on each side can tell a smaller difference"
    ),
    "run_noise.from_runs": "the spread of {label}'s two runs, {percent} a run",
    "run_noise.pairs_differ": (
        "{label_a} and {label_b} come from different interleaved comparisons (their pair_id differ): "
        "their runs are compared as runs apart, not round by round"
    ),
    "run_noise.pair_incomplete": (
        "{label_a} and {label_b} are one interleaved comparison but hold {runs_a} and {runs_b} runs: "
        "their runs are compared as runs apart, not round by round"
    ),
    "run_noise.record_not_regular": "this machine's noise record {path} is not a regular file and was not read",
    "run_noise.record_folder": "this machine's noise record {path} is a folder and was not read",
    "run_noise.record_too_large": "this machine's noise record {path} is larger than {limit} and was not read",
    "run_noise.record_unreadable": "this machine's noise record {path} could not be read ({error})",
    "run_noise.record_damaged": "this machine's noise record {path} is not a noise record (not the JSON this app writes) and was not read",
    "verdict.noisy_both": "{verdict} ({label_a} and {label_b} noisy: may not repeat)",
    "verdict.only_in": "only in {label}",
    "verdict.no_samples": "no verdict: no usable samples in {labels}",
    "verdict.zero_median": "no verdict: a median of 0 ms in {labels} (calls shorter than the clock shows): no ratio to take",
    "verdict.no_ratio": "no verdict: the two medians give no ratio",
    "verdict.same_measurement": "the same measurement (identical samples)",
    "verdict.same_report": (
        "{label_a} and {label_b} hold the same measurements (identical samples): there is no difference to measure"
    ),
    "verdict.not_compared_differs": "not compared: {label}'s {device} run differs in {differences}",
    "verdict.differs_dtype": "dtype ({mine} vs {theirs})",
    "verdict.differs_mode": "mode ({mine} vs {theirs})",
    "verdict.differs_input_shape": "input shape ({mine} vs {theirs})",
    # ----- the runs of one session compared (report.run_verdicts: the Summary tab's bars and lines)
    "verdict.fastest": "fastest",
    "verdict.not_compared": "not compared",
    "verdict.factor_slower": "{factor}× slower",
    "verdict.factor_faster": "{factor}× faster",
    "verdict.run_slower": "{run}: {factor}× slower than {reference} (95 % CI {interval})",
    "verdict.run_faster": "{run}: {factor}× faster than {reference} (95 % CI {interval})",
    "verdict.run_slower_unsure": "{run}: {factor}× slower than {reference}? too few samples to tell",
    "verdict.run_faster_unsure": "{run}: {factor}× faster than {reference}? too few samples to tell",
    "verdict.run_unclear": "{run}: no clear difference from {reference} (95 % CI {interval})",
    "verdict.run_within_noise": (
        "{run}: no clear difference from {reference}: within run-to-run noise ({floor}; 95 % CI {interval}); "
        "a repeat of 3 or more shows this machine's own"
    ),
    "verdict.too_noisy": "too noisy to tell",
    "verdict.run_too_noisy": (
        "{run}: no verdict against {reference}: too noisy to tell ({labels} flagged noisy, under {least} runs); "
        "a repeat of 5 on a quieter machine, or bench A --against B, can tell"
    ),
    "verdict.run_same_within": "{run}: about the same (within {within}) from {reference} (95 % CI {interval})",
    "verdict.run_not_compared": (
        "{run}: not compared with {other} ({differences}): only runs alike in mode, dtype and input shape are compared"
    ),
    "verdict.run_differs_mode": "mode: {mine} vs {theirs}",
    "verdict.run_differs_dtype": "dtype: {mine} vs {theirs}",
    "verdict.run_differs_input": "input: {mine} vs {theirs}",
    # the window's Summary tab also compares dtypes on one device (gui.plots.summary_verdicts)
    "verdict.run_differs_device": "device: {mine} vs {theirs}",
    "verdict.summary_not_compared": (
        "{run}: not compared with {other} ({differences}): runs are compared in the same mode and input shape, "
        "on one device or in one dtype"
    ),
    "verdict.run_not_alike": "not alike",
}

#: Writing a report and opening one again (``files.output_path``, ``report.timing_report``).
REPORT_FILES: dict[str, str] = {
    # ----- writing a report (files.output_path, report.timing_report)
    "write.not_a_folder": "{folder} is not a folder",
    "write.is_folder": "it is a folder, give a file name in it",
    "write.not_regular": "it is not a regular file",
    "write.read_only": "the file exists and is read-only",
    "write.report_suffix": "cannot save a report as {name}: the file name must end in {suffixes}",
    "write.report_failed": "could not write the report to {path}: {reason}",
    "write.no_folder": "the folder {folder} does not exist",
    "write.path_is_folder": "{path} is a folder",
    "write.no_permission": "no permission to write in {folder}",
    "write.read_only_fs": "{folder} is on a read-only file system",
    "write.disk_full": "the disk is full",
    "write.name_too_long": (
        "the file name is {length} bytes long, and at most {most} fit in this folder (the file is first written "
        "under a temporary name {extra} bytes longer)"
    ),
    "write.name_too_long_here": "the file name ({length} bytes) is too long for this folder",
    "write.path_too_long": "the path is {length} bytes long, more than this system takes",
    "write.metrics_failed": "could not write the metrics to {path}: {reason}",
    # ----- opening a report (report.timing_report)
    "report.is_folder": "{path} is a folder, not a report",
    "report.no_file": "no report at {path}: the file does not exist",
    "report.cannot_read": "could not read {path}: {error}",
    "report.not_a_report": "{path} is not a timing report: {why}",
    "report.not_a_report_json_only": "{path} is not a timing report: {why} (only .json reports can be opened again)",
    "report.not_regular": "it is not a regular file",
    "report.too_large": "it is {size}, more than the {limit} a report can be",
    "report.grew_too_large": "it is more than the {limit} a report can be",
    "report.not_text": "it is not a text file",
    "report.not_json": "it is not JSON",
    "report.number_too_long": "it holds a number too long to read",
    "report.nested_too_deeply": "it is nested too deeply",
    "report.no_schema_version": "it has no schema_version",
    "report.bad_schema_version": "its schema_version {version} is not a positive whole number",
    "report.newer_schema": (
        "{path} was written by a newer torch-device-inspector (report schema {version}; "
        "this version reads up to {supported}): update torch-device-inspector to open it"
    ),
    "report.lacks": "it lacks {keys}",
    "report.invalid": "{path} is not a valid timing report: {error}",
}

#: The compare view's Environment table (``report.compare_environment``).
ENVIRONMENT: dict[str, str] = {
    # ----- the compare view's Environment table (report.compare_environment): row names
    "environment.created": "Created",
    "environment.driver": "Driver",
    "environment.cpu_cores": "CPU cores",
    "environment.cpu_threads": "CPU threads",
    "environment.torch_threads": "PyTorch threads",
    "environment.torch_interop_threads": "PyTorch inter-op threads",
    "environment.system_memory": "System memory",
    "environment.cpu_huge_pages": "CPU huge pages",
    "environment.model": "Model",
    "environment.class": "Class",
    "environment.parameters": "Parameters",
    "environment.size": "Size",
    "environment.dtypes": "Dtypes",
    "environment.optimizer": "Optimizer",
}
