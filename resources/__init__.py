"""Data files of the app (icon, .desktop entry, AppStream metainfo, style sheet).

This folder is installed as the package ``inspector.resources`` (see ``package-dir`` in
pyproject.toml), so both a wheel and an editable install find it with ``importlib.resources``.
The file exists only to make that a regular package; read the files through
``inspector.resource_files``.
"""
