"""Golden tests for the checker's diagnostics, with their mini project."""
