"""Edit › Copy tensor table as CSV: the model's tensors, one row each (``inspector.core.placement``'s
rows: parameters, buffers, grads and optimizer state), on the clipboard for a spreadsheet or
``pandas.read_clipboard``. A feature of one action: its package, its line in the menu table
(``shell.menus``) and its line in the table of features (``shell.features``) add it."""
