"""The memory plot and the marks the window's tasks leave on it."""
