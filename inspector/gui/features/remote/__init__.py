"""A session on another machine: the connect dialog and the agent's link."""
