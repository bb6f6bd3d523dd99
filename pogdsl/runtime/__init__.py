"""The interpreter.  Its hottest modules may run compiled (see native.py):
the finder that picks a compiled module or its source is set up here, before
any of them is imported."""

from . import native

native.install()
