"""The app and its window: start-up, the window's wiring and its two kinds (this process, an agent's), menus as data, layout, closing."""
