"""An outcome for the History tab that no task of the worker's had: said on the session state
(``SessionState.noted``) by who saw it (a remote window's connection: connected, ended, lost),
written as a row by the history feature, which is the one that owns the tab; a note that is a
failure the user must see now (a lost connection) is shown in the error banner too, by the
outcomes feature, which says it again on a change of language."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.gui.common.faces import Said


@dataclass(frozen=True)
class Note:
    """One row of the History: what happened and how it went (each a text, or the function
    that says it again on a change of language)."""

    call: Said
    result: Said
    ok: bool = True
    #: A failure for the error banner too (its title names ``call``).
    failure: NoteFailure | None = None


@dataclass(frozen=True)
class NoteFailure:
    """A note's failure: its kind (the banner's heading), and its message as a text or the
    function that says it again in the language then installed."""

    kind: str
    message: Said
    detail: str = ""
