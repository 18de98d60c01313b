"""Moving the model and benchmarking it: the action bar, the requests it sends, which commands are available."""
