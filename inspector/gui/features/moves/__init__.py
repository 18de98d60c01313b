"""Moving the model: the action bar, the moves it sends and which commands are available (the
benchmark it starts is the latency feature's; how each task went, the outcomes feature's)."""
