"""The board in a browser: `pogdsl serve` (a game played by clicks) and
`pogdsl view` (a game's record stepped through).

The server is a thin layer over the decisions the terminal offers
(pogdsl/runtime/record.py's Session): the same options, the same refusals
with the same rules, the same saves.  `table.Table` holds one game and its
players and answers for one seat at a time; `app.make_app` puts it behind
a JSON API (Starlette); `static/` is the page (plain HTML, CSS and
JavaScript, no build step, nothing fetched from elsewhere).
"""
