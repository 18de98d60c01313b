"""Where the memory plot's marker labels hang: lanes from the top, each label right of its
marker's line or (no room there) left of it, never over another label (``place_label``); the
lanes' height is kept free of the curves (``MemoryCanvas``'s headroom, issue 45: labels sat on
the model's line)."""

from __future__ import annotations

#: Marker labels: pixels between lanes' labels, and the share of the plot's height they may use.
LABEL_GAP_PX = 6
LABEL_HEIGHT_SHARE = 0.85
# A label is at most this wide (and this share of the plot's width); a longer one is
# shortened in its middle, where the room is less (the marker's tooltip has it whole).
LABEL_MAX_PX = 360
LABEL_WIDTH_SHARE = 0.6
# A label that would be shortened below this many pixels of text is hidden instead.
LABEL_MIN_PX = 56
# Where a label hangs from its marker's line: its left edge there (reads rightwards), or its
# right edge (where the plot has no room right of the line).
RIGHT, LEFT = (0.0, 0.0), (1.0, 0.0)


def place_label(lanes: list[list[tuple[float, float]]], x: float, wanted: float, width: float,
                minimum: float = LABEL_MIN_PX, gap: float = LABEL_GAP_PX) -> tuple[int, tuple[float, float], float] | None:  # fmt: skip
    """Where a label ``wanted`` pixels wide hangs from a line at ``x`` (pixels from the plot's
    left edge, which is ``width`` wide), among the labels already in ``lanes`` (per lane,
    their (left, right) spans): (lane, side, pixels it gets), or None (no room for ``minimum``).

    The first lane (from the top) where it fits whole, right of the line (reading on from
    its marker, into a span), else left of it; where it fits whole in no lane, the lane with
    the most room right of the line, where it is shortened; else the most room left of it.
    It never reaches past the plot's edges, nor within ``gap`` of another label."""
    rooms: list[tuple[int, float, float]] = []  # per lane with the line free: room right, left
    for lane, taken in enumerate(lanes):
        low, high = 0.0, width
        for left, right in taken:
            if right + gap <= x:
                low = max(low, right + gap)
            elif left - gap >= x:
                high = min(high, left - gap)
            else:  # a label of this lane covers the line
                break
        else:
            if high - x >= wanted:
                return lane, RIGHT, wanted
            if x - low >= wanted:
                return lane, LEFT, wanted
            rooms.append((lane, high - x, x - low))
    for side, index in ((RIGHT, 1), (LEFT, 2)):
        best = max(rooms, key=lambda room: room[index], default=None)
        if best is not None and best[index] >= minimum:
            return best[0], side, best[index]
    return None
