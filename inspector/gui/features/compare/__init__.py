"""Two timing reports side by side."""
