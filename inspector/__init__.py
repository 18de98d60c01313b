"""torch-device-inspector: where does every tensor of a PyTorch model live, and what does a move cost."""

import builtins as _builtins

__version__ = "0.1.0"

#: The interpreter's own ``__import__``, taken before anything here imports PySide6, which
#: replaces it with a hook of its own (see ``inspector.gui.shell.pyside_import_hook``).
_interpreter_import = _builtins.__import__
