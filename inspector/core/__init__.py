"""The measurable heart of the app: pure PyTorch + psutil. Never imports Qt."""
