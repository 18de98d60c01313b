"""The devices panel: one row per device with its memory bar."""
