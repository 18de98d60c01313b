"""The files a Hugging Face load reads and the names it follows (issue 43, items 6, 8, 10 and
the gate itself): every file stat-checked and inside its folder, the weight index an object of
plain names, hf: names resolved inside the cache, the libraries' lines escaped, and no module
but the gate's importing transformers."""

import ast
import json
import logging
import os
import stat
import sys
import tracemalloc
import warnings
from contextlib import contextmanager
from pathlib import Path

import pytest
import torch

from inspector.core.files.load_errors import ModelLoadError
from inspector.core.files.models import load_model
from tests.hf_folders import config_folder, parameters_in_closed_form, weights_folder

pytest.importorskip("transformers")

REPO = Path(__file__).resolve().parents[3]
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def refusal(spec) -> str:
    with pytest.raises(ModelLoadError) as refused:
        load_model(str(spec))
    return str(refused.value)


# --------------------------------------------------------------------------- the gate


def _imported_modules(tree: ast.AST) -> set[str]:
    """Every module a source imports: import statements anywhere (in functions too), and
    importlib.import_module / __import__ called with a literal name."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return names


def test_only_the_gate_imports_transformers_and_huggingface_hub():
    importers = []
    for path in sorted((REPO / "inspector").rglob("*.py")):
        imported = _imported_modules(ast.parse(path.read_text(encoding="utf-8")))
        if any(name.partition(".")[0] in ("transformers", "huggingface_hub") for name in imported):
            importers.append(path.relative_to(REPO).as_posix())
    assert importers == ["inspector/core/files/hugging_face/libraries.py"]


def test_the_scan_sees_lazy_imports():
    source = "def f():\n    import transformers.models\n\ndef g():\n    importlib.import_module('huggingface_hub')\n"
    assert _imported_modules(ast.parse(source)) == {"transformers.models", "huggingface_hub"}


# --------------------------------------------------------------------------- item 6 (the FIFOs: tests/cli)


def _sharded(tmp_path: Path) -> Path:
    folder, _ = weights_folder(tmp_path, "gpt2", shard=True)
    return folder


def _index(folder: Path) -> dict:
    return json.loads((folder / "model.safetensors.index.json").read_text())


def test_a_shard_leading_outside_the_folder_is_refused(tmp_path):
    folder = _sharded(tmp_path)
    shard = sorted(folder.glob("model-*.safetensors"))[0]
    outside = tmp_path / "elsewhere.safetensors"
    shard.rename(outside)
    shard.symlink_to(outside)
    message = refusal(folder)
    assert f"{shard.name} leads to {outside}, outside {folder}" in message


def test_a_config_leading_outside_the_folder_is_refused(tmp_path):
    folder = config_folder(tmp_path / "model", "gpt2")
    (folder / "config.json").rename(tmp_path / "config.json")
    (folder / "config.json").symlink_to(tmp_path / "config.json")
    assert "config.json leads to" in refusal(folder)


def test_a_link_inside_the_folder_is_followed(tmp_path):
    folder, saved = weights_folder(tmp_path, "gpt2")
    (folder / "real").mkdir()
    (folder / "model.safetensors").rename(folder / "real" / "weights.safetensors")
    (folder / "model.safetensors").symlink_to(Path("real") / "weights.safetensors")
    state = load_model(str(folder)).module.state_dict()
    assert all(torch.equal(state[name], value) for name, value in saved.items())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_shard_swapped_for_a_fifo_after_its_check_is_refused_unopened(tmp_path, monkeypatch):
    """The race the check alone left: the name is checked, then made a FIFO before it is staged."""
    from inspector.core.files.hugging_face import folder_files

    folder = _sharded(tmp_path)
    shard = sorted(folder.glob("model-*.safetensors"))[0]
    checked = folder_files.check_folder

    def check_then_swap(*args, **kwargs):
        files = checked(*args, **kwargs)
        shard.unlink()
        os.mkfifo(shard)
        return files

    monkeypatch.setattr(folder_files, "check_folder", check_then_swap)
    message = refusal(folder)
    assert f"{shard.name} is not a regular file (a FIFO)" in message


@pytest.mark.skipif(not Path("/dev/fd").is_dir() or not hasattr(os, "mkfifo"), reason="a /dev/fd folder, FIFOs")
def test_transformers_reads_the_staged_shard_even_when_its_name_becomes_a_fifo(tmp_path, monkeypatch):
    """Staged, a shard is reached through its open descriptor: its name swapped for a FIFO
    before transformers opens it (the old link followed the name and hung for ever) changes
    nothing, and the weights read are the checked file's."""
    from inspector.core.files.hugging_face import folder_files

    folder, saved = weights_folder(tmp_path, "gpt2", shard=True)
    shards = sorted(folder.glob("model-*.safetensors"))
    staged = folder_files.staged

    @contextmanager
    def stage_then_swap(files):
        with staged(files) as stage:
            for shard in shards:
                shard.unlink()
                os.mkfifo(shard)
            yield stage

    monkeypatch.setattr(folder_files, "staged", stage_then_swap)
    state = load_model(str(folder)).module.state_dict()
    assert all(torch.equal(state[name], value) for name, value in saved.items())
    assert all(stat.S_ISFIFO(shard.stat().st_mode) for shard in shards)


@pytest.mark.parametrize(
    ("index", "said"),
    [
        ([1, 2], "model.safetensors.index.json is a list of 2 items, not a JSON object"),
        ({"weight_map": ["a.safetensors"]}, "weight_map is a list of 1 items, not an object of tensor name -> file"),
        ({"weight_map": {"w": 3}}, "weight_map is an object whose values are not all file names"),
        ({"weight_map": {"w": "../x.safetensors"}}, "names '../x.safetensors', which is not a plain file name"),
        ({"weight_map": {"w": "/etc/passwd"}}, "names '/etc/passwd', which is not a plain file name"),
        ({"weight_map": {"w": "gone.safetensors"}}, "gone.safetensors: no such file"),
    ],
)
def test_the_weight_index_must_name_plain_files_of_the_folder(tmp_path, index, said):
    folder = _sharded(tmp_path)
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    message = refusal(folder)
    assert said in message and "\n" not in message


def test_the_index_may_not_name_more_weight_files_than_any_model_has(tmp_path):
    folder = _sharded(tmp_path)
    index = _index(folder)
    index["weight_map"] = {f"w{i}": f"s{i}.safetensors" for i in range(5000)}
    (folder / "model.safetensors.index.json").write_text(json.dumps(index))
    assert "names 5,000 weight files, more than 4,096" in refusal(folder)


def test_transformers_sees_only_the_checked_files(tmp_path, monkeypatch):
    """A file the load does not read (a tokenizer, an adapter naming another model) is not in
    the folder transformers is given."""
    import transformers

    folder = _sharded(tmp_path)
    (folder / "adapter_config.json").write_text(json.dumps({"base_model_name_or_path": str(tmp_path)}))
    (folder / "tokenizer.json").write_text("{}")
    seen = []
    original = transformers.AutoConfig.from_pretrained.__func__

    def spy(cls, path, *args, **kwargs):
        seen.extend(sorted(os.listdir(path)))
        return original(cls, path, *args, **kwargs)

    monkeypatch.setattr(transformers.AutoConfig, "from_pretrained", classmethod(spy))
    load_model(str(folder))
    shards = sorted(set(_index(folder)["weight_map"].values()))
    assert seen == sorted(["config.json", "generation_config.json", "model.safetensors.index.json", *shards])


# --------------------------------------------------------------------------- item 8


def _cached(cache: Path, name: str, ref: str = COMMIT, *, blobs: bool = True) -> Path:
    """A repository laid out as huggingface_hub lays it out: refs/main, snapshots/<commit>/
    whose files link into blobs/."""
    repo = cache / ("models--" + name.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(ref)
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    made = config_folder(repo / "made", "llama")
    if blobs:
        (repo / "blobs").mkdir()
        (made / "config.json").rename(repo / "blobs" / "b1")
        (snapshot / "config.json").symlink_to(Path("..") / ".." / "blobs" / "b1")
    else:
        (made / "config.json").rename(snapshot / "config.json")
    return repo


def _elsewhere(tmp_path: Path) -> Path:
    """A model folder outside the cache, and a marker of its having been read."""
    return config_folder(tmp_path / "elsewhere", "gpt2")


def test_an_hf_name_loads_the_snapshot_refs_main_names(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    _cached(tmp_path / "hub", "tiny/llama")
    loaded = load_model("hf:tiny/llama")
    assert sum(p.numel() for p in loaded.module.parameters()) == parameters_in_closed_form("llama")


def test_the_older_cache_variable_is_honoured(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HUGGINGFACE_HUB_CACHE", str(tmp_path / "old-hub"))
    _cached(tmp_path / "old-hub", "tiny/llama")
    assert load_model("hf:tiny/llama").module is not None


@pytest.mark.parametrize("ref", ["absolute", "../../../elsewhere/gpt2", "main\n", COMMIT[:39]])
def test_a_refs_file_that_is_no_commit_id_is_not_followed(tmp_path, monkeypatch, ref):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    elsewhere = _elsewhere(tmp_path)
    _cached(tmp_path / "hub", "tiny/llama", ref=str(elsewhere) if ref == "absolute" else ref)
    message = refusal("hf:tiny/llama")
    assert "tiny/llama: the local cache's refs/main is not a commit id (40 hex digits): not followed" in message


def test_a_huge_refs_file_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    repo = _cached(tmp_path / "hub", "tiny/llama")
    with open(repo / "refs" / "main", "r+b") as ref:
        ref.truncate(200 * 2**20)  # sparse
    tracemalloc.start()
    try:
        message = refusal("hf:tiny/llama")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "refs/main is not a commit id" in message and "file too large" in message
    assert peak < 4 * 2**20


def test_a_snapshot_leading_outside_the_cache_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    repo = _cached(tmp_path / "hub", "tiny/llama", blobs=False)
    elsewhere = _elsewhere(tmp_path)
    snapshot = repo / "snapshots" / COMMIT
    (snapshot / "config.json").unlink()
    snapshot.rmdir()
    snapshot.symlink_to(elsewhere)
    message = refusal("hf:tiny/llama")
    assert f"the cached snapshot {elsewhere} lies outside" in message


def test_a_snapshot_file_leading_outside_the_repository_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    repo = _cached(tmp_path / "hub", "tiny/llama", blobs=False)
    elsewhere = _elsewhere(tmp_path)
    config = repo / "snapshots" / COMMIT / "config.json"
    config.unlink()
    config.symlink_to(elsewhere / "config.json")
    assert "config.json leads to" in refusal("hf:tiny/llama")


def test_without_refs_the_newest_snapshot_named_by_a_commit_is_taken(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    repo = _cached(tmp_path / "hub", "tiny/llama")
    (repo / "refs" / "main").unlink()
    (repo / "snapshots" / "not-a-commit").mkdir()
    assert load_model("hf:tiny/llama").module is not None


# --------------------------------------------------------------------------- item 10 (a whole run: tests/cli)


def test_what_the_libraries_print_during_a_load_is_said_again_escaped(capsys):
    from inspector.core.files.hugging_face.library_output import said_again, taken_output

    lines: list[str] = []
    with taken_output(lines):
        logging.getLogger("transformers.modeling_utils").warning("rope_type %s", "\x1b]0;TITLE\x07\x1b[2J")
        logging.getLogger("huggingface_hub").warning("\u202eevil")
        warnings.warn("bell\x07", UserWarning, stacklevel=1)
        print("stray\x1b[31m red")
        sys.stderr.write("bar\r 50%\r100%\n")
    said = said_again(lines)
    out, err = capsys.readouterr()
    assert out == ""
    for text in (err, *said):
        assert not any(ch in text for ch in "\x1b\x07\r\u202e")
    assert "[transformers] rope_type \\x1b]0;TITLE\\x07\\x1b[2J" in said
    assert "[huggingface_hub] \\u202eevil" in said and "[UserWarning] bell\\x07" in said
    assert "stray\\x1b[31m red" in said and err.count("\n") == len(said)


def test_the_libraries_own_handlers_are_back_after_a_load():
    from inspector.core.files.hugging_face.library_output import taken_output

    logger = logging.getLogger("transformers")
    before = (list(logger.handlers), logger.propagate)
    with pytest.raises(RuntimeError), taken_output([]):
        raise RuntimeError("a load that failed")
    assert (list(logger.handlers), logger.propagate) == before
