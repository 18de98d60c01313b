"""Edit › Copy devices table as CSV: the machine's devices, one row each, with their memory as
the window last read it, on the clipboard for a spreadsheet or ``pandas.read_clipboard``. A
feature of one action: its package and its line in the table of features (``shell.features``)."""
