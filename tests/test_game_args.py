"""The shared --game/--rows/--cols/--k block (games/cli.py): every CLI offers every game kind, bad sizes are usage errors."""

from __future__ import annotations

import argparse
import importlib

import pytest

from games import GAME_KINDS, MNK, Connect4
from games.cli import add_game_arguments, game_from_args

CLIS = ["games.perft", "envs.play", "search.solve", "tuning.match", "tuning.fit", "tuning.blunders", "tuning.labels",
        "tuning.run"]  # fmt: skip
PARSER_MODULE = {"search.solve": "search.solve.cli"}
"""Where a command line's parser lives when the module users run delegates to a private one."""


def game_action(parser: argparse.ArgumentParser) -> argparse.Action:
    return next(a for a in parser._actions if a.dest == "game")


@pytest.mark.parametrize("module", CLIS)
def test_every_cli_offers_every_game_kind_and_the_sizes(module: str) -> None:
    parser = importlib.import_module(PARSER_MODULE.get(module, module))._parser()  # type: ignore[attr-defined]
    assert tuple(game_action(parser).choices or ()) == GAME_KINDS  # solve, match and run offered connect4 and mnk only
    assert {"rows", "cols", "k"} <= {a.dest for a in parser._actions}


@pytest.mark.parametrize(
    "argv, game",
    [([], Connect4()), (["--game", "connect4", "--rows", "5", "--cols", "4"], Connect4(5, 4, 4)),
     (["--game", "mnk", "--rows", "4", "--cols", "5", "--k", "3"], MNK(4, 5, 3)), (["--game", "gomoku"], MNK(15, 15, 5))],
)  # fmt: skip
def test_the_options_build_the_game(argv: list[str], game: object) -> None:
    parser = argparse.ArgumentParser()
    add_game_arguments(parser)
    assert game_from_args(parser, parser.parse_args(argv)) == game


@pytest.mark.parametrize(
    "argv, message",
    [(["--game", "mnk", "--rows", "3"], "missing: cols, k"), (["--game", "connect4", "--k", "9"], "k=9 is out of range"),
     (["--game", "tictactoe", "--rows", "4"], "tictactoe is fixed at"), (["--game", "chess"], "invalid choice: 'chess'")],
)  # fmt: skip
def test_bad_options_are_one_line_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="cli")
    add_game_arguments(parser)
    with pytest.raises(SystemExit) as exit_info:
        game_from_args(parser, parser.parse_args(argv))
    assert exit_info.value.code == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0]


def test_the_blunder_table_script_takes_the_sizes_too(capsys: pytest.CaptureFixture[str]) -> None:
    from scripts import blunder_table

    with pytest.raises(SystemExit) as exit_info:
        blunder_table.main(["random", "--game", "mnk", "--rows", "3", "--cols", "3"])
    assert exit_info.value.code == 2 and "missing: k" in capsys.readouterr().err
