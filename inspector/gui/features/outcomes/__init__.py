"""How each of the window's tasks went, where the user looks for it: the action bar's words at
rest and while a task measures, the error banner for a failure, the status line's busy task.
Every task's, so it is no one task's feature (the moves', say); the words several features share
are ``common.outcome_words``."""
