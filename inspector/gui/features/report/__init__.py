"""The session's report: export to a file, copy as Markdown, open one."""
