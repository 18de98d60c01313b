"""Help › Lessons: the tutorial run on the live session."""
