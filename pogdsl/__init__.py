"""pogdsl: a rules language and engine for the card-driven "Glory" wargames."""

__version__ = "0.1.0"
