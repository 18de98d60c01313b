"""Core's texts as ``messages.Text``: every template formats, converted raise sites keep their
English word for word (and carry their id), a Text survives pickling, copying and JSON, the
window's translation fills in the same arguments, and the CLI still prints plain English."""

import copy
import json
import pickle
import string
from pathlib import Path

import pytest
import torch

from inspector.cli import main
from inspector.core import messages
from inspector.core.errors import Cancelled, Failure, InputError, InspectorError
from inspector.core.messages import TEMPLATES, Text, fields, joined


# --------------------------------------------------------------------------- the catalogue


@pytest.mark.parametrize("key", sorted(TEMPLATES))
def test_every_template_formats_with_its_fields(key):
    template = TEMPLATES[key]
    parsed = list(string.Formatter().parse(template))
    # Named fields only: a translator moves {device}, never a bare {} or {0}.
    assert all(name is None or (name.isidentifier() and not conversion and not spec)
               for _, name, spec, conversion in parsed), template  # fmt: skip
    values = {name: f"<{name}>" for name in fields(template)}
    text = Text(key, **values)
    assert text == template.format(**values) and text.key == key and dict(text.args) == values
    for name in fields(template):
        assert f"<{name}>" in text


def test_ids_are_grouped_by_prefix():
    prefixes = {key.partition(".")[0] for key in TEMPLATES}
    assert prefixes <= {"list", "verdict", "noise", "time_left", "placement", "fit", "input", "failure", "bench",
                        "load", "write", "report", "device", "move", "price", "trust", "device_map", "environment", "remote",
                        "run_noise", "modules", "snippet", "cluster"}  # fmt: skip
    assert all(key.count(".") == 1 and key == key.lower() for key in TEMPLATES)


def test_a_missing_field_or_an_unknown_id_is_a_programming_error():
    with pytest.raises(TypeError, match="within"):
        Text("verdict.same_within")
    with pytest.raises(KeyError):
        Text("no.such_text")


def test_a_field_may_be_called_key():
    text = Text("load.note_checkpoint_entry", key="'model'")
    assert text == "model taken from the checkpoint's 'model' entry" and text.key == "load.note_checkpoint_entry"


# --------------------------------------------------------------------------- a Text as a str


def test_a_text_is_its_english_string_everywhere():
    text = Text("verdict.same_within", within="3%")
    assert text == "about the same (within 3%)" and isinstance(text, str)
    assert json.dumps({"verdict": text}) == '{"verdict": "about the same (within 3%)"}'
    assert f"{text}" == "about the same (within 3%)" and type(str(text)) is str
    assert repr(text) == "Text('verdict.same_within', 'about the same (within 3%)')"
    more = text + "!"  # concatenated: a plain str, English everywhere (give it a template instead)
    assert type(more) is str


def test_pickling_and_copying_keep_the_id_and_nested_arguments():
    text = Text("device.not_available", device="cuda:0", reason=Text("device.no_cuda_build", build="torch 2"))
    for again in (pickle.loads(pickle.dumps(text)), copy.copy(text), copy.deepcopy(text)):
        assert again == text and isinstance(again, Text) and again.key == text.key
        assert isinstance(again.args["reason"], Text) and again.args["reason"].key == "device.no_cuda_build"


def test_a_failure_keeps_the_text_and_survives_pickling():
    exc = InputError(Text("failure.no_model"))
    failure = Failure.from_exception(exc)
    assert isinstance(failure.message, Text) and failure.message.key == "failure.no_model"
    assert failure.message == "no model is loaded yet (open one with File › Open model…)"
    again = pickle.loads(pickle.dumps(failure))
    assert again == failure and again.message.key == "failure.no_model"
    assert str(exc) == failure.message


# --------------------------------------------------------------------------- translated


_ZH = {
    "device.not_available": "{device} 不可用：{reason}",
    "device.no_cuda_build": "此 PyTorch 构建不支持 CUDA（{build}）",
    "list.comma": "{first}、{rest}",
    "placement.device_tensors": "{device}（{count} 个张量）",
}


def _fake_translate(template):
    by_template = {TEMPLATES[key]: text for key, text in _ZH.items()}
    return by_template.get(template, template)


def test_translated_translates_nested_arguments_and_keeps_file_text():
    text = Text("device.not_available", device="cuda:0", reason=Text("device.no_cuda_build", build="torch 2"))
    assert text.translated(_fake_translate) == "cuda:0 不可用：此 PyTorch 构建不支持 CUDA（torch 2）"
    listed = joined([Text("placement.device_tensors", device=d, count=n) for d, n in (("cpu", 3), ("meta", 2), ("x", 1))])
    assert listed == "cpu (3 tensors), meta (2 tensors), x (1 tensors)"
    assert listed.translated(_fake_translate) == "cpu（3 个张量）、meta（2 个张量）、x（1 个张量）"


def test_a_translation_that_lost_a_field_falls_back_to_english():
    text = Text("verdict.same_within", within="3%")
    assert text.translated(lambda template: "差不多（{inside}）") == "about the same (within 3%)"
    assert text.translated(lambda template: "差不多（{0}）") == "about the same (within 3%)"


def test_joined():
    assert joined([]) == "" and joined(["a"]) == "a" and type(joined(["a"])) is str
    assert joined(["a", "b", "c"], "list.and") == "a and b and c"
    assert joined(["a", "b"], "list.semicolon") == "a; b"


# --------------------------------------------------------------------------- raise sites


def _raised(call, *args, **kwargs):
    with pytest.raises(InspectorError) as info:
        call(*args, **kwargs)
    return info.value.message


@pytest.mark.parametrize(
    ("text", "key", "english"),
    [
        ("", "input.shape_empty",
         "the input shape is empty: give sizes separated by commas, e.g. 1,3,224,224, or 10,32,512; 20,32,512 for two inputs"),
        ("1,x", "input.shape_not_numbers",
         "'1,x' is not an input shape: give whole numbers separated by commas, e.g. 1,3,224,224, or 10,32,512; "
         "20,32,512 for two inputs"),
        ("1,2;;", "input.empty_between", "'1,2;;' has an empty input between two ';'"),
        ("2,8:complex", "input.not_an_input_dtype",
         "'complex' is not an input dtype: use one of ..."),
        ("0,3", "input.shape_not_positive", "'0,3' is not an input shape: every size must be a positive whole number"),
    ],
)
def test_input_shape_errors(text, key, english):
    from inspector.core.files.inputs import INPUT_DTYPES, parse_inputs

    if key == "input.not_an_input_dtype":
        english = f"'complex' is not an input dtype: use one of {', '.join(INPUT_DTYPES)}"
    message = _raised(parse_inputs, text)
    assert isinstance(message, Text) and message.key == key and message == english


def test_model_loading_errors(tmp_path):
    from inspector.core.files.load_errors import untrusted
    from inspector.core.files.models import load_model, parse_spec

    message = _raised(parse_spec, "  ")
    assert message.key == "load.empty_spec"
    assert message == "empty model spec: give 'example', a model file, or module:factory"
    missing = tmp_path / "nothing.pt"
    message = _raised(load_model, str(missing))
    assert message.key == "load.no_such_file" and message == f"no such file: {missing}"
    empty = tmp_path / "empty.pt"
    empty.write_bytes(b"")
    message = _raised(load_model, str(empty))
    assert message.key == "load.incomplete" and message.args["reason"].key == "load.reason_empty"
    assert message == f"not a complete PyTorch checkpoint: {empty} (the file is empty)"
    wanted = tuple(f"evil.f{i}" for i in range(7))
    refusal = untrusted(Path("/m.pt"), wanted).message
    # functions run when the file loads: each is named for what it is, none left out
    assert refusal.key == "load.untrusted" and refusal.startswith(
        "refused to load /m.pt: loading it would run code it names (evil.f0 — a function: it runs when the file loads, ")
    assert all(f"evil.f{i} — a function" in str(refusal) for i in range(7)) and "more" not in str(refusal)
    assert str(refusal).endswith("none of it has run. If you trust this file, load it with --trust (CLI) or confirm in the GUI")
    classes = untrusted(Path("/m.pt"), tuple(f"evil.Block{i}" for i in range(7))).message
    assert classes == (
        "refused to load /m.pt: loading it would run code it names (evil.Block0, evil.Block1, evil.Block2, evil.Block3, "
        "evil.Block4 and 2 more, all listed by --debug in the CLI and Show Details in the window); none of it has run. "
        "If you trust this file, load it with --trust (CLI) or confirm in the GUI"
    )  # fmt: skip
    refusal = untrusted(Path("/m.pt"), ()).message
    assert refusal.key == "load.untrusted_unreadable" and refusal.startswith(
        "refused to load /m.pt: it is written in a way that safe (weights-only) loading does not read")


def test_a_factory_that_returns_the_wrong_thing(tmp_path):
    from inspector.core.files.models import load_model

    source = tmp_path / "maker.py"
    source.write_text("def make():\n    return (1, 2, 3)\n")
    message = _raised(load_model, f"{source}:make")
    assert message.key == "load.factory_returned" and message.args["value"].key == "load.value_a_of"
    assert message == f"factory {source}:make returned a tuple of 3 items, not an nn.Module or a (module, example_input) pair"


def test_no_model_loaded():
    from inspector.core.session import Session

    message = _raised(Session().require_model)
    assert message.key == "failure.no_model"
    assert message == "no model is loaded yet (open one with File › Open model…)"


def test_move_request_refusals():
    from inspector.core.moves.request import MoveRequest, check_request, parse_dtype

    message = _raised(check_request, MoveRequest("cpu", device="cuda:0"))
    assert message.key == "move.cpu_takes_no_device" and message == "model.cpu() takes no device (got 'cuda:0')"
    message = _raised(check_request, MoveRequest("to"))
    assert message.key == "move.to_needs_target" and message == "model.to() needs a target device, a dtype, or both"
    message = _raised(parse_dtype, "int3")
    assert message.key == "move.not_a_dtype" and message == (
        "'int3' is not a dtype a model can be cast to (use one of float32, float16, bfloat16, float64; "
        "bf16, fp16, fp32, fp64 also work)"
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal of a machine without CUDA")
def test_cuda_without_a_gpu_names_the_reason_and_the_portable_call():
    from inspector.core.devices.discovery import resolve_device
    from inspector.core.moves.request import MoveRequest, plan_move

    message = _raised(resolve_device, "cuda:0")
    assert message.key == "device.not_available" and message.args["reason"].key.startswith("device.no_cuda")
    assert message == f"cuda:0 is not available: {message.args['reason']}"
    message = _raised(plan_move, MoveRequest("cuda"))
    ours = message.args["message"]  # ours, then PyTorch's own words a script meets (issue 45 item 7)
    assert message.key == "move.pytorch_said" and ours.key == "move.cuda_needs_gpu"
    assert ours.startswith("model.cuda() needs a CUDA GPU, but ")
    assert ours.endswith('prefer model.to(device) with device = torch.device("cuda:0" if '
                         'torch.cuda.is_available() else "cpu"): it runs everywhere')  # fmt: skip
    try:
        torch.empty(0).cuda()
    except (AssertionError, RuntimeError) as exc:
        said = str(exc).splitlines()[0]
    assert message.endswith(f"PyTorch's own message, as a script meets it: “{said}”")


def test_device_map_errors(tmp_path):
    from inspector.core.moves.device_map_file import parse_device_map, read_device_map

    message = _raised(parse_device_map, {})
    assert message.key == "device_map.empty" and message == "the device map is empty: it names no module"
    message = _raised(parse_device_map, [])
    assert message.key == "device_map.not_an_object"
    assert message == 'a device map is a JSON object of module name -> device, e.g. {"encoder": 0, "decoder": "cpu"}'
    message = _raised(read_device_map, tmp_path / "none.json")
    assert message.key == "device_map.no_file" and message == f"no device map at {tmp_path / 'none.json'}: the file does not exist"
    message = _raised(parse_device_map, {"encoder": -1})
    assert message.key == "device_map.entry" and message.args["error"].key == "device_map.not_a_gpu_index"
    assert message == "device map entry 'encoder': -1 is not a GPU index (indices start at 0)"


def test_measurement_errors_and_cancel():
    from inspector.core.files.models import example_model
    from inspector.core.measure.timing import measure_latency

    loaded = example_model()
    message = _raised(measure_latency, loaded, mode="sideways")
    assert message.key == "input.unknown_mode" and message == "unknown mode 'sideways': use forward or train-step"
    message = _raised(measure_latency, loaded, input_shape=(64, 4))
    assert isinstance(message, Text) and message.key == "input.step_failed_shape"
    assert message.args["what"].key == "failure.what_forward" and message.args["hint"].key == "input.hint_last_dimension"
    assert message == ("the model's forward pass failed on an input of shape (64, 4): mat1 and mat2 shapes cannot be "
                       "multiplied (64x4 and 3x2) (the model expects the last dimension to be 3, not 4)")  # fmt: skip
    from inspector.core.measure.run_control import RunControl

    with pytest.raises(Cancelled) as info:
        measure_latency(loaded, runs=50, control=RunControl(should_cancel=lambda: True))
    assert info.value.message.key in ("failure.cancelled_warmup", "failure.cancelled_benchmark")
    assert info.value.message.endswith("; the model is unchanged")


def test_verdicts_and_time_left():
    from inspector.core.measure.spread import RatioEstimate, ratio_verdict
    from inspector.core.measure.time_left import time_left_text
    from inspector.core.report.compare import describe_ratio

    assert describe_ratio(0.5, "B").key == "verdict.faster" and describe_ratio(0.5, "B") == "B 2.00× faster"
    verdict = ratio_verdict(RatioEstimate(2.0), "B")
    assert verdict.key == "verdict.slower_unsure" and verdict == "B 2.00× slower? too few samples to tell"
    verdict = ratio_verdict(RatioEstimate(1.01, 1.005, 1.02), "B")
    assert verdict.key == "verdict.same_within" and verdict == "about the same (within 3%)"
    assert ratio_verdict(RatioEstimate(1.2, 0.9, 1.5), "B") == "no clear difference"
    assert time_left_text(75).key == "time_left.minutes_seconds" and time_left_text(75) == "about 1 min 15 s left"
    assert time_left_text(30) == "about 30 s left" and time_left_text(600) == "about 10 min left"


def test_run_verdicts_words():
    from inspector.core.report.run_verdicts import Run, run_verdicts

    fast = Run("cpu · float32", "float32", "forward", (64, 3), 1.0, tuple(1.0 + i * 1e-4 for i in range(50)))
    slow = Run("meta · float32", "float32", "forward", (64, 3), 2.0, tuple(2.0 + i * 1e-4 for i in range(50)))
    odd = Run("cpu · float64", "float64", "train-step", (64, 3), 3.0)
    first, second, third = run_verdicts([fast, slow, odd])
    assert first.short == "fastest" and first.short.key == "verdict.fastest"
    assert second.short == "2.00× slower" and second.short.key == "verdict.factor_slower"
    assert second.sentence.key == "verdict.run_slower"
    assert second.sentence.startswith("meta · float32: 2.00× slower than cpu · float32 (95 % CI ")
    assert third.short == "not compared" and third.sentence.key == "verdict.run_not_compared"
    assert third.sentence == (
        "cpu · float64: not compared with cpu · float32 (mode: train-step vs forward; dtype: float64 vs float32): "
        "only runs alike in mode, dtype and input shape are compared"
    )


def test_optimizer_state_finding_is_a_text():
    from inspector.core.files.models import example_model
    from inspector.core.placement.tensor_rows import snapshot

    loaded = example_model()
    loaded.optimizer = torch.optim.SGD(loaded.module.parameters(), lr=0.1, momentum=0.9)
    loaded.module(loaded.example_input).sum().backward()
    loaded.optimizer.step()
    loaded.module.to(torch.float64)
    [finding] = snapshot(loaded).warnings
    assert finding.message.key == "placement.optimizer_state_dtype"
    assert finding.message.args["names"].key == "list.and_more"
    assert finding.message == (
        "The optimizer's state stayed in float32 while the model is in float64: 4 optimizer-state tensors "
        "(fc1.weight.momentum_buffer, fc1.bias.momentum_buffer, fc2.weight.momentum_buffer and 1 more). "
        "Module.to() does not move optimizer state; depending on the optimizer, the next optimizer.step() stops "
        "with a dtype error (Adam, AdamW) or runs with this state still in float32 (SGD), without a word. "
        "Load the optimizer's state_dict again (it follows each parameter's device and dtype), "
        "or create the optimizer after moving the model."
    )
    assert json.loads(json.dumps(finding.to_dict()))["message"] == finding.message


@pytest.mark.parametrize(("name", "stops"), [("SGD", False), ("Adam", True), ("AdamW", True)])
def test_what_the_dtype_finding_says_of_the_next_step_is_what_torch_does(name, stops):
    """The finding names Adam and AdamW as stopping and SGD as running on: so they do."""
    net = torch.nn.Linear(3, 2)
    optimizer = getattr(torch.optim, name)(net.parameters(), lr=0.01, **({"momentum": 0.9} if name == "SGD" else {}))
    net(torch.randn(4, 3)).sum().backward()
    optimizer.step()
    net.to(torch.float64)
    net(torch.randn(4, 3, dtype=torch.float64)).sum().backward()
    if stops:
        with pytest.raises(RuntimeError, match="dtype"):
            optimizer.step()
    else:
        optimizer.step()
        kept = [t.dtype for s in optimizer.state.values() for t in s.values() if t.dim()]
        assert kept and set(kept) == {torch.float32}


def test_fit_notes_and_reasons_are_texts():
    from inspector.core.files.models import example_model
    from inspector.core.measure.fit import FitRequest, estimate_fit

    result = estimate_fit(example_model(), FitRequest("cpu", optimizer="sgd", mode="forward", measure=False))
    assert [n.key for n in result.notes] == ["fit.forward_no_optimizer", "fit.model_lives_there"]
    assert result.measured_reason.key == "fit.reason_not_asked"
    assert result.measured_reason == "not measured (the proof was not asked for)"
    assert json.loads(json.dumps(result.to_dict()))["notes"][0] == (
        "a forward pass holds no gradients or optimizer state: both are 0 in forward mode")


# --------------------------------------------------------------------------- the CLI stays English


def test_the_cli_prints_the_same_english(capsys, tmp_path):
    assert main(["bench", "--device", "cpu", "--input-shape", "1,2;;"]) == 2
    assert capsys.readouterr().err == "error: '1,2;;' has an empty input between two ';'\n"
    missing = tmp_path / "nothing.pt"
    assert main(["inspect", str(missing)]) == 2
    assert capsys.readouterr().err == f"error: no such file: {missing}\n"
    assert main(["inspect", "--device-map", str(tmp_path / "map.json")]) == 2
    assert capsys.readouterr().err == f"error: no device map at {tmp_path / 'map.json'}: the file does not exist\n"


def test_core_never_imports_qt():
    for part in Path(messages.__file__).parent.glob("*.py"):  # the package and its catalogue's parts
        source = part.read_text()
        assert "PySide6" not in source and "QT_TRANSLATE_NOOP" not in source, part.name
