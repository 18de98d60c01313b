"""The Compare tab's side A (this session's own report) is rebuilt when the session has changed
since it was asked for: a revision of the session state (``SessionState.revision``), not a
flag the report feature sets from five signals."""

from __future__ import annotations

from tests.gui.conftest import wait_idle
from tests.gui import doors
from inspector.gui.common.pages import COMPARISON
from inspector.gui.features.report.flow import ReportFlow


def test_side_a_is_rebuilt_after_a_move_and_only_then(make_window, qtbot):
    window = make_window()
    reports, state = doors.part(window, ReportFlow), window.session_state
    window.tabs.setCurrentWidget(doors.page(window, COMPARISON))  # side A follows the session while shown
    qtbot.waitUntil(lambda: reports.session_report is not None and not reports._session_in_flight, timeout=60_000)
    first, revision = reports.session_report, state.revision
    assert not reports.session_stale

    reports.maybe_refresh_session()  # nothing changed: nothing is asked again
    assert not reports._session_in_flight and reports.session_report is first

    doors.bar(window).set_dtype("float64")
    doors.bar(window).toDeviceButton.click()  # Move to the target, in float64
    qtbot.waitUntil(lambda: state.revision == revision + 1, timeout=60_000)
    wait_idle(qtbot, window)
    # The move's end was a moment to rebuild: side A is this revision's report now.
    qtbot.waitUntil(lambda: reports.session_report is not first and not reports._session_in_flight, timeout=60_000)
    assert not reports.session_stale
