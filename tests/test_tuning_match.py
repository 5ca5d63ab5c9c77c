"""Openings and matches: symmetry deduplication, undecided openings, pairing, worker-count determinism, planted strength."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games import CONNECT4, TIC_TAC_TOE, make_game
from heuristics import Evaluator
from tests.inprocess import run_main
from tuning.match import MatchResult, PairResult, cached_agent, play_match
from tuning.match import main as match_main
from tuning.openings import OpeningBook, canonical_key, is_decided, make_openings

SQUARE_D4 = "alphabeta:heuristic=square_values,depth=4"
SQUARE_D2 = "alphabeta:heuristic=square_values,depth=2"


def test_mirror_images_share_a_canonical_key() -> None:
    assert canonical_key(CONNECT4.position("12")) == canonical_key(CONNECT4.position("76"))
    assert canonical_key(CONNECT4.position("12")) != canonical_key(CONNECT4.position("21"))
    # m,n,k: the eight symmetries of the square (a1 corner = c3 corner; b1 edge = a2 edge)
    assert canonical_key(TIC_TAC_TOE.position("a1")) == canonical_key(TIC_TAC_TOE.position("c3"))
    assert canonical_key(TIC_TAC_TOE.position("b1")) == canonical_key(TIC_TAC_TOE.position("a2"))
    assert canonical_key(TIC_TAC_TOE.position("a1")) != canonical_key(TIC_TAC_TOE.position("b2"))


def test_tic_tac_toe_has_three_first_moves_up_to_symmetry() -> None:
    book = make_openings(TIC_TAC_TOE, 3, plies=1, seed=0, heldout=0.0, check_depth=0)
    keys = {canonical_key(TIC_TAC_TOE.position(o)) for o in book.tuning}
    assert keys == {canonical_key(TIC_TAC_TOE.position(m)) for m in ("a1", "b1", "b2")}  # corner, edge, centre
    with pytest.raises(ValueError, match="found only 3 distinct"):
        make_openings(TIC_TAC_TOE, 4, plies=1, seed=0, check_depth=0, max_draws=2000)


def test_openings_are_distinct_undecided_and_split() -> None:
    book = make_openings(CONNECT4, 40, plies=4, seed=3, heldout=0.25, check_depth=4)
    everything = book.tuning + book.heldout
    assert len(book.heldout) == 10 and len(book.tuning) == 30
    assert len({canonical_key(CONNECT4.position(o)) for o in everything}) == 40
    evaluator = Evaluator("square_values", CONNECT4)
    assert not any(is_decided(CONNECT4.position(o), evaluator, 4) for o in everything)
    assert all(len(o) == 4 for o in everything)
    assert make_openings(CONNECT4, 40, plies=4, seed=3, heldout=0.25) == book  # seeded


def test_decided_positions_are_recognised() -> None:
    evaluator = Evaluator("square_values", CONNECT4)
    assert is_decided(CONNECT4.position("112233"), evaluator, 2)  # x wins at once with 4
    assert not is_decided(CONNECT4.position("4"), evaluator, 4)


def test_opening_book_round_trips_through_a_file(tmp_path) -> None:
    book = make_openings(make_game("mnk", 5, 5, 4), 6, plies=3, seed=1)
    book.save(tmp_path / "o.json")
    assert OpeningBook.load(tmp_path / "o.json") == book
    (tmp_path / "bad.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="format"):
        OpeningBook.load(tmp_path / "bad.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="deep.json: cannot read openings: JSON nested too deeply"):
        OpeningBook.load(tmp_path / "deep.json")  # a RecursionError from json otherwise
    (tmp_path / "huge.json").write_text("9" * 5000)
    with pytest.raises(ValueError, match="huge.json: cannot read openings: Exceeds the limit"):
        OpeningBook.load(tmp_path / "huge.json")  # an uncaught ValueError of int() before
    with pytest.raises(ValueError, match="plies=-1 must be an integer from 0 to 24 for m,n,k 5,5,4"):
        make_openings(make_game("mnk", 5, 5, 4), 6, plies=-1)
    with pytest.raises(ValueError, match="seed=-2 must be a non-negative integer"):
        make_openings(make_game("mnk", 5, 5, 4), 6, seed=-2)


def test_pair_counts_follow_the_games() -> None:
    result = MatchResult("a", "b")
    for index, scores in enumerate([(1.0, 1.0), (1.0, 0.0), (0.5, 0.0), (0.5, 0.5), (0.0, 0.0)]):
        result.add(PairResult(index, (), scores, (1, 1), (0, 0), (0, 0)))
    assert result.wdl == (3, 3, 4)
    assert result.pentanomial == [1, 1, 2, 0, 1]
    assert result.score == pytest.approx(4.5 / 10)


def test_results_do_not_depend_on_the_worker_count() -> None:
    openings = make_openings(CONNECT4, 8, plies=2, seed=5, heldout=0.0).tuning
    specs = ("alphabeta:heuristic=c4_features,depth=3,random_every=4", "alphabeta:heuristic=square_values,depth=3")
    one = play_match(CONNECT4, *specs, openings, pairs=8, seed=11, workers=1)
    two = play_match(CONNECT4, *specs, openings, pairs=8, seed=11, workers=2)
    assert one.pairs == two.pairs
    other_seed = play_match(CONNECT4, *specs, openings, pairs=8, seed=12, workers=1)
    assert [p.scores for p in other_seed.pairs] != [p.scores for p in one.pairs]  # the seed reaches the random moves


def test_colours_are_swapped_within_a_pair() -> None:
    # The rule player against random from the empty board: A is x in game 1 and o in game 2, and
    # the winner makes the last move, so A's wins are odd-length games first, even-length second.
    result = play_match(TIC_TAC_TOE, "rules", "random", [()], pairs=20, seed=0)
    assert result.wdl[2] == 0  # the rules never lose tic-tac-toe
    wins = [(game, pair.plies[game]) for pair in result.pairs for game in (0, 1) if pair.scores[game] == 1.0]
    assert {game for game, _ in wins} == {0, 1}
    assert all(plies % 2 == (1 if game == 0 else 0) for game, plies in wins)


def test_a_planted_stronger_configuration_is_detected() -> None:
    openings = make_openings(CONNECT4, 60, plies=4, seed=7, heldout=0.0).tuning
    stronger = play_match(CONNECT4, SQUARE_D4, SQUARE_D2, openings, pairs=60, seed=1, workers=2)
    assert stronger.estimate().elo_low > 0
    same = play_match(CONNECT4, SQUARE_D4, SQUARE_D4, openings, pairs=60, seed=1, workers=2)
    assert same.estimate().elo_low <= 0 <= same.estimate().elo_high


def test_sprt_stops_early_on_a_clear_difference() -> None:
    from tuning.stats import Sprt

    openings = make_openings(CONNECT4, 200, plies=4, seed=2, heldout=0.0).tuning
    result = play_match(CONNECT4, SQUARE_D4, "random", openings, pairs=200, seed=0, sprt=Sprt(0.0, 50.0))
    assert result.sprt_verdict is not None and result.sprt_verdict.startswith("H1")
    assert len(result.pairs) < 200


def test_match_cli_reports_and_rejects_bad_specs() -> None:
    run = subprocess.run([sys.executable, "-m", "tuning.match", "rules", "random", "--game", "mnk", "--rows", "3",
                          "--cols", "3", "--k", "3", "--pairs", "4", "--plies", "1", "--openings", "3", "--workers", "1"],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "8 games, 4 pairs" in run.stdout and "pentanomial" in run.stdout and "Elo" in run.stdout
    bad = subprocess.run([sys.executable, "-m", "tuning.match", "alphabeta:dept=3", "random", "--pairs", "2"],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert bad.returncode == 2 and "dept" in bad.stderr and "valid keys" in bad.stderr
    sprt = subprocess.run([sys.executable, "-m", "tuning.match", "random", "random", "--sprt", "5,0"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert sprt.returncode == 2 and "elo0 must be below elo1" in sprt.stderr


def test_a_spec_against_itself_gets_two_agents() -> None:
    # One object for both sides would share its table and random-move counter, and the second seeding would
    # overwrite the first side's seed.
    spec = "alphabeta:heuristic=square_values,depth=2,random_every=3"
    first, second = cached_agent(CONNECT4, spec, 0, 1), cached_agent(CONNECT4, spec, 1, 2)
    assert first is not second
    assert cached_agent(CONNECT4, spec, 0, 3) is first  # built once per process and side, reset on reuse


def test_a_huge_match_streams_its_pairs_instead_of_listing_them() -> None:
    from tuning.match import MatchRunner

    played = []
    with MatchRunner(2) as runner:  # a list of 10**12 tasks would not fit in memory: only a wave is drawn at once
        result = runner.match(TIC_TAC_TOE, "rules", "random", [(4,)], pairs=10**12, seed=1,
                              on_pair=lambda r: played.append(len(r.pairs)) or len(r.pairs) == 5)  # fmt: skip
    assert played == [1, 2, 3, 4, 5] and result.games == 10


def _match_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tuning.match", *args], capture_output=True, text=True, timeout=300)


def test_an_sprt_plays_on_until_it_decides() -> None:
    # no --pairs: the default cap of an SPRT is far beyond the 100 pairs of a plain match
    run = _match_cli("rules", "random", "--game", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "--plies", "0",
                     "--openings", "1", "--sprt", "0,10", "--workers", "1")  # fmt: skip
    assert run.returncode == 0, run.stderr
    verdict = run.stdout.strip().splitlines()[-1]
    assert verdict.startswith("SPRT: H1 after"), run.stdout
    capped = _match_cli("rules", "random", "--game", "mnk", "--rows", "3", "--cols", "3", "--k", "3", "--plies", "0",
                        "--openings", "1", "--sprt", "0,10", "--pairs", "2", "--workers", "1")  # fmt: skip
    assert "SPRT: no decision within the cap of 2 pairs (--pairs) after 2 pairs" in capped.stdout, capped.stdout
    assert "wider" not in run.stdout and "treats the games as independent" in run.stdout


@pytest.mark.parametrize(("flag", "value"), [("--workers", "0"), ("--openings", "0"), ("--pairs", "0"), ("--workers", "-2")])
def test_match_counts_below_one_are_refused_not_defaulted(flag: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_main(match_main, ("rules", "random", flag, value), capsys)
    assert status == 2 and f"{flag} {value} must be an integer from 1 to" in err and "Traceback" not in err


def test_match_help_shows_a_plain_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    status, text, _ = run_main(match_main, ("--help",), capsys)
    assert status == 0 and "95% interval" in text and "%%" not in text


def test_the_agent_cache_keeps_only_the_most_recently_used() -> None:
    from tuning.match import AGENT_CACHE_SIZE

    specs = [f"alphabeta:heuristic=windows,depth=1,tt={1 << 10},random_every={n + 1}" for n in range(AGENT_CACHE_SIZE + 1)]
    first = cached_agent(TIC_TAC_TOE, specs[0], 0, 0)
    kept = cached_agent(TIC_TAC_TOE, specs[1], 0, 0)
    for spec in specs[2:]:  # AGENT_CACHE_SIZE - 1 more agents, using specs[1] before each: specs[0] is the oldest
        assert cached_agent(TIC_TAC_TOE, specs[1], 0, 0) is kept
        cached_agent(TIC_TAC_TOE, spec, 0, 0)
    assert cached_agent(TIC_TAC_TOE, specs[1], 0, 0) is kept  # recently used: still built
    assert cached_agent(TIC_TAC_TOE, specs[0], 0, 0) is not first  # the least recently used was dropped, so rebuilt


def test_two_won_pairs_do_not_print_a_decided_interval() -> None:
    # 4 wins in 4 games: an exact test does not reject equal strength at 95%, so the interval must hold 0 Elo
    run = _match_cli("alphabeta:depth=4", "random", "--pairs", "2", "--workers", "1")
    assert run.returncode == 0, run.stderr
    pairs_line = next(line for line in run.stdout.splitlines() if line.startswith("pairs:"))
    assert "[+inf, +inf]" not in pairs_line and "LOS 100.0%" not in pairs_line, pairs_line
    low = float(pairs_line.split("CI [")[1].split(",")[0])
    assert low < 0, pairs_line
