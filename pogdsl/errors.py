"""The two ways a command fails for its user's mistake (never a traceback).

Kept apart from the compiler so that the CLI can catch them without loading it.
"""

from __future__ import annotations


class UsageError(Exception):
    """A problem with how a command was called (exit status 2), not with a source."""


class SourceErrors(Exception):
    """The sources a command needs have errors (exit status 1): show them."""

    def __init__(self, comp):
        super().__init__("the sources have errors")
        self.comp = comp
