"""Edit › Copy tensor table as CSV: the model's tensors, one row each (``inspector.core.placement``'s
rows: parameters, buffers, grads and optimizer state), on the clipboard for a spreadsheet or
``pandas.read_clipboard``. A feature of one action, built from the host alone
(``common.actions.FeatureHost``): its package and one line of the menu table add it."""
