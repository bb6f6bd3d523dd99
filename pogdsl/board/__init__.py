"""Pictures of the board: the map drawn from the scenario's own declarations
(`display` blocks, the spaces' coordinates, marks and connections) and a
game's state.  The runtime never imports this package."""
