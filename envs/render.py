"""Drawing boards: text, an RGB image made with numpy alone, and a pygame window that is optional.

* ``"ansi"``: the game core's text board (``str(position)``) plus which
  stone the agent plays;
* ``"rgb_array"``: a ``uint8[rows * cell, cols * cell, 3]`` image drawn with
  numpy (no display, no pygame): Connect-4 as red and yellow discs in a
  blue frame, m,n,k as black and white stones on a wooden grid;
* ``"human"``: the image in a pygame window when pygame is installed
  (``pip install -e ".[render]"``) and a display exists (``DISPLAY`` or
  ``WAYLAND_DISPLAY`` on Linux, or an explicit ``SDL_VIDEODRIVER``);
  otherwise the text board is printed.  pygame is imported when the first
  human frame is shown, never at import time.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Optional, Union

import numpy as np

from games import KInARow, Position
from games.position import STONE_SYMBOLS

RENDER_MODES = ("ansi", "rgb_array", "human")
CELL_PIXELS = 48
"""Side of one cell in ``rgb_array`` images."""

# (background, empty cell, first player's stone, second player's stone), RGB
_CONNECT4_COLOURS = np.array([[25, 75, 180], [235, 235, 235], [215, 40, 40], [245, 200, 30]], dtype=np.uint8)
_MNK_COLOURS = np.array([[215, 175, 105], [215, 175, 105], [25, 25, 25], [245, 245, 245]], dtype=np.uint8)
_GRID_LINE = np.array([90, 60, 30], dtype=np.uint8)


def text_board(position: Position, agent_player: int, who: str = "agent") -> str:
    """The game core's text board with a last line naming the stone of ``who`` (the agent, or "you")."""
    verb = "play" if who == "you" else "plays"
    return f"{position}\n{who} {verb} {STONE_SYMBOLS[agent_player + 1]}"


def _disc(cell: int, radius: float) -> np.ndarray:
    """A boolean ``cell x cell`` mask of a centred disc."""
    centre = (cell - 1) / 2.0
    y, x = np.mgrid[0:cell, 0:cell]
    return np.asarray((y - centre) ** 2 + (x - centre) ** 2 <= radius**2)


def rgb_image(board: np.ndarray, game: KInARow, cell: int = CELL_PIXELS) -> np.ndarray:
    """Draw ``board`` (int8[rows, cols] or flat, 0 empty, 1 and 2 stones, row 0 on top) as a uint8 RGB image.

    Example:
        >>> from games import CONNECT4
        >>> image = rgb_image(CONNECT4.position("4").board(), CONNECT4)
        >>> image.shape, image.dtype
        ((288, 336, 3), dtype('uint8'))
        >>> image[-24, 3 * 48 + 24].tolist()   # the centre of the bottom middle cell: a red disc
        [215, 40, 40]
    """
    rows, cols = game.rows, game.cols
    colours = _CONNECT4_COLOURS if game.gravity else _MNK_COLOURS
    grid = board.reshape(rows, cols).astype(np.intp)
    # Every pixel looks up the stone of its cell; pixels inside the cell's disc take that stone's colour.
    per_pixel = np.repeat(np.repeat(grid, cell, axis=0), cell, axis=1)
    inside = np.tile(_disc(cell, 0.4 * cell), (rows, cols))
    image = np.empty((rows * cell, cols * cell, 3), dtype=np.uint8)
    image[:] = colours[0]
    if game.gravity:
        image[inside] = colours[1 + per_pixel[inside]]
    else:
        image[::cell, :] = _GRID_LINE
        image[:, ::cell] = _GRID_LINE
        stones = inside & (per_pixel > 0)
        image[stones] = colours[1 + per_pixel[stones]]
    return image


def display_available() -> bool:
    """True if a pygame window could be seen: a display on Linux, an explicit SDL driver, or another OS."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


class HumanRenderer:
    """Shows frames in a pygame window if pygame and a display are there, else prints the text board.

    Args:
        title: the window caption.
        fps: frames per second the window keeps (it waits between frames).
    """

    def __init__(self, title: str, fps: int) -> None:
        self.title, self.fps = title, fps
        self._pygame: Any = None
        self._window: Any = None
        self._clock: Any = None
        self.uses_window: Optional[bool] = None  # decided at the first frame

    def _open(self, size: tuple[int, int]) -> bool:
        if not display_available():
            return False
        try:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            import pygame
        except ImportError:
            return False
        pygame.display.init()
        pygame.display.set_caption(self.title)
        self._window = pygame.display.set_mode(size)
        self._clock = pygame.time.Clock()
        self._pygame = pygame
        return True

    def show(self, image: np.ndarray, text: str) -> None:
        """Show one frame: ``image`` (H x W x 3 uint8) in the window, or ``text`` on stdout."""
        if self.uses_window is None:
            self.uses_window = self._open((image.shape[1], image.shape[0]))
        if not self.uses_window:
            print(text, end="\n\n", flush=True)
            return
        pygame = self._pygame
        pygame.event.pump()
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(image.transpose(1, 0, 2)))
        self._window.blit(surface, (0, 0))
        pygame.display.flip()
        self._clock.tick(self.fps)

    def window_pixels(self) -> Optional[np.ndarray]:
        """What the window shows now (H x W x 3 uint8), or None without a window."""
        if not self.uses_window:
            return None
        return np.array(self._pygame.surfarray.array3d(self._window)).transpose(1, 0, 2)

    def close(self) -> None:
        """Close the window (if one was opened); safe to call twice."""
        if self._window is not None:
            self._pygame.display.quit()
            self._window = None
            self.uses_window = None


def render_frame(render_mode: str, board: np.ndarray, game: KInARow, text: Callable[[], str],
                 human: Optional[HumanRenderer]) -> Union[str, np.ndarray, None]:  # fmt: skip
    """What an env's ``render()`` returns in ``render_mode`` (not None): an RGB image of ``board``, the text, or
    None once both are shown in the ``human`` window.  ``text`` is called only where it is needed (it may replay a game)."""
    if render_mode == "rgb_array":
        return rgb_image(board, game)
    if render_mode == "ansi":
        return text()
    assert human is not None, "render_mode='human' builds its window at construction"
    human.show(rgb_image(board, game), text())
    return None
