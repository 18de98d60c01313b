"""Words, plain text, settings values, small widgets and plot helpers every layer above may use."""
