"""The window's panels: devices, model (parameters), history, code, error banner, actions."""
