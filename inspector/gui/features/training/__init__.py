"""One real training step on the model (Tools › Run one training step…): its action, its
confirmation and request, and what it leaves in the window (the code it ran, the bar's words)."""
