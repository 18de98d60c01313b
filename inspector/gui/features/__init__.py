"""One package per thing a user does; none imports another (state and common are below them all)."""
