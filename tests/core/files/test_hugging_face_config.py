"""What a config.json may declare and name (issue 43, items 3, 4, 5, 11 and the Low items):
each refusal is one ModelLoadError naming the field, before anything is built from it."""

import json
import tracemalloc

import pytest

from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.files.models import load_model
from tests.hf_folders import CONFIGS, guard_sockets, llama_with, parameters_in_closed_form

transformers = pytest.importorskip("transformers")


def refusal(folder) -> str:
    with pytest.raises(ModelLoadError) as refused:
        load_model(str(folder))
    return str(refused.value)


# --------------------------------------------------------------------------- item 3


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"attn_implementation": "kernels-community/flash-attn"}, "attn_implementation is 'kernels-community/flash-attn'"),
        ({"attn_implementation": {"": "kernels-community/flash-attn"}}, "attn_implementation is 'kernels-community/"),
        ({"_attn_implementation": "org/kernel@v1:forward"}, "_attn_implementation is 'org/kernel@v1:forward'"),
        ({"text_config": {"attn_implementation": "org/kernel"}}, "text_config.attn_implementation is 'org/kernel'"),
        ({"attn_implementation": "paged|org/kernel"}, "attn_implementation is 'paged|org/kernel'"),
        ({"experts_implementation": "org/experts"}, "experts_implementation is 'org/experts'"),
        ({"quantization_config": {"quant_method": "evil"}}, "quantization_config.quant_method is 'evil'"),
    ],
)
def test_a_runtime_name_transformers_does_not_ship_is_refused_untrusted_and_nothing_connects(
    tmp_path, monkeypatch, fields, named
):
    tried = guard_sockets(monkeypatch)
    with pytest.raises(UntrustedFileError) as refused:
        load_model(str(llama_with(tmp_path, "kernel", **fields)))
    message = str(refused.value)
    assert named in message and "not built into transformers" in message and "--trust" in message
    assert "\n" not in message and tried == []


@pytest.mark.parametrize("name", ["eager", "sdpa", "paged|eager"])
def test_built_in_attention_passes_offline(tmp_path, monkeypatch, name):
    tried = guard_sockets(monkeypatch)
    loaded = load_model(str(llama_with(tmp_path, "plain", attn_implementation=name)))
    assert sum(p.numel() for p in loaded.module.parameters()) == parameters_in_closed_form("llama")
    assert tried == []


def test_flash_attention_without_its_package_would_be_a_hub_kernel(tmp_path):
    from transformers.utils import is_flash_attn_2_available, is_kernels_available

    if is_flash_attn_2_available() or not is_kernels_available():
        pytest.skip("transformers falls back to a Hub kernel only without flash_attn and with kernels")
    with pytest.raises(UntrustedFileError, match="flash_attention_2', whose package is not installed here"):
        load_model(str(llama_with(tmp_path, "flash", attn_implementation="flash_attention_2")))


def test_every_load_leaves_the_hub_offline(tmp_path):
    import os

    load_model(str(llama_with(tmp_path, "plain")))
    from huggingface_hub import constants

    assert constants.HF_HUB_OFFLINE and constants.HF_HUB_DISABLE_TELEMETRY
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["USE_HUB_KERNELS"] == "NO"


# --------------------------------------------------------------------------- item 4


@pytest.mark.parametrize("name", ["Trainer", "pipeline", "set_seed", "enable_full_determinism", "AutoTokenizer",
                                  "AutoModel", "__version__"])  # fmt: skip
def test_architectures_names_only_model_classes_and_nothing_else_is_called(tmp_path, monkeypatch, name):
    called = []
    monkeypatch.setattr(transformers, name, lambda *a, **k: called.append(a), raising=False)
    message = refusal(llama_with(tmp_path, "arch", architectures=[name]))
    assert f"architectures names {name!r}, which is not a model class" in message
    assert called == []


@pytest.mark.parametrize("value", [None, "LlamaForCausalLM", [1], {"a": "LlamaForCausalLM"}])
def test_architectures_must_be_a_list_of_names(tmp_path, value):
    if value is None:  # null: transformers' default (the auto class of model_type)
        assert load_model(str(llama_with(tmp_path, "arch", architectures=None))).module is not None
        return
    assert "architectures is" in refusal(llama_with(tmp_path, "arch", architectures=value))


# --------------------------------------------------------------------------- items 5 and 11


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("num_hidden_layers", 5000),
        ("hidden_size", 10**7),
        ("num_attention_heads", 10**5),
        ("num_key_value_heads", 10**5),
        ("intermediate_size", 10**7),
        ("vocab_size", 10**8),
        ("max_position_embeddings", 10**9),
        ("head_dim", 10**6),
    ],
)
def test_a_size_past_every_published_model_is_refused_naming_it(tmp_path, field, value):
    message = refusal(llama_with(tmp_path, "big", **{field: value}))
    assert f"config.json's {field} is {value:,}, more than" in message and "published models use" in message


def test_a_nested_config_is_bounded_too(tmp_path):
    message = refusal(llama_with(tmp_path, "nested", text_config={"num_hidden_layers": 10**9}))
    assert "config.json's text_config.num_hidden_layers is 1,000,000,000" in message


def test_experts_times_layers_are_bounded(tmp_path):
    folder = llama_with(tmp_path, "moe", model_type="mixtral", architectures=["MixtralForCausalLM"],
                        num_local_experts=16384, num_hidden_layers=24)  # fmt: skip
    message = refusal(folder)
    assert "24 layers of 16,384 experts (393,216 expert blocks), more than 131,072" in message


def test_the_largest_published_sizes_still_build(tmp_path):
    """Llama 3.1 405B's own config (126 layers, hidden 16,384, vocabulary 128,256) on meta."""
    folder = llama_with(tmp_path, "405b", num_hidden_layers=126, hidden_size=16384, intermediate_size=53248,
                        num_attention_heads=128, num_key_value_heads=8, vocab_size=128256,
                        max_position_embeddings=131072, torch_dtype="bfloat16")  # fmt: skip
    parameters = sum(p.numel() for p in load_model(str(folder)).module.parameters())
    assert 405e9 < parameters < 406e9


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("num_hidden_layers", -5, "-5"),
        ("num_hidden_layers", 0, "0"),
        ("num_attention_heads", 4.5, "4.5"),
        ("hidden_size", 64.0, "64.0"),
        ("vocab_size", "1000", '"1000"'),
        ("intermediate_size", True, "true"),
        ("num_key_value_heads", [2, -1], "-1"),
    ],
)
def test_a_count_that_is_not_a_positive_whole_number_is_refused_naming_it(tmp_path, field, value, shown):
    message = refusal(llama_with(tmp_path, "odd", **{field: value}))
    assert f"config.json's {field} is {shown}: it must be a whole number, at least" in message
    assert "Error" not in message  # not transformers' StrictDataclassFieldValidationError


def test_a_config_with_a_million_layers_is_refused_without_building_a_module(tmp_path, monkeypatch):
    import torch

    built = []

    def counted(self, *args, **kwargs):
        built.append(type(self).__name__)
        raise RuntimeError("a module was built")  # ends a build that would run for an hour

    monkeypatch.setattr(torch.nn.Module, "__init__", counted)
    assert "num_hidden_layers is 1,000,000" in refusal(llama_with(tmp_path, "million", num_hidden_layers=10**6))
    assert built == []


# --------------------------------------------------------------------------- the Low items


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"auto_map": None}, "config.json's auto_map is null, not an object"),
        ({"auto_map": ["x.Y"]}, "config.json's auto_map is a list of 1 items, not an object"),
        ({"dtype": "<junk>"}, 'config.json\'s dtype is "<junk>", not a floating-point dtype'),
        ({"torch_dtype": "Tensor"}, 'config.json\'s torch_dtype is "Tensor", not a floating-point dtype'),
        ({"torch_dtype": "int8"}, 'config.json\'s torch_dtype is "int8", not a floating-point dtype'),
        ({"quantization_config": "gptq"}, "config.json's quantization_config is \"gptq\", not an object"),
        ({"attn_implementation": 3}, "config.json's attn_implementation is 3, not a name, or an object of names"),
        ({"rms_norm_eps": "x"}, "config.json could not be read: Validation error for field 'rms_norm_eps'"),
    ],
)
def test_a_value_of_the_wrong_type_is_one_line_naming_the_field(tmp_path, fields, said):
    message = refusal(llama_with(tmp_path, "typed", **fields))
    assert said in message and "\n" not in message


def test_the_dtype_is_read_from_dtype_then_torch_dtype(tmp_path):
    import torch

    folder = llama_with(tmp_path, "dtype", torch_dtype="float16", dtype="bfloat16")
    assert {p.dtype for p in load_model(str(folder)).module.parameters()} == {torch.bfloat16}
    folder = llama_with(tmp_path, "old", torch_dtype="float16")
    assert {p.dtype for p in load_model(str(folder)).module.parameters()} == {torch.float16}


# --------------------------------------------------------------------------- config.json itself, read with bounds


def test_a_config_past_the_size_bound_is_refused_unread(tmp_path):
    folder = llama_with(tmp_path, "huge")
    with open(folder / "config.json", "r+b") as config:
        config.truncate(64 * 2**20)  # sparse: no disk, 64 MiB to anyone who reads it
    tracemalloc.start()
    try:
        message = refusal(folder)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "config.json is 64.0 MiB, more than the 4.0 MiB a config.json may be" in message
    assert peak < 4 * 2**20  # never read


def test_too_many_keys_are_refused(tmp_path):
    folder = llama_with(tmp_path, "keys")
    extra = ",".join(f'"k{i}":0' for i in range(300_000))  # 3.3 MB: under the size bound
    text = (folder / "config.json").read_text()
    (folder / "config.json").write_text(text[:-1] + "," + extra + "}")
    assert "has more than 262,144 keys" in refusal(folder)


def test_deep_nesting_is_refused_before_json_recurses(tmp_path):
    folder = llama_with(tmp_path, "deep")
    text = (folder / "config.json").read_text()
    (folder / "config.json").write_text(text[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    message = refusal(folder)
    assert "config.json nests deeper than 32 levels" in message
    brackets = ', "x": "[[[[[" , "y": ' + "[" * 30 + "]" * 30 + "}"  # brackets in a string do not count
    (folder / "config.json").write_text(text[:-1] + brackets)
    assert load_model(str(folder)).module is not None


class _Counted:
    """A pattern of the nesting pass that counts the characters its matches look at: the run
    it skips and the one character that stops it."""

    def __init__(self, pattern):
        self.pattern, self.seen = pattern, 0

    def match(self, text, pos):
        found = self.pattern.match(text, pos)
        self.seen += found.end() - pos + 1
        return found


@pytest.mark.parametrize(
    ("body", "said"),
    [
        # A string that never ends, every quote in it escaped: the old check (a regex for whole
        # strings, tried again from every quote) took 30 s at 80 KB and hours at this size.
        ('"' + '\\"' * (2**21 - 1024), "config.json could not be read: its brackets do not pair"),
        ("[" * (4 * 2**20 - 2048), "config.json nests deeper than 32 levels"),
    ],
    ids=["unterminated-escapes", "deep"],
)
def test_a_hostile_config_at_the_size_bound_is_read_once(tmp_path, monkeypatch, body, said):
    from inspector.core.files.hugging_face import json_file

    folder = llama_with(tmp_path, "hostile")
    text = (folder / "config.json").read_text()[:-1] + ', "x": ' + body
    (folder / "config.json").write_text(text)
    assert 4 * 2**20 - 4096 < len(text) <= 4 * 2**20  # just under the bound: it is read
    outside, inside = _Counted(json_file._OUTSIDE), _Counted(json_file._IN_STRING)
    monkeypatch.setattr(json_file, "_OUTSIDE", outside)
    monkeypatch.setattr(json_file, "_IN_STRING", inside)
    assert said in refusal(folder)
    seen = outside.seen + inside.seen
    # Linear: each character looked at about once (at most twice: escapes), and the deep one
    # no further than the 33rd bracket.
    assert seen <= 2 * len(text)
    if body.startswith("["):
        assert seen < len(text) - len(body) + 100


def test_a_key_given_twice_is_refused_naming_it(tmp_path):
    folder = llama_with(tmp_path, "twice")
    text = (folder / "config.json").read_text()
    (folder / "config.json").write_text(text[:-1] + ', "num_hidden_layers": 200}')
    assert "config.json gives the key 'num_hidden_layers' twice" in refusal(folder)


def test_a_byte_order_mark_is_read_as_the_report_reader_reads_it(tmp_path):
    folder = llama_with(tmp_path, "bom")
    (folder / "config.json").write_bytes(b"\xef\xbb\xbf" + (folder / "config.json").read_bytes())
    loaded = load_model(str(folder))
    assert sum(p.numel() for p in loaded.module.parameters()) == parameters_in_closed_form("llama")


def test_a_config_that_is_not_an_object_is_one_line(tmp_path):
    folder = llama_with(tmp_path, "list")
    (folder / "config.json").write_text(json.dumps([CONFIGS["llama"]]))
    assert "config.json is a list of 1 items, not a JSON object" in refusal(folder)
