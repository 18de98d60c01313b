"""What the window knows of its session, and the workers and threads that bring it."""
