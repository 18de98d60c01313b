"""Tiny Hugging Face model folders (hidden 64, 2 layers), Llama-, GPT-2- and BERT-style, made
offline: config.json alone, or with weights as transformers saves them (one .safetensors file,
or shards with model.safetensors.index.json); and a folder whose config needs its own code."""

from __future__ import annotations

import json
from pathlib import Path

CONFIGS = {
    "llama": {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
        "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
        "max_position_embeddings": 256, "rms_norm_eps": 1e-5, "tie_word_embeddings": False, "torch_dtype": "float32",
    },
    "gpt2": {
        "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4,
        "n_positions": 128, "n_ctx": 128, "vocab_size": 1000, "bos_token_id": 0, "eos_token_id": 0,
    },
    "bert": {
        "architectures": ["BertForMaskedLM"], "model_type": "bert", "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 1000, "max_position_embeddings": 128,
        "type_vocab_size": 2,
    },
}  # fmt: skip


def parameters_in_closed_form(kind: str) -> int:
    """Each tiny model's parameter count, written out from its architecture."""
    h, layers, vocab = 64, 2, 1000
    if kind == "llama":  # q, o: h*h; k, v: h*(h/2) (2 KV heads of 16); gate, up, down: h*128; 2 norms
        per_layer = 2 * h * h + 2 * h * 32 + 3 * h * 128 + 2 * h
        return vocab * h + layers * per_layer + h + vocab * h  # embeddings, layers, final norm, lm_head
    if kind == "gpt2":  # c_attn h->3h (+bias), c_proj h->h (+bias), mlp h->4h->h (+biases), 2 layer norms
        per_layer = (h * 3 * h + 3 * h) + (h * h + h) + (h * 4 * h + 4 * h) + (4 * h * h + h) + 2 * 2 * h
        return vocab * h + 128 * h + layers * per_layer + 2 * h  # wte (tied to lm_head), wpe, layers, ln_f
    # bert: word, position, token-type embeddings + their layer norm; per layer q, k, v, o (+biases),
    # attention layer norm, h->128->h (+biases), output layer norm; the MLM head's transform (h->h, layer
    # norm) and its decoder bias (its weight is tied to the word embeddings).
    per_layer = 4 * (h * h + h) + 2 * h + (h * 128 + 128) + (128 * h + h) + 2 * h
    return vocab * h + 128 * h + 2 * h + 2 * h + layers * per_layer + (h * h + h) + 2 * h + vocab


def config_folder(root: Path, kind: str) -> Path:
    folder = root / kind
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(CONFIGS[kind], indent=2))
    return folder


def weights_folder(root: Path, kind: str, *, shard: bool = False):
    """A folder with weights saved by transformers; returns (folder, the saved model's state dict)."""
    import torch
    import transformers

    torch.manual_seed(0)
    config = transformers.AutoConfig.for_model(**{k: v for k, v in CONFIGS[kind].items() if k != "architectures"})
    config.architectures = CONFIGS[kind]["architectures"]
    model = getattr(transformers, CONFIGS[kind]["architectures"][0])(config)
    folder = root / f"{kind}-weights{'-sharded' if shard else ''}"
    model.save_pretrained(folder, max_shard_size="100KB" if shard else "10GB")
    return folder, {k: v.detach().clone() for k, v in model.state_dict().items()}


REMOTE_CONFIG = {
    "model_type": "evil", "architectures": ["EvilModel"], "width": 8,
    "auto_map": {"AutoConfig": "configuration_evil.EvilConfig", "AutoModel": "modeling_evil.EvilModel"},
}  # fmt: skip
REMOTE_CONFIGURATION = '''
from transformers import PretrainedConfig
class EvilConfig(PretrainedConfig):
    model_type = "evil"
    def __init__(self, width=8, **kwargs):
        self.width = width
        super().__init__(**kwargs)
'''
REMOTE_MODELING = '''
import os
from pathlib import Path
import torch
from transformers import PreTrainedModel
from .configuration_evil import EvilConfig
Path(os.environ["EVIL_MARKER"]).write_text("ran")  # what running the folder's code leaves behind
class EvilModel(PreTrainedModel):
    config_class = EvilConfig
    def __init__(self, config):
        super().__init__(config)
        self.linear = torch.nn.Linear(config.width, config.width)
        self.post_init()
    def forward(self, x):
        return self.linear(x)
'''


def remote_code_folder(root: Path) -> Path:
    folder = root / "needs-code"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(REMOTE_CONFIG))
    (folder / "configuration_evil.py").write_text(REMOTE_CONFIGURATION)
    (folder / "modeling_evil.py").write_text(REMOTE_MODELING)
    return folder


def llama_with(root: Path, name: str, **fields) -> Path:
    """A folder whose config.json is the tiny Llama's with ``fields`` changed or added."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps({**CONFIGS["llama"], **fields}))
    return folder


def guard_sockets(monkeypatch) -> list:
    """Every connection Python would open from now on is recorded and refused (OSError, as a
    machine without network says). Returns the record."""
    import socket

    tried: list = []

    def refuse(*args, **kwargs):
        tried.append(args[1:] if args and isinstance(args[0], socket.socket) else args)
        raise OSError("a test refused this connection")

    for name in ("connect", "connect_ex"):
        monkeypatch.setattr(socket.socket, name, refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return tried
