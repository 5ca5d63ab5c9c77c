"""Rendering: text, numpy images (checked cell by cell), and human mode with and without a display."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401
from envs.render import _CONNECT4_COLOURS, _GRID_LINE, _MNK_COLOURS, CELL_PIXELS


def cell_centres(image: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The pixel at the centre of every cell, as an array [rows, cols, 3]."""
    half = CELL_PIXELS // 2
    return image[half::CELL_PIXELS, half::CELL_PIXELS][:rows, :cols]


def test_ansi_is_the_game_cores_board_plus_the_agents_stone() -> None:
    env = gym.make("alphabeta/Connect4-v0", render_mode="ansi", agent_plays="second", opponent=lambda o, m: 3)
    env.reset(seed=0)
    text = env.render()
    assert text == f"{env.unwrapped.game.position('4')}\nagent plays o"
    assert text.splitlines()[5] == ". . . x . . ." and text.splitlines()[-2] == "o to move"


@pytest.mark.parametrize("env_id, sizes", [("alphabeta/Connect4-v0", {"rows": 5, "cols": 6, "k": 4}),
                                           ("alphabeta/MNK-v0", {"rows": 4, "cols": 3, "k": 3})])  # fmt: skip
def test_rgb_array_draws_every_stone_in_its_cell(env_id: str, sizes: dict[str, int]) -> None:
    env = gym.make(env_id, render_mode="rgb_array", agent_plays="random", **sizes)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    colours = _CONNECT4_COLOURS if env.unwrapped.game.gravity else _MNK_COLOURS
    for _ in range(4):
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        image = env.render()
        assert image.dtype == np.uint8 and image.shape == (sizes["rows"] * CELL_PIXELS, sizes["cols"] * CELL_PIXELS, 3)
        board = env.unwrapped.position().board()
        assert np.array_equal(cell_centres(image, sizes["rows"], sizes["cols"]), colours[1 + board])
        if terminated:
            break
    if not env.unwrapped.game.gravity:
        assert image[0, 5].tolist() == _GRID_LINE.tolist()  # the grid of the m,n,k board


def run_python(code: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(environ)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300, env=env)


def test_human_mode_without_a_display_prints_and_never_imports_pygame() -> None:
    out = run_python("""
        import sys
        import gymnasium as gym
        import envs
        env = gym.make("alphabeta/TicTacToe-v0", render_mode="human", opponent=lambda o, m: 0)
        env.reset(seed=0)
        env.step(4)
        env.close()
        print("pygame imported:", "pygame" in sys.modules)
    """)
    assert out.returncode == 0, out.stderr
    assert ". . . 3\n. . . 2\n. . . 1\na b c\nx to move\nagent plays x" in out.stdout  # reset
    assert "o . . 3\n. x . 2\n. . . 1" in out.stdout  # after the step
    assert "pygame imported: False" in out.stdout


def test_human_mode_with_a_display_shows_the_rgb_image_in_a_pygame_window() -> None:
    pytest.importorskip("pygame")
    out = run_python("""
        import numpy as np
        import gymnasium as gym
        import envs
        from envs.render import rgb_image
        env = gym.make("alphabeta/Connect4-v0", render_mode="human", opponent=lambda o, m: 2)
        env.reset(seed=0)
        env.step(3)
        window = env.unwrapped._human
        shown = window.window_pixels()
        print("window:", window.uses_window, shown.shape)
        print("same as rgb_array:", np.array_equal(shown, rgb_image(env.unwrapped.position().board(), env.unwrapped.game)))
        env.close()
        env.close()
    """, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    assert out.returncode == 0, out.stderr
    assert "window: True (288, 336, 3)" in out.stdout and "same as rgb_array: True" in out.stdout


def test_vector_env_renders_one_frame_per_board() -> None:
    env = gym.make_vec("alphabeta/Connect4-v0", num_envs=3, vectorization_mode="vector_entry_point", render_mode="rgb_array")
    env.reset(seed=0)
    frames = env.render()
    assert len(frames) == 3 and all(f.shape == (288, 336, 3) for f in frames)
    text = gym.make_vec("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="vector_entry_point", render_mode="ansi")
    text.reset(seed=0, options={"agent_plays": "second"})
    assert all(frame.endswith("agent plays o") for frame in text.render())
