"""The model panel: the parameter tree's rows, cells, item model and filter, and opening a model."""
