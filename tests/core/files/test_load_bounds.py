"""Hostile files are judged statically with bounded work before PyTorch reads them (issue 32,
items 3, 5, 6, 7): the dangerous name first and said for what it does, nothing inflated for a
zip bomb, a bounded number of opcodes for a pickle that never ends, nothing allocated for a
legacy file declaring more than it holds. Work is counted (records opened, opcodes read,
torch.load calls), never timed.
"""

from __future__ import annotations

import zipfile

import pytest
import torch

from inspector.core.errors import Cancelled
from inspector.core.files import load_bounds, pickle_scan
from inspector.core.files.dangerous_names import dangerous_first, described
from inspector.core.files.load_errors import ModelLoadError, UntrustedFileError
from inspector.core.files.models import load_model
from tests.hostile_files import (
    DECOYS,
    checkpoint_with_pickle,
    decoy_pickle,
    legacy_with_huge_storage,
    marks_pickle,
    tiny_pickles,
    zip_bomb,
)


class Work(dict):
    def start(self) -> None:
        """Count from here (a generator's own zip writing is not the load's work)."""
        self.update({"torch.load": 0, "zip records opened": 0, "pytorch zip readers": 0, "scans": []})


@pytest.fixture
def counted(monkeypatch):
    """What the load did: torch.load calls, zip records opened by Python's and PyTorch's zip
    readers, and every pickle scan (its opcodes and bytes)."""
    work = Work(**{"torch.load": 0, "zip records opened": 0, "pytorch zip readers": 0, "scans": []})
    real_load, real_open, real_scan = torch.load, zipfile.ZipFile.open, load_bounds.scan_pickles

    def load(*args, **kwargs):
        work["torch.load"] += 1
        return real_load(*args, **kwargs)

    def open_record(self, *args, **kwargs):
        work["zip records opened"] += 1
        return real_open(self, *args, **kwargs)

    class Reader(torch._C.PyTorchFileReader):
        def __init__(self, *args):
            work["pytorch zip readers"] += 1
            super().__init__(*args)

    def scan(*args, **kwargs):
        found = real_scan(*args, **kwargs)
        work["scans"].append(found)
        return found

    monkeypatch.setattr(torch, "load", load)
    monkeypatch.setattr(zipfile.ZipFile, "open", open_record)
    monkeypatch.setattr(torch._C, "PyTorchFileReader", Reader)
    monkeypatch.setattr(load_bounds, "scan_pickles", scan)
    return work


# --------------------------------------------------------------------------- item 3


@pytest.mark.parametrize("packed", ["raw pickle", "zip checkpoint"])
def test_the_shell_command_comes_first_and_says_what_it_does(tmp_path, packed):
    target = tmp_path / "created-by-payload"
    data = decoy_pickle(target)
    if packed == "raw pickle":
        path = tmp_path / "model.pkl"
        path.write_bytes(data)
    else:
        path = checkpoint_with_pickle(tmp_path / "model.pt", data)

    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    refusal = caught.value
    assert refusal.wanted == ("posix.system", *DECOYS)  # every name, the dangerous one first
    line = str(refusal)
    assert "(posix.system — runs a shell command, aaa_models.TransformerBlock0" in line
    assert "and 5 more, all listed by --debug" in line
    assert all(name in refusal.detail for name in ("posix.system — runs a shell command", *DECOYS))
    assert not target.exists()


def test_dangerous_names_are_never_left_out_for_classes(tmp_path):
    path = tmp_path / "model.pkl"
    names = [f"models.Block{number}" for number in range(20)] + ["subprocess.Popen", "builtins.eval", "torch.hub.load"]
    path.write_bytes(b"\x80\x02(" + b"".join(f"c{n.rpartition('.')[0]}\n{n.rpartition('.')[2]}\n".encode()
                                              for n in names) + b"l.")  # fmt: skip
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    line = str(caught.value)
    assert "subprocess.Popen — starts a program" in line
    assert "builtins.eval — runs Python code" in line
    assert "torch.hub.load — downloads code and runs it" in line
    assert line.index("torch.hub.load") < line.index("models.Block0")
    assert "and 18 more" in line  # two classes fill the five places; the dangerous three never counted out


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("posix.system", "runs a shell command"),
        ("nt.system", "runs a shell command"),
        ("os.execv", "starts a program"),
        ("pty.spawn", "starts a program"),
        ("importlib.import_module", "imports a module, running its code"),
        ("socket.create_connection", "opens network connections"),
        ("shutil.rmtree", "reads, writes or deletes files"),
        ("sys.setrecursionlimit", "changes the running Python interpreter"),
        ("ctypes.CDLL", "calls native code"),
        ("mypackage.helpers.make_model", "a function: it runs when the file loads"),
    ],
)
def test_each_kind_of_dangerous_name_is_called_what_it_is(name, said):
    assert described(name) == f"{name} — {said}"
    assert dangerous_first(["mypackage.Net", name]) == (name, "mypackage.Net")


def test_a_class_is_listed_as_its_name():
    assert described("mypackage.models.TransformerBlock") == "mypackage.models.TransformerBlock"


# --------------------------------------------------------------------------- item 5


def test_a_zip_bomb_is_refused_before_anything_is_inflated(tmp_path, counted):
    path = zip_bomb(tmp_path / "bomb.pt", inflated_mib=80)
    counted.start()
    assert path.stat().st_size < 200_000  # ~80 KB that would inflate to 80 MiB of opcodes

    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    line = str(caught.value)
    assert f"refused to load {path}: it is too large to check without loading it" in line
    assert "data.pkl declares 80.0 MiB uncompressed, over the 64.0 MiB" in line
    assert "\n" not in line
    # Read from the zip's central directory only: no record opened, no PyTorch zip reader.
    assert counted["zip records opened"] == 0 and counted["pytorch zip readers"] == 0
    assert counted["torch.load"] == 0 and counted["scans"] == []


def test_a_bomb_in_any_record_is_refused_the_same(tmp_path, counted):
    """PyTorch's zip reader inflates ``version`` as it opens the archive: checked before it."""
    path = zip_bomb(tmp_path / "bomb.pt", record="version", inflated_mib=80)
    counted.start()
    with pytest.raises(UntrustedFileError, match="version declares 80.0 MiB"):
        load_model(str(path))
    assert counted["zip records opened"] == 0 and counted["pytorch zip readers"] == 0


def test_tensor_records_declaring_more_than_the_file_holds_are_refused(tmp_path, counted):
    path = zip_bomb(tmp_path / "bomb.pt", record="data/0", inflated_mib=80, fill=b"\0")
    counted.start()
    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path))
    assert "declares 80.0 MiB of tensor data, more than the" in str(caught.value)
    assert counted["zip records opened"] == 0 and counted["torch.load"] == 0


def test_a_checkpoint_within_the_bounds_is_read_to_its_end(tmp_path, counted):
    path = tmp_path / "weights.pt"
    torch.save({"weight": torch.ones(300, 300), "bias": torch.zeros(300)}, path)
    counted.start()
    with pytest.raises(ModelLoadError, match="holds only weights"):  # read whole: it needs an architecture
        load_model(str(path))
    assert counted["torch.load"] == 1


# --------------------------------------------------------------------------- item 6


def test_a_pickle_that_never_ends_is_refused_after_a_bounded_number_of_opcodes(tmp_path, counted):
    path = marks_pickle(tmp_path / "marks.pkl", load_bounds.OPCODES_BASE + 500_000)
    with pytest.raises(UntrustedFileError) as caught:
        load_model(str(path))
    line = str(caught.value)
    assert "a pickle longer than the 1,000,000 opcodes checked" in line and "\n" not in line
    (scan,) = counted["scans"]
    assert scan.over_limit and scan.opcodes <= load_bounds.OPCODES_BASE + 1
    assert scan.bytes_read <= load_bounds.OPCODES_BASE + 1
    assert counted["torch.load"] == 0


def test_a_million_tiny_pickles_are_read_as_one_and_refused_in_one_line(tmp_path, counted):
    path = tiny_pickles(tmp_path / "nones.pkl", 1_000_000)
    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path))
    assert str(caught.value) == f"not a complete PyTorch checkpoint: {path} (it is a plain pickle, not a file torch.save wrote)"
    (scan,) = counted["scans"]
    assert scan.pickles == 1 and scan.opcodes == 2


def test_the_scan_stops_when_cancelled(tmp_path, counted):
    path = marks_pickle(tmp_path / "marks.pkl", 500_000)
    asked = []

    def should_cancel() -> bool:
        asked.append(True)
        return True

    with pytest.raises(Cancelled):
        load_model(str(path), should_cancel=should_cancel)
    assert len(asked) == 1 and counted["torch.load"] == 0  # stopped at its first look
    assert pickle_scan._CANCEL_EVERY <= 10_000


# --------------------------------------------------------------------------- item 7


def test_a_legacy_file_declaring_a_huge_storage_is_refused_before_allocating(tmp_path, counted):
    path = legacy_with_huge_storage(tmp_path / "old.pt")
    assert path.stat().st_size < 400

    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path))
    assert str(caught.value).startswith(
        f"not a complete PyTorch checkpoint: {path} (it declares 64.0 GiB of tensor data, more than the"
    )
    assert "nothing was allocated" in str(caught.value)
    assert counted["torch.load"] == 0  # the loader that would allocate 64 GiB never ran


def test_a_legacy_file_whose_storage_record_disagrees_with_its_pickle_is_refused_in_words(tmp_path, counted):
    path = tmp_path / "old.pt"
    torch.save(torch.zeros(4), path, _use_new_zipfile_serialization=False)
    data = bytearray(path.read_bytes())
    record = len(data) - 4 * 4 - 8  # the storage's element count, before its 16 bytes
    assert int.from_bytes(data[record:record + 8], "little") == 4
    data[record:record + 8] = (2**34).to_bytes(8, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(ModelLoadError) as caught:
        load_model(str(path))
    assert "declares 4 elements but its record in the file says 17,179,869,184; nothing was allocated" in str(caught.value)
    assert "%ld" not in str(caught.value) and counted["torch.load"] == 0


def test_a_legacy_state_dict_that_tells_the_truth_is_read_to_its_end(tmp_path, counted):
    path = tmp_path / "old.pt"
    torch.save({"weight": torch.ones(2, 3), "bias": torch.zeros(2)}, path, _use_new_zipfile_serialization=False)
    counted.start()
    with pytest.raises(ModelLoadError, match="holds only weights"):
        load_model(str(path))
    (scan,) = counted["scans"]
    assert scan.pickles == 5 and len(scan.storages) == 2 and scan.storage_bytes() == 32
    assert counted["torch.load"] == 1
