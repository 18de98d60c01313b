"""Files and the words that come from them: model specs and loading, file trust, example
inputs, output paths, and text made safe for a terminal.

Owns: ``models`` (model specs, ``load_model``, the example ``Net``), with the loaders it hands
work to: ``factories`` (the user's ``module:factory`` code), ``model_files`` (a file's kind and
its TorchScript, ``.pt2`` and ``.safetensors`` loaders), ``checkpoints`` (``torch.save`` files,
weights-only unless trusted), ``state_dicts`` (weights into the architecture's module) and
``load_errors`` (what a failed load says), ``hugging_face`` (model folders with a ``config.json``, and
``hf:ORG/NAME`` from the local Hugging Face cache). ``trust`` (the static check that decides whether a
file opens without ``--trust``), ``inputs`` (the input-shape syntax), ``output_path`` (is a
report path writable before work starts), ``terminal_text`` and ``user_output`` (file-supplied
text on a terminal, where a factory's prints go), ``presets`` (ready-made models for the Open
model dialog).

May import: ``inspector.core.errors``, ``vocabulary``, ``units``, ``gc_pause`` and torch.
Nothing else in core: every other capability reads a model through here.
"""
