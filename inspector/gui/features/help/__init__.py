"""The Help menu's pages and notes."""
