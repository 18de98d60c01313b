"""Tools › Will it fit?: the dialog and its questions to the worker."""
