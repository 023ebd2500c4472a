"""The Greenblatt search's bench figures: every PMG call is timed, and the think
summary gives the figures issue 12 is judged by."""

from machack.bench_search import middlegame_positions, pmg_call_times
from machack.session import Session
from machack.think import ThinkGame, ThinkRow, summary

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"


def test_every_pmg_call_of_a_search_is_timed_and_the_position_is_kept() -> None:
    s = Session()
    s.command("SETD 2")
    calls = pmg_call_times(s, MIDDLEGAME)
    words = s.command("STATS").first("TIME ").split()
    assert len(calls) == int(words[words.index("PMG") + 1])
    # a call scores some 40 moves: tens of PDP-6 milliseconds, thousands of
    # instructions of a few microseconds each, never nothing
    assert all(5_000 < us < 500_000 for us, _ in calls)
    assert all(1_000 < n < us / 2 for us, n in calls)
    assert s.fen().split()[:4] == MIDDLEGAME.split()[:4]  # the move was taken back


def test_middlegame_positions_come_from_the_1967_games() -> None:
    positions = middlegame_positions(1)
    assert len(positions) > 60
    assert all(" ply " in name for name, _ in positions)


def test_summary_gives_agreement_times_and_wall() -> None:
    rows = [ThinkRow("1.", "P-K4", "P-K4", True, 10.0, "", 0.5),
            ThinkRow("2.", "N-KB3", "P-Q4", False, 30.0, "", 1.5)]  # fmt: skip
    text = summary([ThinkGame("g", rows)])
    assert text == ("agreement 1 of 2 (50%); PDP-6 time per move: median 20.0 s, "
                    "max 30.0 s; wall time per move: median 1.00 s")  # fmt: skip
