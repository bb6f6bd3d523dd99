"""The display vocabulary the checker and the drawing share: the marks a
`glyph` line may set and the tracks the drawing reads from the interpreter
itself rather than from a declared state variable.  No game fact lives here:
these are the map's kinds of printed mark (2.1), not spaces or nations."""

GLYPH_ROLES = ("vp", "capital", "fort", "port", "supply")

# `track turn "Turn"`: the turn is the interpreter's own counter, not a state
# declaration.
TRACK_BUILTINS = ("turn",)
