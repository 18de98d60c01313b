"""Moving the model: the action bar, the moves it sends, which commands are available, and each
task's outcome on the bar (the benchmark it starts is the latency feature's)."""
