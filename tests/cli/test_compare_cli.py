"""``compare A.json B.json [--json]``: ratios with confidence intervals, like with like,
and one ``error:`` line (exit 2) for a file that is no report."""

from __future__ import annotations

import json

import numpy as np
import pytest

from inspector.cli import main
from inspector.core.files.models import example_model
from inspector.core.report.timing_report import build_report, save_report
from inspector.core.measure.spread import spread_of
from tests.core.report.generated import with_samples
from tests.report_edge import typed


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def base():
    return build_report(example_model())


def _entry(samples, *, device="cpu", mode="forward", shape=(64, 3)):
    spread = spread_of(samples)
    return {
        "device": device, "dtype": "float32", "mode": mode, "input_shape": list(shape),
        "warmup_ms": samples[0], "warmup_samples_ms": samples[:3], "samples_ms": samples,
        "median_ms": float(np.median(samples)), "p5_ms": float(np.percentile(samples, 5)),
        "p95_ms": float(np.percentile(samples, 95)), "iqr_ms": spread.iqr_ms,
        "median_ci_ms": list(spread.median_ci_ms), "noisy": spread.noisy, "noise": spread.noise,
    }  # fmt: skip


def _samples(median, seed):
    return (median * np.random.default_rng(seed).lognormal(0.0, 0.1, 300)).tolist()


def _save(base, tmp_path, name, *entries):
    report = json.loads(json.dumps(base))
    report["latency"] = list(entries)
    return str(save_report(typed(report), tmp_path / name))


def test_two_reports_of_the_same_model_and_machine_show_no_clear_difference(capsys, base, tmp_path):
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    b = _save(base, tmp_path, "b.json", _entry(_samples(0.036, 2)))
    code, out, err = run(capsys, "compare", a, b)
    assert code == 0 and err == ""
    assert "no clear difference" in out and "slower" not in out
    code, out, _ = run(capsys, "compare", a, b, "--json")
    [row] = json.loads(out)["latency"]
    assert row["ratio_low"] < 1 < row["ratio_high"] and row["verdict"] == "no clear difference"


def test_a_model_twice_as_slow_compares_as_slower_with_an_interval_excluding_one(capsys, base, tmp_path):
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    b = _save(base, tmp_path, "b.json", _entry(_samples(0.072, 2)))
    code, out, _ = run(capsys, "compare", a, b, "--json")
    [row] = json.loads(out)["latency"]
    assert code == 0
    assert 1 < row["ratio_low"] <= row["ratio"] <= row["ratio_high"] and 1.8 < row["ratio"] < 2.2
    assert row["verdict"] == f"B {row['ratio']:.2f}× slower"
    code, out, _ = run(capsys, "compare", a, b)
    assert f"B {row['ratio']:.2f}× slower" in out and f"{row['ratio_low']:.2f}–{row['ratio_high']:.2f}×" in out


def test_forward_and_train_step_are_never_given_a_plain_ratio(capsys, base, tmp_path):
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    b = _save(base, tmp_path, "b.json", _entry(_samples(0.75, 2), mode="train-step"))
    code, out, _ = run(capsys, "compare", a, b, "--json")
    rows = json.loads(out)["latency"]
    assert code == 0 and all(r["ratio"] is None for r in rows)
    assert [r["verdict"] for r in rows] == [
        "not compared: B's cpu run differs in mode (forward vs train-step)",
        "not compared: A's cpu run differs in mode (train-step vs forward)",
    ]
    code, out, _ = run(capsys, "compare", a, b)
    assert "×" not in out.split("VERDICT", 1)[1].split("\n\n")[0]  # no ratio anywhere in the latency table


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not json at all", "it is not JSON"),
        (b'{"schema_version": 99, "created": ""}', "newer"),
        (b'{"schema_version": 2, "created": "x"}', "lacks environment"),
        (b"\xff\xfe\x00garbage", "not a text file"),
    ],
)
def test_a_file_that_is_no_report_is_one_error_line_and_exit_2(capsys, base, tmp_path, content, says):
    good = _save(base, tmp_path, "good.json", _entry(_samples(0.036, 1)))
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    code, out, err = run(capsys, "compare", good, str(bad))
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    assert line.startswith("error: ") and says in line


def test_hostile_text_in_a_report_is_escaped_and_a_bad_interval_is_refused(capsys, base, tmp_path):
    entry = _entry(_samples(0.036, 1), device="cpu\x1b[31m\nfake line")
    a = _save(base, tmp_path, "a.json", entry)
    code, out, err = run(capsys, "compare", a, a)
    assert code == 0 and "\x1b" not in out and "\\x1b" in out and "\nfake line" not in out
    broken = json.loads(json.dumps(base))
    broken["latency"] = [{**_entry(_samples(0.036, 1)), "median_ci_ms": [2.0, 1.0, "x"]}]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    code, out, err = run(capsys, "compare", a, str(path))
    assert code == 2 and "latency[0].median_ci_ms" in err and len(err.strip().splitlines()) == 1


def test_a_missing_file_and_a_missing_argument_are_bad_usage(capsys, tmp_path):
    code, _, err = run(capsys, "compare", str(tmp_path / "nope.json"), str(tmp_path / "nope2.json"))
    assert code == 2 and err.startswith("error: no report at")
    with pytest.raises(SystemExit) as exited:
        main(["compare", str(tmp_path / "a.json")])
    assert exited.value.code == 2


# ----- issue 32: the same file twice, a byte-order mark, a lying median (item 16)


def test_the_same_file_twice_is_the_same_measurement_not_a_ratio_of_too_few_samples(capsys, base, tmp_path):
    entry = with_samples({"device": "cpu", "dtype": "float32", "mode": "forward", "input_shape": [64, 3]},
                         _samples(0.036, 1)[:5])  # the tester's: too few samples for an interval  # fmt: skip
    few = _save(base, tmp_path, "r.json", entry)
    copy = tmp_path / "copy.json"
    copy.write_bytes((tmp_path / "r.json").read_bytes())
    for other in (few, str(copy)):
        code, out, err = run(capsys, "compare", few, other)
        assert code == 0 and err == ""
        assert "A and B hold the same measurements (identical samples): there is no difference to measure" in out
        assert "slower" not in out and "too few samples" not in out
        assert "the same measurement (identical samples)" in out
    code, out, _ = run(capsys, "compare", few, few, "--json")
    assert json.loads(out)["same_measurement"] is True


def test_a_report_saved_with_a_byte_order_mark_is_compared(capsys, base, tmp_path):
    """The reader's choice (load_report): UTF-8, a leading UTF-8 byte-order mark allowed (RFC
    8259 lets a parser ignore it; Windows editors write one); any other encoding is refused."""
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + (tmp_path / "a.json").read_bytes())
    code, out, err = run(capsys, "compare", str(bom), a)
    assert code == 0 and err == "" and "not JSON" not in out
    utf16 = tmp_path / "utf16.json"
    utf16.write_bytes((tmp_path / "a.json").read_text(encoding="utf-8").encode("utf-16"))  # BOM FF FE
    code, out, err = run(capsys, "compare", str(utf16), a)
    assert code == 2 and out == "" and err == f"error: {utf16} is not a timing report: it is not a text file\n"


def test_a_median_its_samples_contradict_is_refused_not_believed(capsys, base, tmp_path):
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    lie = {**_entry(_samples(0.072, 2)), "median_ms": 0.036 / 17_302_500}
    b = _save(base, tmp_path, "b.json", lie)
    code, out, err = run(capsys, "compare", a, b)
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    assert line.startswith("error: ") and "latency[0].median_ms: says 2.08062e-09 ms, but its 300 samples give 0.07" in line


# ----- issue 43, item 13: samples below any clock's resolution


@pytest.mark.parametrize("tiny", [1e-12, 1e-300, 5e-324])
def test_a_sample_under_one_nanosecond_is_refused_naming_the_file_and_field(capsys, base, tmp_path, tiny):
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    hostile = json.loads(json.dumps(base))
    hostile["latency"] = [with_samples(_entry(_samples(0.036, 2)), [tiny] * 20)]
    b = str(tmp_path / "b.json")
    (tmp_path / "b.json").write_text(json.dumps(hostile))  # not through save_report: the schema refuses it too
    code, out, err = run(capsys, "compare", a, b)
    assert code == 2 and out == ""
    assert err == (f"error: {b} is not a valid timing report: latency[0].samples_ms[0]: {tiny:g} ms is under 1 ns, "
                   "finer than any clock measures (a sample is 0 or at least 1e-06 ms)\n")  # fmt: skip


def test_a_median_of_zero_says_why_there_is_no_verdict(capsys, base, tmp_path):
    a = _save(base, tmp_path, "a.json", _entry(_samples(0.036, 1)))
    b = _save(base, tmp_path, "b.json", with_samples(_entry(_samples(0.036, 2)), [0.0] * 20))
    code, out, err = run(capsys, "compare", a, b)
    assert code == 0 and err == ""
    assert "no verdict: a median of 0 ms in B (calls shorter than the clock shows): no ratio to take" in out


def test_a_ratio_past_a_million_is_written_with_an_exponent(capsys, base, tmp_path):
    # (A's samples steady enough not to be flagged noisy: a noisy single run gets no verdict)
    a = _save(base, tmp_path, "a.json", with_samples(_entry(_samples(0.036, 1)), [1.4e-6, 1.6e-6] * 10))
    b = _save(base, tmp_path, "b.json", with_samples(_entry(_samples(0.036, 2)), [3e4, 3.1e4] * 10))
    code, out, err = run(capsys, "compare", a, b)
    assert code == 0 and err == ""
    [row] = [line for line in out.splitlines() if line.startswith("cpu ")]
    assert "B 2.03e+10× slower" in row and " 2.03e+10 " in row
    assert not any(len(word) > 12 and word.replace(".", "").isdigit() for word in row.split())
