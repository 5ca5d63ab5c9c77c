"""Boards as SVG strings, as python-chess's ``chess.svg`` draws chess boards: for notebooks, documents and tests.

The page draws the same picture with ``static/board.js`` (the same sizes and colours): Connect-4 as a
blue frame of holes with red and yellow discs, m,n,k boards as a wooden grid with black and white
stones, column letters and row numbers as the notation names them.  A principal variation is drawn as
numbered translucent stones, and per-move labels (the solver's scores) above the columns or on the cells.

Example:
    >>> from games import CONNECT4
    >>> svg = board_svg(CONNECT4.position("4453"), pv=[3, 3], labels={3: "+2"})
    >>> svg.startswith("<svg") and svg.count('class="stone') == 4 and svg.count('class="pv') == 2
    True
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence
from xml.sax.saxutils import escape

from arena import _engine as engine
from arena.positions import last_cell, winning_cells

CELL = 40
"""Pixels per cell (the page scales the picture to its width)."""
MARGIN = 24
"""Room for the labels above and the coordinates around the board."""
COLOURS = {
    "frame": "#1f5fbf", "hole": "#f4f6fb", "wood": "#e3b869", "line": "#6b4a1a",
    "x_gravity": "#d7263d", "o_gravity": "#f5c400", "x_free": "#111111", "o_free": "#fafafa",
}  # fmt: skip


def _stone_colour(player: int, gravity: bool) -> str:
    return COLOURS[f"{'xo'[player]}_{'gravity' if gravity else 'free'}"]


def board_svg(position: engine.Position, *, pv: Sequence[engine.Action] = (),
              labels: Optional[Mapping[engine.Action, str]] = None, cell: int = CELL) -> str:  # fmt: skip
    """The board of ``position`` as an SVG document.

    Args:
        position: the position to draw; its last stone is ringed, a winning line marked.
        pv: moves to show after it (a principal variation), as numbered translucent stones.
        labels: text per action, drawn above its column (Connect-4) or on its cell (m,n,k).
        cell: pixels per cell.
    """
    game = position.game
    rows, cols, gravity = game.rows, game.cols, game.gravity
    width, height = cols * cell + 2 * MARGIN, rows * cell + 2 * MARGIN
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'class="board" font-family="sans-serif">']  # fmt: skip
    parts.append(_background(rows, cols, gravity, cell))
    board = position.board()
    radius = cell * 0.42
    last = position.last_move
    for r in range(rows):
        for c in range(cols):
            if board[r, c]:
                cx, cy = MARGIN + (c + 0.5) * cell, MARGIN + (r + 0.5) * cell
                parts.append(f'<circle class="stone" cx="{cx:g}" cy="{cy:g}" r="{radius:g}" '
                             f'fill="{_stone_colour(board[r, c] - 1, gravity)}" stroke="#333" stroke-width="1"/>')  # fmt: skip
    if last is not None:
        r, c = last_cell(position)
        parts.append(f'<circle class="last" cx="{MARGIN + (c + 0.5) * cell:g}" cy="{MARGIN + (r + 0.5) * cell:g}" '
                     f'r="{cell * 0.12:g}" fill="#888"/>')  # fmt: skip
    for r, c in winning_cells(position):
        parts.append(f'<circle class="win" cx="{MARGIN + (c + 0.5) * cell:g}" cy="{MARGIN + (r + 0.5) * cell:g}" '
                     f'r="{radius * 0.55:g}" fill="none" stroke="#2e7d32" stroke-width="4"/>')  # fmt: skip
    parts += _pv(position, pv, cell, radius)
    parts += _labels(position, labels or {}, cell)
    parts.append("</svg>")
    return "".join(parts)


def _background(rows: int, cols: int, gravity: bool, cell: int) -> str:
    """The frame (Connect-4: blue with holes) or the wooden grid with coordinates (m,n,k)."""
    w, h = cols * cell, rows * cell
    if gravity:
        holes = "".join(f'<circle cx="{MARGIN + (c + 0.5) * cell:g}" cy="{MARGIN + (r + 0.5) * cell:g}" r="{cell * 0.42:g}" '
                        f'fill="{COLOURS["hole"]}"/>' for r in range(rows) for c in range(cols))  # fmt: skip
        numbers = "".join(f'<text x="{MARGIN + (c + 0.5) * cell:g}" y="{MARGIN + h + 16}" font-size="12" '
                          f'text-anchor="middle" fill="#333">{c + 1}</text>' for c in range(cols))  # fmt: skip
        return f'<rect x="{MARGIN}" y="{MARGIN}" width="{w}" height="{h}" rx="8" fill="{COLOURS["frame"]}"/>{holes}{numbers}'
    lines = "".join(f'<line x1="{MARGIN + (c + 0.5) * cell:g}" y1="{MARGIN + cell / 2:g}" x2="{MARGIN + (c + 0.5) * cell:g}" '
                    f'y2="{MARGIN + h - cell / 2:g}" stroke="{COLOURS["line"]}"/>' for c in range(cols))  # fmt: skip
    lines += "".join(f'<line x1="{MARGIN + cell / 2:g}" y1="{MARGIN + (r + 0.5) * cell:g}" x2="{MARGIN + w - cell / 2:g}" '
                     f'y2="{MARGIN + (r + 0.5) * cell:g}" stroke="{COLOURS["line"]}"/>' for r in range(rows))  # fmt: skip
    letters = "".join(f'<text x="{MARGIN + (c + 0.5) * cell:g}" y="{MARGIN + h + 16}" font-size="12" text-anchor="middle" '
                      f'fill="#333">{engine.column_name(c)}</text>' for c in range(cols))  # fmt: skip
    numbers = "".join(f'<text x="{MARGIN - 6}" y="{MARGIN + (r + 0.5) * cell + 4:g}" font-size="12" text-anchor="end" '
                      f'fill="#333">{rows - r}</text>' for r in range(rows))  # fmt: skip
    return f'<rect x="{MARGIN}" y="{MARGIN}" width="{w}" height="{h}" fill="{COLOURS["wood"]}"/>{lines}{letters}{numbers}'


def _pv(position: engine.Position, pv: Sequence[engine.Action], cell: int, radius: float) -> list[str]:
    """Numbered translucent stones for the moves of ``pv`` (stopped at the first illegal one)."""
    parts, after = [], position.copy()
    for number, move in enumerate(pv, 1):
        if not after.is_legal(move):
            break
        colour = _stone_colour(after.to_move, position.game.gravity)
        after.play(move)
        r, c = last_cell(after)
        cx, cy = MARGIN + (c + 0.5) * cell, MARGIN + (r + 0.5) * cell
        ink = "#fff" if colour in (COLOURS["x_free"], COLOURS["x_gravity"]) else "#000"
        parts.append(f'<g class="pv"><circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{colour}" opacity="0.45"/>'
                     f'<text x="{cx:g}" y="{cy + 5:g}" font-size="14" text-anchor="middle" fill="{ink}">{number}</text></g>')  # fmt: skip
    return parts


def _labels(position: engine.Position, labels: Mapping[engine.Action, str], cell: int) -> list[str]:
    """Text per action: above the column with gravity, on the cell without."""
    game = position.game
    parts = []
    for action, text in labels.items():
        if game.gravity:
            x, y = MARGIN + (action + 0.5) * cell, MARGIN - 7.0
        else:
            r, c = divmod(action, game.cols)
            x, y = MARGIN + (c + 0.5) * cell, MARGIN + (r + 0.5) * cell + 4
        parts.append(f'<text class="label" x="{x:g}" y="{y:g}" font-size="13" text-anchor="middle" '
                     f'fill="#222">{escape(text)}</text>')  # fmt: skip
    return parts
