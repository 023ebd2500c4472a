"""``machack match``: Mac Hack VI against any UCI engine, N games, with the score and Elo.

Games alternate colours over a set of openings (each opening is played once with each
colour), run in parallel, one emulated PDP-6 per worker process, and are written as PGN.
Mac Hack plays through :class:`machack.player.MacHack` (every move the MIDAS program's);
the opponent through python-chess's UCI client.  python-chess is also the referee: it
ends a game at mate, stalemate, a claimable draw or insufficient material, and applies
the adjudication rules: a resignation when the *opponent's* own score has stayed beyond
the threshold for some of its moves, and a draw at a given move.

With a judge (``--adjudicate ENGINE``: a strong UCI engine, Stockfish say) those rules
only stop a game; the judge scores the position they stop it in and gives the game to
the side it favours by more than a threshold, else calls it a draw.  A game the rules
would end on the opponent's own score goes on when the judge does not agree (the
opponent's judgement is its own, and a weak program's may be wrong).  The judge only
ever scores positions, on the host: it never chooses a move for either side.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import shlex
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.util import Finalize
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import chess
import chess.engine
import click

from pdp6.host.autoengine import AutoEngine

from .original import OriginalError, Underpromotion
from .pgn import MACHACK, GameRecord, emt_and_eval, machack_comment
from .player import Clock, MacHack, PositionError
from .session import Session, SessionError

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

# Openings as a 1960s master knew them (ECO names), a few moves each; each is played
# with both colours.
OPENINGS: tuple[tuple[str, str], ...] = (
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Italian Game", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Sicilian Defence", "e2e4 c7c5 g1f3 d7d6"),
    ("French Defence", "e2e4 e7e6 d2d4 d7d5"),
    ("Caro-Kann Defence", "e2e4 c7c6 d2d4 d7d5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6"),
    ("King's Indian Defence", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7"),
    ("Nimzo-Indian Defence", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("English Opening", "c2c4 e7e5"),
    ("King's Gambit", "e2e4 e7e5 f2f4"),
)
DEBIAN_GAMES = Path("/usr/games")  # where Debian installs stockfish
ADJUDICATION = "adjudication:"
"""How a termination begins that the rules of chess did not decide."""


@dataclass
class Opening:
    name: str
    moves: list[str]  # coordinates from the initial position


@dataclass
class MatchConfig:
    """Everything a worker needs to play its games (sent to each worker process)."""

    opponent: list[str]  # the UCI engine's command line (empty for the original)
    options: dict[str, str] = field(default_factory=dict)
    games: int = 10
    movetime_ms: int | None = 1000
    depth: int | None = None  # Mac Hack's depth; None: the program's own
    settings: list[str] = field(default_factory=list)  # program commands, e.g. SETW 15 15 9
    emulated: bool = False  # Mac Hack's movetime in PDP-6 seconds
    opponent_depth: int | None = None
    openings: list[Opening] = field(default_factory=list)
    resign_cp: int = 1000
    resign_moves: int = 3
    draw_at: int = 0  # full moves; 0: never
    event: str = "Mac Hack VI match"
    original: str | None = None  # the original's image: it is the opponent (opponent.py)
    judge: list[str] = field(default_factory=list)  # the adjudicating engine's command line
    judge_ms: int = 1000  # its time for the position it scores
    judge_depth: int | None = None  # and/or its depth
    judge_cp: int = 150  # a win beyond this many centipawns (White's view), else a draw


@dataclass
class GameResult:
    index: int  # from 0
    machack_white: bool
    result: str  # 1-0, 0-1, 1/2-1/2, or * if the game could not be finished
    termination: str
    pgn: str
    opponent: str = ""
    adjudicated: str = ""  # who decided a game the rules did not: "rules" or the judge's name
    machack_s: list[float] = field(default_factory=list)  # PDP-6 seconds a searched move
    opponent_s: list[float] = field(default_factory=list)  # its seconds a move
    opponent_pdp6: bool = False  # its seconds are PDP-6 time (the original), not wall time

    @property
    def machack_points(self) -> float | None:
        if self.result == "1/2-1/2":
            return 0.5
        if self.result not in ("1-0", "0-1"):
            return None
        return 1.0 if (self.result == "1-0") == self.machack_white else 0.0


def resolve_command(command: str, option: str = "--opponent") -> list[str]:
    """An engine's command line; a bare name not on PATH is looked for in /usr/games
    too, where Debian's stockfish is."""
    try:
        words = shlex.split(command)
    except ValueError as exc:  # an unclosed quote
        raise ValueError(f"{option} {command!r}: {exc}") from None
    if not words:
        raise ValueError(f"{option} is empty")
    if os.sep not in words[0] and shutil.which(words[0]) is None:
        games = DEBIAN_GAMES / words[0]
        if os.access(games, os.X_OK):
            words[0] = str(games)
    return words


def read_openings(path: Path | None) -> list[Opening]:
    """The built-in openings, or a file's: one opening a line, moves in SAN or
    coordinates (``1. e4 e5 2. Nf3`` or ``e2e4 e7e5``), ``#`` comments (one after the
    moves names the opening); each line checked move by move."""
    if path is None:
        return [Opening(name, moves.split()) for name, moves in OPENINGS]
    openings = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text, _, note = (part.strip() for part in line.partition("#"))
        if not text:
            continue
        board = chess.Board()
        for word in text.split():
            if word.rstrip(".").isdigit():
                continue
            try:
                board.push(board.parse_san(word))
            except ValueError:
                try:
                    board.push(board.parse_uci(word))
                except ValueError:
                    raise ValueError(f"{path}:{number}: {word!r} is not a legal move") from None
        name = note or f"{path.name}:{number}"
        openings.append(Opening(name, [m.uci() for m in board.move_stack]))
    if not openings:
        raise ValueError(f"{path} holds no openings")
    return openings


class Opponent(Protocol):
    """What a game needs of its opponent: a UCI engine (python-chess's SimpleEngine) or
    the original (:class:`machack.opponent.OriginalEngine`)."""

    @property
    def id(self) -> Mapping[str, str]: ...

    def play(
        self, board: chess.Board, limit: chess.engine.Limit, *, info: Any, game: Any
    ) -> chess.engine.PlayResult: ...

    def quit(self) -> None: ...


def open_opponent(config: MatchConfig) -> Opponent:
    """Start the opponent and set its options (names and values checked by it)."""
    if config.original is not None:
        from .opponent import OriginalEngine

        auto = AutoEngine(say=lambda text: None)  # (built before the workers start)
        return OriginalEngine(config.original, config.options, auto.engine)
    engine = chess.engine.SimpleEngine.popen_uci(config.opponent, timeout=30)
    try:
        for name, value in config.options.items():
            option = engine.options.get(name)
            if option is None:
                raise ValueError(f"the opponent has no option {name!r}")
            engine.configure({name: option.parse(value)})
    except (ValueError, chess.engine.EngineError):
        engine.quit()
        raise
    return engine


def open_judge(config: MatchConfig) -> chess.engine.SimpleEngine:
    """Start the adjudicating engine (a failure to start is the caller's to report)."""
    return chess.engine.SimpleEngine.popen_uci(config.judge, timeout=30)


def boot_session() -> Session:
    """A program for a worker process (the compiled engine is built before they start)."""
    auto = AutoEngine(say=lambda text: None)
    session = Session(engine=auto.engine)
    session.on_slice = lambda: auto.poll(session.machine)
    return session


# --- a worker process ------------------------------------------------------------------
_worker: dict[str, Any] = {}


def new_player(config: MatchConfig) -> MacHack:
    """A booted program with the match's settings."""
    player = MacHack(boot_session())
    for line in config.settings:
        reply = player.send(line)
        if not reply.accepted:
            raise ValueError(f"the program refused {line!r}: {reply.text}")
    if config.depth is not None:
        player.set_depth(config.depth)
    player.emulated_clock = config.emulated
    return player


def _start_worker(config: MatchConfig) -> None:
    """Each worker boots one program and starts one opponent, for all its games.  A
    failure is kept and reported by every game (a pool would start failing workers
    again and again)."""
    _worker.update(config=config, error=None)
    try:
        _worker["player"] = new_player(config)
        _worker["engine"] = engine = open_opponent(config)
        Finalize(engine, engine.quit, exitpriority=10)
        _worker["judge"] = judge = open_judge(config) if config.judge else None
        if judge is not None:
            Finalize(judge, judge.quit, exitpriority=10)
    except Exception as exc:  # noqa: BLE001 - reported with each game instead
        _worker["error"] = f"the worker could not start: {exc}"


def _play(index: int) -> GameResult:
    """One game in a worker; a failure ends that game unfinished, and the worker goes on
    with a fresh program and opponent."""
    config = _worker["config"]
    if _worker["error"] is None:
        try:
            return play_game(config, _worker["player"], _worker["engine"], index,
                             _worker["judge"])  # fmt: skip
        except (
            SessionError, PositionError, OriginalError, chess.engine.EngineError, TimeoutError
        ) as exc:  # fmt: skip
            problem = f"game {index + 1} could not be finished: {exc}"
        for name in ("engine", "judge"):
            try:
                if _worker.get(name) is not None:
                    _worker[name].quit()
            except (chess.engine.EngineError, OSError):
                pass
        _start_worker(config)
    else:
        problem = _worker["error"]
    return GameResult(index, index % 2 == 0, "*", problem, "")


def play_game(
    config: MatchConfig,
    player: MacHack,
    engine: Opponent,
    index: int,
    judge: chess.engine.SimpleEngine | None = None,
) -> GameResult:
    """Game ``index``: opening index // 2, Mac Hack White in the even games."""
    opening = config.openings[index // 2 % len(config.openings)]
    machack = chess.WHITE if index % 2 == 0 else chess.BLACK
    board = chess.Board()
    for uci in opening.moves:
        board.push_uci(uci)
    comments = [""] * len(board.move_stack)
    if comments:
        comments[-1] = f"opening: {opening.name}"
    name = engine.id.get("name", "opponent")
    player.new_game()
    depths, clock = _machack_limits(config, player)
    limit = chess.engine.Limit(
        time=None if config.movetime_ms is None else config.movetime_ms / 1000,
        depth=config.opponent_depth,
    )
    # winning[c]: the opponent's moves in a row after which its own score said c wins
    winning = {chess.WHITE: 0, chess.BLACK: 0}
    times: dict[chess.Color, list[float]] = {chess.WHITE: [], chess.BLACK: []}
    verdict = ""  # the judge's word on the last position, for its comment
    while True:
        end = _game_end(config, board, winning, machack, name)
        if end is not None and end[1].startswith(ADJUDICATION) and judge is not None:
            end, verdict = _judged(config, judge, board, end, index)
            if end is None:  # the judge does not agree with the opponent's score: play on
                winning = {chess.WHITE: 0, chess.BLACK: 0}
                comments[-1] = f"{comments[-1]} {verdict}, play on".strip()
                verdict = ""
        if end is not None:
            break
        if board.turn == machack:
            player.set_position(None, [m.uci() for m in board.move_stack])
            thought = player.think(depths, clock)
            if thought.move is None or thought.move not in board.legal_moves:
                loser = "0-1" if machack == chess.WHITE else "1-0"
                end = (loser, f"Mac Hack gave no legal move ({thought.move})")
                break
            move = thought.move
            comment = machack_comment(thought.emulated_s, thought.value, board.turn,
                                      thought.how == "book")  # fmt: skip
            if thought.how != "book":
                times[machack].append(thought.emulated_s)
        else:
            started = time.perf_counter()
            try:
                played = engine.play(board, limit, info=chess.engine.INFO_SCORE, game=index)
            except Underpromotion as exc:  # the game cannot go on, but its position is sound
                end = ("*", f"the game could not go on: {exc}")
                if judge is not None:
                    ruled, verdict = _judged(config, judge, board, ("*", f"{ADJUDICATION} "
                                             f"{end[1]}"), index)  # fmt: skip
                    end = ruled or end
                break
            if played.resigned or played.move is None:
                end = ("1-0" if board.turn == chess.BLACK else "0-1", f"{name} resigned")
                break
            move = played.move
            seconds = time.perf_counter() - started
            if config.original is not None:  # the original's PDP-6 time, as Mac Hack's
                seconds = float(played.info.get("time", seconds))
            times[not machack].append(seconds)
            score = played.info.get("score")
            _count_verdict(score, board.turn, winning, config.resign_cp)
            comment = emt_and_eval(seconds, score)
        board.push(move)
        comments.append(comment)
    result, termination = end
    white_name, black_name = (MACHACK, name) if machack == chess.WHITE else (name, MACHACK)
    extra = {"Opening": opening.name, "Termination": termination}
    if config.movetime_ms is not None:
        extra["TimeControl"] = f"1/{config.movetime_ms / 1000:g}"
    adjudicated = ""
    if termination.startswith(ADJUDICATION):
        adjudicated = "rules"
        if verdict:
            adjudicated = str(judge.id.get("name", "the judge")) if judge is not None else ""
            extra["Adjudicator"] = f"{adjudicated}, {judge_limit_text(config)}"
            if comments:
                comments[-1] = f"{comments[-1]} {verdict}".strip()
    record = GameRecord(white_name, black_name, result, config.event, str(index + 1),
                        moves=[m.uci() for m in board.move_stack], comments=comments,
                        extra=extra)  # fmt: skip
    return GameResult(index, machack == chess.WHITE, result, termination, record.pgn(), name,
                      adjudicated, times[machack], times[not machack],
                      config.original is not None)  # fmt: skip


def judge_limit_text(config: MatchConfig) -> str:
    """The judge's limit and threshold, as the PGN's Adjudicator tag gives them."""
    limit = [f"{config.judge_ms} ms"] if config.judge_ms else []
    if config.judge_depth is not None:
        limit.append(f"depth {config.judge_depth}")
    return f"{' or '.join(limit)} a position, a win beyond {config.judge_cp} cp"


def judge_score(
    config: MatchConfig, judge: chess.engine.SimpleEngine, board: chess.Board, index: int
) -> tuple[chess.engine.Score, int | None]:
    """The judge's score of ``board`` (White's view) and the depth it reached."""
    limit = chess.engine.Limit(time=config.judge_ms / 1000 if config.judge_ms else None,
                               depth=config.judge_depth)  # fmt: skip
    info = judge.analyse(board, limit, game=("judge", index))
    score = info.get("score")
    if score is None:
        raise chess.engine.EngineError("the adjudicating engine gave no score")
    depth = info.get("depth")
    return score.white(), depth if isinstance(depth, int) else None


def verdict_for(score: chess.engine.Score, threshold: int) -> str:
    """The result a judge's score (White's view) stands for: the side it favours by more
    than ``threshold`` centipawns wins (a mate is beyond any threshold), else a draw.

    >>> verdict_for(chess.engine.Cp(151), 150), verdict_for(chess.engine.Cp(-150), 150)
    ('1-0', '1/2-1/2')
    >>> verdict_for(chess.engine.Mate(-3), 150)
    '0-1'
    """
    if score.is_mate():
        return "1-0" if score > chess.engine.Cp(0) else "0-1"
    centipawns = score.score()
    assert centipawns is not None
    if centipawns > threshold:
        return "1-0"
    if centipawns < -threshold:
        return "0-1"
    return "1/2-1/2"


def score_text(score: chess.engine.Score) -> str:
    """A White's-view score as the PGN's ``[%eval]`` writes it: ``+2.31``, ``#-3``."""
    return f"#{score.mate()}" if score.is_mate() else f"{score.score(mate_score=0) / 100:+.2f}"


def _judged(
    config: MatchConfig,
    judge: chess.engine.SimpleEngine,
    board: chess.Board,
    end: tuple[str, str],
    index: int,
) -> tuple[tuple[str, str] | None, str]:
    """The judge's ruling on a game the rules stopped: the result it gives and the
    termination's text, with the comment for the last move; no end if the rule was the
    opponent's own score and the judge does not give the game to that side (it goes
    on)."""
    score, depth = judge_score(config, judge, board, index)
    result = verdict_for(score, config.judge_cp)
    name = judge.id.get("name", "the judge")
    at = f"depth {depth}" if depth is not None else "its limit"
    comment = f"[%eval {score_text(score)}] {name} at {at}: {result}"
    rule, reason = end
    if rule in ("1-0", "0-1") and result != rule:
        return None, comment
    said = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "a draw"}[result]
    return (result, f"{reason}; {name} {score_text(score)}: {said}"), comment


def _machack_limits(config: MatchConfig, player: MacHack) -> tuple[Sequence[int], Clock | None]:
    """Mac Hack's depths and clock: deepening up to its depth within the movetime, or
    one search at its depth."""
    depth = config.depth or player.depth
    if config.movetime_ms is None:
        return [depth], None
    budget = config.movetime_ms / 1000
    if config.emulated:
        return range(1, depth + 1), Clock(emulated_s=budget)
    return range(1, depth + 1), Clock(wall_s=budget)


def _game_end(
    config: MatchConfig,
    board: chess.Board,
    winning: dict[chess.Color, int],
    machack: chess.Color,
    name: str,
) -> tuple[str, str] | None:
    """The result and the reason if the game is over: by the rules, or adjudicated."""
    outcome = board.outcome(claim_draw=True)
    if outcome is not None:
        return outcome.result(), outcome.termination.name.lower()
    if config.draw_at and board.fullmove_number > config.draw_at:
        return "1/2-1/2", f"{ADJUDICATION} draw at move {config.draw_at}"
    for colour, moves in winning.items():
        if moves >= config.resign_moves:
            bound = f"+{config.resign_cp}" if colour != machack else f"-{config.resign_cp}"
            reason = (f"{ADJUDICATION} {name}'s own score {bound} cp or beyond "
                      f"for {config.resign_moves} moves")  # fmt: skip
            return ("1-0" if colour == chess.WHITE else "0-1"), reason
    return None


def _count_verdict(
    score: chess.engine.PovScore | None,
    mover: chess.Color,
    winning: dict[chess.Color, int],
    resign_cp: int,
) -> None:
    """Count the opponent's verdict for adjudication (its own score, for the side that
    moved)."""
    if score is None:
        return
    own = score.pov(mover).score(mate_score=100_000)
    winning[mover] = winning[mover] + 1 if own >= resign_cp else 0
    winning[not mover] = winning[not mover] + 1 if own <= -resign_cp else 0


# --- the score -------------------------------------------------------------------------
def elo(score: float) -> float:
    """The Elo difference that a score (0-1) stands for."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_interval(points: Sequence[float]) -> tuple[float, float, float]:
    """The Elo difference and its 95% interval, from each game's points (1, 1/2, 0): the
    mean score with 1.96 standard errors of the per-game scores either side."""
    n = len(points)
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / n
    half = 1.96 * math.sqrt(var / n)
    return elo(mean), elo(mean - half), elo(mean + half)


def _fmt_elo(value: float) -> str:
    return f"{round(value):+d}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def summary(results: Sequence[GameResult]) -> list[str]:
    """The closing lines: the score and the Elo difference with its 95% interval, how
    many games were adjudicated and by whom, and each side's median time a move."""
    points = [r.machack_points for r in results if r.machack_points is not None]
    unfinished = len(results) - len(points)
    opponent = next((r.opponent for r in results if r.opponent), "the opponent")
    wins, draws = points.count(1.0), points.count(0.5)
    losses = len(points) - wins - draws
    head = f"Score of {MACHACK} vs {opponent}: {wins} - {losses} - {draws}"
    if points:
        head += f"  [{sum(points) / len(points):.3f}] {len(points)}"
    lines = [head]
    if points:
        diff, low, high = elo_interval(points)
        lines.append(f"Elo difference: {_fmt_elo(diff)} (95% interval {_fmt_elo(low)} to "
                     f"{_fmt_elo(high)})")  # fmt: skip
    if unfinished:
        lines.append(f"{unfinished} game(s) could not be finished and are not counted")
    judged = [r for r in results if r.adjudicated]
    if judged:
        by: dict[str, list[float | None]] = {}
        for r in judged:
            by.setdefault(r.adjudicated, []).append(r.machack_points)
        parts = []
        for who, got in by.items():
            done = [p for p in got if p is not None]
            tally = (f"{done.count(1.0)} - {done.count(0.0)} - {done.count(0.5)}"
                     if done else "none counted")  # fmt: skip
            rules = "by the rules (the opponent's score, --draw-at)"
            label = rules if who == "rules" else f"by {who}"
            parts.append(f"{len(got)} {label}: {tally}")
        lines.append(f"adjudicated {len(judged)} of {len(results)}: " + "; ".join(parts))
    lines += _times(results, opponent)
    return lines


def _times(results: Sequence[GameResult], opponent: str) -> list[str]:
    """The median time of a searched move for each side, if any was timed."""
    ours = [s for r in results for s in r.machack_s]
    theirs = [s for r in results for s in r.opponent_s]
    if not ours or not theirs:
        return []
    clock = "PDP-6" if all(r.opponent_pdp6 for r in results if r.opponent_s) else "wall"
    return [f"median s a move: Mac Hack {statistics.median(ours):.1f} PDP-6, {opponent} "
            f"{statistics.median(theirs):.1f} {clock}"]  # fmt: skip


class Progress:
    """The progress line on standard error: click's progress bar with the games played
    and the running score on a terminal, a line a game (through ``write``) otherwise."""

    def __init__(self, total: int, write: Callable[[str], None], tty: bool) -> None:
        self.total = total
        self.write = write
        self.done: list[GameResult] = []
        self.bar: ProgressBar[int] | None = None
        if tty:
            self.bar = click.progressbar(length=total, width=30, show_pos=True,
                                         show_percent=False, show_eta=False,
                                         file=sys.stderr)  # fmt: skip

    def game(self, result: GameResult) -> None:
        self.done.append(result)
        points = [r.machack_points for r in self.done if r.machack_points is not None]
        mac = sum(points)
        score = f"Mac Hack {mac:g} - {len(points) - mac:g} {result.opponent or 'opponent'}"
        if self.bar is not None:
            self.bar.label = score
            self.bar.update(1)
            if self.bar.finished:
                self.bar.render_finish()
        else:
            colour = "White" if result.machack_white else "Black"
            self.write(f"game {result.index + 1}/{self.total}: {result.result} (Mac Hack "
                       f"{colour}; {result.termination})  {score}\n")  # fmt: skip


def run_match(
    config: MatchConfig,
    concurrency: int,
    pgn: Path | None,
    progress: Progress,
) -> list[GameResult]:
    """Play the games on ``concurrency`` worker processes; each finished game goes to
    ``pgn`` at once (so an interrupted match keeps what it played)."""
    context = multiprocessing.get_context("spawn")  # a clean interpreter: no forked threads
    results: list[GameResult] = []
    out = pgn.open("w") if pgn is not None else None
    try:
        with context.Pool(concurrency, _start_worker, (config,)) as pool:
            for result in pool.imap_unordered(_play, range(config.games)):
                results.append(result)
                if out is not None and result.pgn:
                    out.write(result.pgn)
                    out.flush()
                progress.game(result)
    finally:
        if out is not None:
            out.close()
    return sorted(results, key=lambda r: r.index)


def check_judge(config: MatchConfig) -> str:
    """Start the adjudicating engine once here, so that a command that is not a UCI
    engine is reported before any game; its name."""
    judge = open_judge(config)
    try:
        return str(judge.id.get("name", " ".join(config.judge)))
    finally:
        judge.quit()


def check_opponent(config: MatchConfig) -> str:
    """Start the opponent once in this process, so that a wrong command or option is
    reported before any game; its name."""
    engine = open_opponent(config)
    try:
        return str(engine.id.get("name", " ".join(config.opponent)))
    finally:
        engine.quit()
