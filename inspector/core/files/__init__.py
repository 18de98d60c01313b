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
model dialog), ``regular_file`` (the one way a file is read: regular, bounded, never a FIFO or
a device; for files the user named and those they did not alike).

May import: ``inspector.core.errors``, ``vocabulary``, ``units``, ``gc_pause``, ``atomic_write`` and torch.
Nothing else in core: every other capability reads a model through here.

Face (``__all__``): the names the window and the CLI use, each imported from its module
when first read (``inspector.core.lazy_face``), so importing the package imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.core.lazy_face import lazy_names

if TYPE_CHECKING:
    from inspector.core.files.models import absolute_spec, load_model
    from inspector.core.files.inputs import InputSpec, parse_inputs
    from inspector.core.files.dangerous_names import dangerous_first, described, is_dangerous
    from inspector.core.files.load_errors import DANGEROUS_SHOWN
    from inspector.core.files.presets import PRESETS, Preset
    from inspector.core.files.output_path import check_distinct_outputs, check_output_path
    from inspector.core.files.terminal_text import LINE_LIMIT, NAME_LIMIT, escape_control, one_line
    from inspector.core.files.user_output import program_output, user_output_to_stderr

__all__ = [
    "DANGEROUS_SHOWN",
    "LINE_LIMIT",
    "NAME_LIMIT",
    "PRESETS",
    "InputSpec",
    "absolute_spec",
    "Preset",
    "check_distinct_outputs",
    "check_output_path",
    "dangerous_first",
    "described",
    "escape_control",
    "is_dangerous",
    "load_model",
    "one_line",
    "parse_inputs",
    "program_output",
    "user_output_to_stderr",
]

#: name -> the module that defines it ("module:name" where the face renames it).
_HOMES = {
    "DANGEROUS_SHOWN": "load_errors",
    "LINE_LIMIT": "terminal_text",
    "NAME_LIMIT": "terminal_text",
    "PRESETS": "presets",
    "InputSpec": "inputs",
    "absolute_spec": "models",
    "Preset": "presets",
    "check_distinct_outputs": "output_path",
    "check_output_path": "output_path",
    "dangerous_first": "dangerous_names",
    "described": "dangerous_names",
    "escape_control": "terminal_text",
    "is_dangerous": "dangerous_names",
    "load_model": "models",
    "one_line": "terminal_text",
    "parse_inputs": "inputs",
    "program_output": "user_output",
    "user_output_to_stderr": "user_output",
}
__getattr__, __dir__ = lazy_names(globals(), _HOMES)
