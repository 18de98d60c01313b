"""Planning for a GPU you don't have, from a published config: the figures of issue 36.

    PYTHONPATH=. python3 benchmarks/fit_planning.py [--only llama-3-8b]

For Llama-3-8B, GPT-2 small and BERT-base (their published config.json files, in
benchmarks/configs/), with no weights: the parameters; the estimate of one bf16 + AdamW
training step at batch 1 x 2048 tokens (GPT-2 and BERT at their longest sequence, 1024 and
512) planned for an 80 GiB CUDA device; the largest batch on 24 GiB and on 80 GiB; and the
wall time and peak RSS of each estimate, each run as the user runs it (``fit`` in a fresh
process, so its RSS is its own). Targets for the 8B config: under 60 s and under 2 GiB RSS.

Then the closed form next to ours: parameters (counted from the config's sizes by hand) x
bytes per parameter for the weights, the gradients and AdamW's two moments; and accelerate's
``estimate-memory`` arithmetic for the same config (its ``calculate_maximum_sizes`` on the
model ``AutoModel`` builds, float32, and its ``estimate_training_usage`` for bfloat16, as
``accelerate estimate-memory`` prints it), side by side with what the traced step adds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.core.units import format_bytes  # noqa: E402

CONFIGS = ROOT / "benchmarks" / "configs"
#: (folder, name shown, tokens per sequence: 2048, or the model's own limit)
MODELS = (("llama-3-8b", "Llama-3-8B", 2048), ("gpt2", "GPT-2 small", 1024), ("bert-base-uncased", "BERT-base", 512))
GiB = 1 << 30


#: Runs ``fit`` as the console script does, then says the process's own peak RSS on stderr.
_CHILD = (
    "import resource, sys\n"
    "from inspector.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print('peak-rss-kib', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def fit(folder: Path, tokens: int, *extra: str) -> tuple[dict, float, int]:
    """``fit`` as a user runs it, in a fresh process: its JSON, wall seconds (imports included)
    and the process's peak RSS in bytes."""
    argv = [sys.executable, "-c", _CHILD, "fit", str(folder), "--device", "cuda", "--dtype", "bfloat16",
            "--optimizer", "adamw", "--input-shape", f"1,{tokens}:int64", "--no-measure", "--json", *extra]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"fit failed ({done.returncode}): {done.stderr[-2000:]}")
    kib = next(int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("peak-rss-kib"))
    return json.loads(done.stdout), seconds, kib * 1024


def closed_form_parameters(config: dict) -> int:
    """Parameters counted from the config's sizes, layer by layer, as each architecture is written."""
    kind = config["model_type"]
    if kind == "llama":
        h, inter, layers, vocab = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"], config["vocab_size"]
        kv = h // config["num_attention_heads"] * config["num_key_value_heads"]
        per_layer = h * h + 2 * h * kv + h * h + 3 * h * inter + 2 * h  # q, k, v, o; gate, up, down; 2 RMSNorms
        head = 0 if config.get("tie_word_embeddings") else vocab * h
        return vocab * h + layers * per_layer + h + head
    if kind == "gpt2":
        h, layers, vocab, positions = config["n_embd"], config["n_layer"], config["vocab_size"], config["n_positions"]
        per_layer = (h * 3 * h + 3 * h) + (h * h + h) + (h * 4 * h + 4 * h) + (4 * h * h + h) + 4 * h
        return vocab * h + positions * h + layers * per_layer + 2 * h  # the LM head is tied to wte
    if kind == "bert":  # BertForMaskedLM: no pooler; the decoder's weight is tied to the word embeddings
        h, inter, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
        vocab, positions, types = config["vocab_size"], config["max_position_embeddings"], config["type_vocab_size"]
        per_layer = 4 * (h * h + h) + 2 * h + (h * inter + inter) + (inter * h + h) + 2 * h
        return vocab * h + positions * h + types * h + 2 * h + layers * per_layer + (h * h + h) + 2 * h + vocab
    raise ValueError(kind)


def accelerate_estimate(folder: Path) -> tuple[int, int, int] | None:
    """accelerate estimate-memory's figures for the config: (total size in float32, largest
    layer, 'Training using Adam' for bfloat16), from its own functions; None without it."""
    try:
        import torch
        import transformers
        from accelerate import init_empty_weights
        from accelerate.commands.estimate import calculate_maximum_sizes, estimate_training_usage
    except ImportError:
        return None
    config = transformers.AutoConfig.from_pretrained(str(folder), local_files_only=True)
    with init_empty_weights():  # as accelerate's create_empty_model builds it: AutoModel, no LM head
        model = transformers.AutoModel.from_config(config, dtype=torch.float32)
    total, largest = calculate_maximum_sizes(model)
    training = estimate_training_usage(total, "bfloat16")
    return int(total), int(largest[0]), int(max(training.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one config folder of benchmarks/configs")
    args = parser.parse_args()
    import torch
    import transformers

    print(f"torch {torch.__version__}, transformers {transformers.__version__}, {os.cpu_count()} CPUs; "
          "every figure traced on fake tensors, no weights, nothing allocated")  # fmt: skip
    summary = []
    for folder_name, name, tokens in MODELS:
        if args.only and args.only != folder_name:
            continue
        folder = CONFIGS / folder_name
        config = json.loads((folder / "config.json").read_text())
        print(f"\n== {name} ({folder.relative_to(ROOT)}), bf16 + AdamW, batch 1 x {tokens} tokens")
        plan, seconds, rss = fit(folder, tokens, "--capacity", "80GiB")
        n = plan["parameters_bytes"] // 2
        closed = closed_form_parameters(config)
        print(f"  parameters        {n:,} (closed form from the config: {closed:,}: {'exact' if n == closed else 'DIFFERS'})")
        print(f"  weights           {format_bytes(plan['parameters_bytes'])}")
        print(f"  gradients         {format_bytes(plan['gradients_bytes'])}")
        print(f"  AdamW state       {format_bytes(plan['optimizer_state_bytes'])}")
        print(f"  activations       {format_bytes(plan['activations_bytes'])} (what the forward keeps at its peak)")
        later = plan["later_step_peak_bytes"]
        print(f"  estimated peak    {format_bytes(plan['estimated_peak_bytes'])} live tensors in the first step, "
              f"{format_bytes(later)} in each later one (AdamW's state held through its forward); "
              f"{format_bytes(plan['reserved_peak_bytes'])} in the CUDA allocator's segments over both")  # fmt: skip
        print(f"  the estimate      {seconds:.1f} s wall, {format_bytes(rss)} peak RSS (fit in a fresh process)")
        rows = []
        for capacity in ("24GiB", "80GiB"):
            found, search_seconds, search_rss = fit(folder, tokens, "--capacity", capacity, "--max-batch")
            s = found["max_batch"]
            if s["batch"] == 0:
                words = f"none: batch 1 needs {format_bytes(s['next_peak_bytes'])}"
            elif s["next_batch"] is None:
                words = f"at least {s['batch']} ({format_bytes(s['peak_bytes'])})"
            else:
                words = (f"{s['batch']} ({format_bytes(s['peak_bytes'])}); batch {s['next_batch']}: "
                         f"{format_bytes(s['next_peak_bytes'])}")  # fmt: skip
            print(f"  largest batch on {capacity} (usable {format_bytes(s['limit_bytes'])}): {words}; "
                  f"{s['steps']} traced steps, {search_seconds:.1f} s, {format_bytes(search_rss)} RSS")  # fmt: skip
            rows.append(s["batch"])
        # The closed form: parameters x bytes per parameter (bf16: 2) for weights, gradients, AdamW's moments.
        static = {"weights": 2 * n, "gradients": 2 * n, "AdamW moments": 2 * 2 * n}
        tensors = (plan["optimizer_state_bytes"] - 4 * n) // 4
        ours = {"weights": plan["parameters_bytes"], "gradients": plan["gradients_bytes"],
                "AdamW moments": plan["optimizer_state_bytes"] - 4 * tensors}  # fmt: skip
        print("  closed form vs ours:")
        for part in static:
            same = "exact" if static[part] == ours[part] else "DIFFERS"
            print(f"    {part:<14} {2 if part != 'AdamW moments' else 4} B x {n:,} = {static[part]:,}  ours {ours[part]:,}  {same}")
        print(f"    AdamW's step   a float32 scalar per parameter tensor: {tensors} x 4 B = {4 * tensors:,} B (ours counts it; the closed form does not)")
        acc = accelerate_estimate(folder)
        if acc is not None:
            total, largest, training = acc
            print(f"  accelerate estimate-memory (AutoModel, the base model without a task head: {total // 4:,} parameters in float32: {format_bytes(total)}; "
                  f"largest layer {format_bytes(largest)}):")  # fmt: skip
            print(f"    'Training using Adam' for bfloat16: {format_bytes(training)} (2 x the float32 size: parameters x 8 B)")
            print(f"    ours, static (weights + gradients + AdamW state): "
                  f"{format_bytes(plan['parameters_bytes'] + plan['gradients_bytes'] + plan['optimizer_state_bytes'])}; "
                  f"with a step's activations: {format_bytes(max(plan['estimated_peak_bytes'], later))} at its peak")  # fmt: skip
        summary.append((name, n, max(plan["estimated_peak_bytes"], later), rows[0], rows[1], seconds, rss))
    print("\n| model | parameters | bf16 + AdamW live peak, batch 1 (later steps) | largest batch, 24 GiB | largest batch, 80 GiB | wall | peak RSS |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, n, peak, b24, b80, seconds, rss in summary:
        print(f"| {name} | {n:,} | {format_bytes(peak)} | {b24} | {b80} | {seconds:.1f} s | {format_bytes(rss)} |")


if __name__ == "__main__":
    main()
