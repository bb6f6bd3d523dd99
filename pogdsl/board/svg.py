"""The board as SVG: the scenario's map drawn from its own declarations and a
game's state, for one side's eyes.

What is drawn comes from the compiled world: every space at its `at`
coordinates with its terrain and printed marks, every connection (dotted ones
dashed), the maps' backgrounds around their spaces, and the `display` blocks
(rules/display.pog and whatever a variant adds or replaces) for colours,
glyphs, markers and tracks.  The state gives control, units, fort state,
markers, track values, box contents and pile sizes.  A space or unit a
variant adds is drawn like the others: nothing here names a game's piece.

Hidden information: the picture is drawn for `side` (None: for no side).  It
shows that side's hand only; of any other hand, and of every draw pile, it
shows how many cards there are, never which or in what order.

Every drawn element carries `data-*` attributes (data-space, data-unit,
data-box, data-track, data-card) so a browser can make it clickable.  The
SVG is built with xml.etree, so names are escaped and the document is
well-formed; it refers to no external resource.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..runtime import builtins as B
from ..runtime.values import Entity, text_of
from .roles import TRACK_BUILTINS

SVG_NS = "http://www.w3.org/2000/svg"

SPACE_W, SPACE_H = 64, 26
UNIT_H = 9
MARGIN = 40
PANEL_W = 360
LINE_H = 15

# Used where the display blocks give no colour: plain greys, so a variant
# that declares nothing is still drawn, only less colourfully.
DEFAULT_FILL = "#f5f5f0"
DEFAULT_SIDE = "#999999"
DEFAULT_GLYPHS = {"vp": "*", "capital": "C", "fort": "F", "port": "P", "supply": "S"}


class Display:
    """The display blocks of a program merged in declaration order: a later
    block's line stands over an earlier one's."""

    def __init__(self, program):
        self.colours: dict[tuple[str, str], str] = {}
        self.glyphs: dict[str, str] = dict(DEFAULT_GLYPHS)
        self.markers: dict[str, str] = {}
        self.tracks: dict[str, tuple[str, list[str]]] = {}
        for decl in program.all("display"):
            for item in decl.items:
                name = item.name.text
                if item.item == "colour":
                    self.colours[(item.kind, name)] = item.text
                elif item.item == "glyph":
                    self.glyphs[name] = item.text
                elif item.item == "marker":
                    self.markers[name] = item.text
                elif item.item == "track":
                    self.tracks[name] = (item.text, [n.text for n in item.only])

    def colour(self, kind: str, entity, default: str) -> str:
        key = entity.key if isinstance(entity, Entity) else entity
        return self.colours.get((kind, key), default) if key is not None else default


def _key(value) -> str | None:
    return value.key if isinstance(value, Entity) else value


def _text(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return text_of(value)


def track_values(game, name: str, only: list[str]) -> list[str] | None:
    """A track's values as shown ("3 of 1-20", or "ge 2, ah 1" for one kept
    per nation), None for a track of a rule the scenario left out."""
    s, w = game.s, game.w
    if name in TRACK_BUILTINS:
        return [f"{s['turn']} of {w.first_turn}-{w.last_turn}"]
    decl = w.state_decls.get(name)
    if decl is None:
        return None
    if decl.scope is None:
        return [_text(s["vars"][name])]
    every = w.by_kind.get(decl.scope.text, {})
    keys = only or list(every)
    return [f"{k} {_text(B.read_scoped(game, name, every[k]))}" for k in keys if k in every]


def track_rows(game) -> list[tuple[str, str, list[str]]]:
    """Every track the display blocks declare, as (name, label, values), in
    their order: the status line of a page shows the same as the panel."""
    display = Display(game.w.program)
    rows = []
    for name, (label, only) in display.tracks.items():
        values = track_values(game, name, only)
        if values is not None:
            rows.append((name, label, values))
    return rows


class Board:
    """One drawing of one position."""

    def __init__(self, game, side: str | None = None):
        self.g, self.w, self.s = game, game.w, game.s
        self.side = side
        self.display = Display(self.w.program)
        placed = [sp.data.at for sp in self.w.spaces if sp.data.at]
        xs = [at[0] for at in placed] or [0]
        ys = [at[1] for at in placed] or [0]
        self.x0, self.y0 = min(xs) - SPACE_W, min(ys) - SPACE_H - MARGIN
        self.map_right = max(xs) + SPACE_W
        self.map_bottom = max(ys) + SPACE_H * 3
        self.unplaced = [sp for sp in self.w.spaces if not sp.data.at]
        self.root = ET.Element("svg", {"xmlns": SVG_NS, "version": "1.1", "class": "pog-board",
                                       "data-scenario": self.w.scenario.key, "data-turn": str(self.s["turn"]),
                                       "data-side": side or ""})

    # ------------------------------------------------------------ helpers
    def at(self, sp) -> tuple[float, float]:
        if sp.data.at:
            return sp.data.at[0] - self.x0, sp.data.at[1] - self.y0
        i = self.unplaced.index(sp)  # a space with no coordinates: a row under the map
        return MARGIN + SPACE_W + (i % 20) * (SPACE_W + 10), self.map_bottom - self.y0 + 40 + (i // 20) * 60

    def group(self, parent, cls: str, **data) -> ET.Element:
        attrs = {"class": cls}
        attrs.update({f"data-{k}": str(v) for k, v in data.items()})
        return ET.SubElement(parent, "g", attrs)

    @staticmethod
    def text(parent, x: float, y: float, content: str, size: float = 9, **attrs) -> ET.Element:
        el = ET.SubElement(parent, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": str(size),
                                            **{k.replace("_", "-"): str(v) for k, v in attrs.items()}})
        el.text = content
        return el

    def side_colour(self, side) -> str:
        return self.display.colour("side", side, DEFAULT_SIDE)

    def scoped(self, name: str, entity):
        return B.read_scoped(self.g, name, entity)

    # ------------------------------------------------------------ the map
    def draw_maps(self, layer) -> None:
        for m in self.w.by_kind.get("map", {}).values():
            mine = [self.at(sp) for sp in self.w.spaces if _key(sp.data.map) == m.key and sp.data.at]
            if not mine:
                continue
            x1 = min(p[0] for p in mine) - SPACE_W
            y1 = min(p[1] for p in mine) - SPACE_H - 18
            x2 = max(p[0] for p in mine) + SPACE_W
            y2 = max(p[1] for p in mine) + SPACE_H * 2
            g = self.group(layer, "map", map=m.key)
            ET.SubElement(g, "rect", {"x": f"{x1:.0f}", "y": f"{y1:.0f}", "width": f"{x2 - x1:.0f}",
                                      "height": f"{y2 - y1:.0f}", "rx": "12", "stroke": "#8a8070",
                                      "fill": self.display.colour("map", m, "#eeeeee")})
            title = m.data.title if getattr(m.data, "title", None) else m.key
            self.text(g, x1 + 10, y1 + 20, title, 16, font_weight="bold", fill="#6a6050")

    def draw_connections(self, layer) -> None:
        w = self.w
        for i, links in enumerate(w.adjacency):
            for j, only in links:
                if j <= i:
                    continue
                a, b = w.spaces[i], w.spaces[j]
                (x1, y1), (x2, y2) = self.at(a), self.at(b)
                attrs = {"x1": f"{x1:.0f}", "y1": f"{y1:.0f}", "x2": f"{x2:.0f}", "y2": f"{y2:.0f}",
                         "stroke": "#5a5040", "stroke-width": "1.6", "class": "connection",
                         "data-from": a.key, "data-to": b.key,
                         "data-line": "solid" if only is None else "dotted"}
                if only is not None:
                    attrs.update({"stroke-dasharray": "3 4", "data-only": " ".join(sorted(only))})
                ET.SubElement(layer, "line", attrs)

    def space_state(self, sp) -> tuple:
        """Everything of the position that space SP's drawing shows: equal
        states draw the same text (Parts reuses it)."""
        s = self.s
        units = tuple((i, bool(s["reduced"][i]), tuple(self.unit_tags(self.w.units[i])))
                      for i in s["occ"][self.w.location(sp)])
        return (s["control"][sp.index], bool(s["fort_destroyed"][sp.index]), tuple(self.space_tags(sp)), units)

    def draw_space(self, layer, sp, tags=None) -> None:
        d, s, disp = sp.data, self.s, self.display
        x, y = self.at(sp)
        control = s["control"][sp.index]
        fort_state = "none"
        if d.fort:
            fort_state = "destroyed" if s["fort_destroyed"][sp.index] else "intact"
        g = self.group(layer, "space", space=sp.key, nation=_key(d.nation) or "", terrain=_key(d.terrain) or "",
                       control=control or "", fort=fort_state, map=_key(d.map) or "")
        ET.SubElement(g, "title").text = f"{sp.key} ({_key(d.terrain)}, {_key(d.nation)})"
        ET.SubElement(g, "rect", {
            "x": f"{x - SPACE_W / 2:.1f}", "y": f"{y - SPACE_H / 2:.1f}", "width": str(SPACE_W),
            "height": str(SPACE_H), "rx": "4", "fill": disp.colour("terrain", d.terrain, DEFAULT_FILL),
            "stroke": disp.colour("nation", d.nation, "#777777"), "stroke-width": "1.5"})
        if control is not None:  # the control band along the top
            ET.SubElement(g, "rect", {"x": f"{x - SPACE_W / 2:.1f}", "y": f"{y - SPACE_H / 2:.1f}",
                                      "width": str(SPACE_W), "height": "5", "class": "control",
                                      "data-control": control, "fill": self.side_colour(control)})
        self.text(g, x, y + 3, sp.key, 8, text_anchor="middle", fill="#222222")
        self.text(g, x, y + 11, self.marks(sp, fort_state), 7, text_anchor="middle", fill="#5a2a00",
                  **{"class": "marks"})
        self.draw_space_markers(g, sp, x, y, tags)
        self.draw_units(g, sp, x, y + SPACE_H / 2 + 1)

    def marks(self, sp, fort_state: str) -> str:
        d, glyph = sp.data, self.display.glyphs
        marks = []
        if d.vp:
            marks.append(glyph["vp"])
        if d.capital:
            marks.append(glyph["capital"])
        if d.fort:
            marks.append(f"{glyph['fort']}{d.fort}" + ("x" if fort_state == "destroyed" else ""))
        if d.supply:
            marks.append(glyph["supply"])
        if any(p is not None for p in d.ports):
            marks.append(glyph["port"])
        return " ".join(marks)

    def marker_value(self, name: str, kind: str, entity):
        """A marker's value for ENTITY (a space or unit), read from the
        state or worked out by the value the marker names; None when the
        marker is not kept or computed per KIND."""
        decl = self.w.state_decls.get(name)
        if decl is not None:
            return self.scoped(name, entity) if decl.scope is not None and decl.scope.text == kind else None
        value = self.value_markers.get(name)
        if value is not None and value == kind:
            return B.value_of(self.g, name, (entity,))
        return None

    @property
    def value_markers(self) -> dict[str, str]:
        """The markers that name a declared value: name → the kind it takes."""
        found = self.__dict__.get("_value_markers")
        if found is None:
            found = {}
            for name in self.display.markers:
                decl = self.w.program.decls["value"].get(name)
                if name not in self.w.state_decls and decl is not None and len(decl.params) == 1 \
                        and decl.params[0].type is not None:
                    found[name] = decl.params[0].type.text
            self._value_markers = found
        return found

    def space_tags(self, sp) -> list[tuple[str, str]]:
        """The markers shown beside space SP: (state name, label)."""
        tags = []
        for name, label in self.display.markers.items():
            decl = self.w.state_decls.get(name)
            if decl is None:
                if self.value_markers.get(name) == "space" and self.marker_value(name, "space", sp):
                    tags.append((name, label))
                continue
            if decl.scope is not None and decl.scope.text == "space":
                value = self.scoped(name, sp)
                if value and value is not None:
                    tags.append((name, label if value is True else f"{label}{_text(value)}"))
            elif decl.scope is None and _key(self.s["vars"].get(name)) == sp.key:
                tags.append((name, label))
        return tags

    def draw_space_markers(self, g, sp, x, y, tags=None) -> None:
        for k, (name, label) in enumerate(self.space_tags(sp) if tags is None else tags):
            mg = self.group(g, "marker", marker=name, space=sp.key)
            self.text(mg, x + SPACE_W / 2 + 2, y - SPACE_H / 2 + 8 + k * 9, label, 8, fill="#b00000",
                      font_weight="bold")

    def draw_units(self, g, place, x, y) -> None:
        for k, i in enumerate(self.s["occ"][self.w.location(place)]):
            self.draw_unit(g, self.w.units[i], x - SPACE_W / 2, y + k * UNIT_H, SPACE_W)

    def draw_unit(self, parent, u, x, y, width) -> None:
        d = u.data
        reduced = bool(self.s["reduced"][u.index])
        shown = d.reduced if (reduced and d.reduced) else d.full
        factors = "-".join(str(f) for f in shown) if shown else ""
        g = self.group(parent, "unit", unit=u.key, piece=u.index, nation=_key(d.nation) or "",
                       strength="reduced" if reduced else "full")
        ET.SubElement(g, "rect", {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": f"{width:.0f}",
                                  "height": str(UNIT_H - 1), "fill": self.display.colour("nation", d.nation, "#cccccc"),
                                  "stroke": self.side_colour(d.side), "stroke-dasharray": "2 1" if reduced else "none",
                                  "opacity": "0.75" if reduced else "1"})
        label = f"{u.key} {factors}" + (" r" if reduced else "") + "".join(f" {tag}" for tag in self.unit_tags(u))
        self.text(g, x + 2, y + UNIT_H - 2.5, label, 6.5, fill="#000000")

    def unit_tags(self, u) -> list[str]:
        """The labels of the markers a unit carries (those kept per unit)."""
        tags = []
        for name, tag in self.display.markers.items():
            if self.marker_value(name, "unit", u):
                tags.append(tag)
        return tags

    # ------------------------------------------------------------ the panel
    def draw_panel(self, layer) -> None:
        x = self.map_right - self.x0 + MARGIN
        y = MARGIN
        y = self.draw_tracks(layer, x, y)
        y = self.draw_boxes(layer, x, y + LINE_H)
        y = self.draw_piles(layer, x, y + LINE_H)
        self.panel_bottom = y

    def heading(self, parent, x, y, content: str) -> float:
        self.text(parent, x, y, content, 13, font_weight="bold", fill="#333333")
        return y + LINE_H + 2

    def draw_tracks(self, layer, x, y) -> float:
        g = self.group(layer, "tracks")
        y = self.heading(g, x, y, "Tracks")
        for name, (label, only) in self.display.tracks.items():
            values = self.track_values(name, only)
            if values is None:
                continue
            tg = self.group(g, "track", track=name)
            # A track kept per side or nation: a few values a line, so the panel stays narrow.
            lines = [values[i:i + 5] for i in range(0, len(values), 5)] or [[]]
            for k, part in enumerate(lines):
                self.text(tg, x + (10 if k else 0), y, (f"{label}: " if not k else "") + ", ".join(part), 11,
                          fill="#222222")
                y += LINE_H
        return y

    def track_values(self, name: str, only: list[str]) -> list[str] | None:
        return track_values(self.g, name, only)

    def draw_boxes(self, layer, x, y) -> float:
        g = self.group(layer, "boxes")
        y = self.heading(g, x, y, "Boxes")
        for box in self.w.boxes:
            decl, side = box.data
            pieces = self.s["occ"][self.w.location(box)]
            bg = self.group(g, "box", box=box.key, side=_key(side) or "")
            title = f"{decl.title or decl.key}" + (f" ({_key(side)})" if side is not None else "")
            self.text(bg, x, y, f"{title}: {len(pieces)}", 11, fill="#222222")
            y += LINE_H - 3
            for k, i in enumerate(pieces):
                col, row = k % 4, k // 4
                self.draw_unit(bg, self.w.units[i], x + col * 80, y + row * UNIT_H, 78)
            y += ((len(pieces) + 3) // 4) * UNIT_H + LINE_H
        return y

    def draw_piles(self, layer, x, y) -> float:
        g = self.group(layer, "piles")
        y = self.heading(g, x, y, "Cards" + (f" (seen by {self.side})" if self.side else ""))
        piles = self.s["piles"]
        for side in self.w.sides:
            counts = {k: len(piles.get(f"{k}:{side.key}", ())) for k in ("hand", "draw", "discard", "removed")}
            pg = self.group(g, "pile", side=side.key)
            self.text(pg, x, y, f"{side.key}: hand {counts['hand']}, draw {counts['draw']}, "
                      f"discard {counts['discard']}, removed {counts['removed']}", 11, fill="#222222")
            y += LINE_H
            if side.key == self.side:  # the viewing side's own hand, and nobody else's
                for i in sorted(piles[f"hand:{side.key}"], key=lambda i: self.w.cards[i].data.number):
                    card = self.w.cards[i].data
                    cg = self.group(pg, "card", card=f"{side.key.upper()} {card.number}")
                    self.text(cg, x + 10, y, f"{side.key.upper()} {card.number} {card.name.text} "
                              f"(ops {card.ops})", 10, fill="#222222")
                    y += LINE_H - 2
        return y

    # ------------------------------------------------------------ the whole
    def render(self) -> str:
        """The whole picture.  The maps and connections never change within
        a world, and a space whose state is unchanged draws the same text:
        both are kept (Parts), so drawing a position after a decision costs
        the spaces that changed and the panel."""
        return join_pieces(self.pieces())

    def pieces(self) -> dict[str, str]:
        """The picture's text in pieces a page can replace one by one:
        "shell" (the <svg> element, its layers at HOLE), "under" (background,
        maps, connections), each space's group ("space:KEY", in the map's
        order) and "panel"."""
        parts = _parts(self)
        spaces = {f"space:{sp.key}": parts.space_text(self, sp) for sp in self.w.spaces}
        panel = ET.Element("g", {"class": "panel"})
        self.draw_panel(panel)
        width = self.map_right - self.x0 + MARGIN * 2 + PANEL_W
        rows = (len(self.unplaced) + 19) // 20
        height = max(self.map_bottom - self.y0 + rows * 60 + MARGIN, self.panel_bottom + MARGIN)
        size = {"width": f"{width:.0f}", "height": f"{height:.0f}"}
        background = ET.Element("rect", {"x": "0", "y": "0", "fill": "#fbfaf5", **size})
        self.root.attrib.update(size)
        self.root.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
        self.root.set("font-family", "DejaVu Sans, sans-serif")
        self.root.text = HOLE
        shell = ET.tostring(self.root, encoding="unicode", xml_declaration=True)
        return {"shell": shell, "under": _xml(background) + parts.static, **spaces, "panel": _xml(panel)}


def join_pieces(pieces: dict[str, str]) -> str:
    """The SVG text of a picture's pieces (Board.pieces)."""
    spaces = "".join(text for key, text in pieces.items() if key.startswith("space:"))
    inside = pieces["under"] + '<g class="spaces">' + spaces + "</g>" + pieces["panel"]
    return pieces["shell"].replace(HOLE, inside, 1)


def changed_pieces(before: dict[str, str], after: dict[str, str]) -> dict[str, str] | None:
    """The spaces' groups and the panel that differ from BEFORE to AFTER (two
    pictures' pieces), or None when more changed than a page can replace
    piece by piece (the picture's size, a turn, another world)."""
    if before.keys() != after.keys() or before["shell"] != after["shell"] or before["under"] != after["under"]:
        return None
    return {key: text for key, text in after.items() if before[key] != text}


HOLE = "\x00"  # where a picture's layers go in its <svg> element (no drawn text holds a NUL)


def _xml(el) -> str:
    return ET.tostring(el, encoding="unicode")


class Parts:
    """What one world's pictures share: the maps and connections (drawn
    once) and each space's text for the state it was last drawn in."""

    def __init__(self, board: "Board"):
        self.world = board.w
        self.program = board.w.program
        maps = ET.Element("g", {"class": "maps"})
        board.draw_maps(maps)
        lines = ET.Element("g", {"class": "connections"})
        board.draw_connections(lines)
        self.static = _xml(maps) + _xml(lines)
        self.spaces: dict[int, tuple[tuple, str]] = {}

    def space_text(self, board: "Board", sp) -> str:
        state = board.space_state(sp)
        found = self.spaces.get(sp.index)
        if found is not None and found[0] == state:
            return found[1]
        holder = ET.Element("g")
        board.draw_space(holder, sp, list(state[2]))
        text = _xml(holder[0])
        self.spaces[sp.index] = (state, text)
        return text


_PARTS: dict[int, Parts] = {}


def _parts(board: "Board") -> Parts:
    found = _PARTS.get(id(board.w))
    if found is None or found.world is not board.w or found.program is not board.w.program:
        if len(_PARTS) > 8:
            _PARTS.clear()
        found = _PARTS[id(board.w)] = Parts(board)
    return found


def board_svg(game, side: str | None = None) -> str:
    """The SVG text of `game`'s board seen by `side` (a side key, or None for
    a picture that shows no hand)."""
    if side is not None and side not in game.w.by_kind.get("side", {}):
        raise ValueError(f"no side named '{side}' (sides: {', '.join(s.key for s in game.w.sides)})")
    return Board(game, side).render()


def board_pieces(game, side: str | None = None) -> dict[str, str]:
    """board_svg's picture in pieces (Board.pieces; join_pieces makes the text)."""
    if side is not None and side not in game.w.by_kind.get("side", {}):
        raise ValueError(f"no side named '{side}' (sides: {', '.join(s.key for s in game.w.sides)})")
    return Board(game, side).pieces()


class NoRasteriser(Exception):
    """PNG asked for where CairoSVG or the cairo library is missing."""


def svg_to_png(svg: str) -> bytes:
    """The SVG rasterised by CairoSVG (docs/dependencies.rst says why)."""
    try:
        import cairosvg
    except (ImportError, OSError) as err:  # OSError: cairocffi finds no libcairo
        raise NoRasteriser(f"PNG needs CairoSVG and the cairo library ({err}); --svg works without them") \
            from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))


def output_problem(path: str) -> str | None:
    """Why `path` cannot take a picture (one line), or None: checked before a
    game is played, so a typo in a folder name costs nothing."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return f"{path} is a directory, not a file to write the picture to"
    if not os.path.isdir(folder):
        return f"cannot write {path}: the folder {os.path.dirname(path) or folder} does not exist"
    if not os.access(folder, os.W_OK):
        return f"cannot write {path}: the folder is not writable"
    return None


def write_atomic(path: str, data: bytes) -> None:
    """Write `data` to `path` through a temporary file beside it, so a reader
    (or a crash) never sees half a picture; OSError as the system gives it."""
    import os
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".pogdsl-", suffix=".tmp", dir=folder)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary open would make it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
