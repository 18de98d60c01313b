"""Windows fit the screen they open on, and restored geometry lands on a screen that exists."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize

from inspector.gui.common.screen_fit import MARGIN, best_screen, clamped, first_geometry

SMALL = QRect(0, 0, 1024, 700)
FULL_HD = QRect(0, 0, 1920, 1080)
PANEL_TOP = QRect(0, 27, 1024, 673)  # a desktop panel along the top edge


def inside(rect: QRect, area: QRect) -> bool:
    return area.contains(rect)


def test_first_launch_on_a_small_screen_is_the_screen_less_a_margin_centred():
    rect = first_geometry(QSize(1240, 760), SMALL)
    assert rect.size() == QSize(1024 - 2 * MARGIN, 700 - 2 * MARGIN)
    assert rect.center() == SMALL.center() and inside(rect, SMALL)


def test_first_launch_on_a_large_screen_keeps_the_preferred_size_centred():
    rect = first_geometry(QSize(1240, 760), FULL_HD)
    assert rect.size() == QSize(1240, 760) and rect.center() == FULL_HD.center()


def test_first_launch_respects_the_available_area_not_the_whole_screen():
    rect = first_geometry(QSize(1240, 760), PANEL_TOP)
    assert inside(rect, PANEL_TOP) and rect.top() >= 27 + MARGIN


def test_a_saved_geometry_larger_than_the_screen_is_shrunk_onto_it():
    rect = clamped(QRect(100, 80, 1900, 1000), [SMALL])
    assert inside(rect, SMALL) and rect.width() <= 1024 - 2 * MARGIN and rect.height() <= 700 - 2 * MARGIN


def test_a_saved_geometry_on_an_unplugged_screen_lands_on_the_current_one():
    # Saved on a second monitor right of a 1920-wide one; only the laptop's screen is left.
    rect = clamped(QRect(2200, 100, 800, 600), [SMALL])
    assert inside(rect, SMALL) and rect.size() == QSize(800, 600)


def test_a_saved_geometry_above_the_top_edge_comes_down_so_the_title_bar_shows():
    rect = clamped(QRect(50, -300, 800, 600), [PANEL_TOP])
    assert rect.top() >= PANEL_TOP.top() and inside(rect, PANEL_TOP)


def test_a_window_that_fits_stays_where_the_user_put_it():
    saved = QRect(200, 100, 700, 500)
    assert clamped(saved, [SMALL]) == saved


def test_with_two_screens_the_window_stays_on_the_one_it_overlaps_most():
    left, right = QRect(0, 0, 1920, 1080), QRect(1920, 0, 1280, 1024)
    assert best_screen(QRect(2000, 100, 900, 700), [left, right]) == 1
    rect = clamped(QRect(2000, 100, 1600, 1200), [left, right])
    assert inside(rect, right)
