"""The surviving original as a match opponent: ``machack match --opponent original:FILE``.

:mod:`machack.match` plays its opponent through the little of python-chess's engine
interface it uses (``id``, ``play``, ``quit``); :class:`OriginalEngine` gives that
interface to the original program (:mod:`machack.original`) booted in an emulated PDP-6
of its own.  Each position is reached as an operator reached it: the game typed from
the initial position (moves it has already are kept), then ``M``; its move and the value
it prints (``PSVD 1``, White's view) come back as a UCI engine's would, so the match's
adjudication by the opponent's own score works as with any engine, and its PDP-6 time
as the ``time`` of the answer (the game's ``[%emt]``, as for Mac Hack's moves).

It has no clock: it always searches at its settings, whatever the match's time limit
(``--opponent-depth`` sets its SETD).  It only ever promotes to a queen, so a game in
which our program underpromotes cannot be typed into it and is left unfinished (or
judged where it stopped, by the match's ``--adjudicate`` engine).  Each game starts
from the image booted afresh, as a UCI engine's from ``ucinewgame``.
"""

from __future__ import annotations

from collections.abc import Mapping

import chess
import chess.engine

from .original import Original, OriginalError, load_original
from .player import centipawns, mate_moves

PREFIX = "original:"
"""What --opponent starts with to name the image instead of a UCI engine's command."""
NAME = "Mac Hack VI original (emulated PDP-6)"
"""Its name in the games' PGN and the score (ours is ``pgn.MACHACK``)."""
OPTIONS = {
    "depth": ("SETD", 1, 20),
    "widths": ("SETW", 1, 99),
    "feedover": ("SETF", 0, 20),
    "captureplies": ("SETC", 0, 20),
}
"""--option NAME=VALUE for the original: the names ``machack uci`` gives the same
settings of ours (Depth, Widths, Feedover, CapturePlies), the command each types, and
the range of each number (ours's: the original reads any number without a word)."""


def image_path(opponent: str) -> str | None:
    """The image's path if ``opponent`` names the original (``original:FILE``)."""
    return opponent[len(PREFIX) :] if opponent.startswith(PREFIX) else None


def option_commands(options: Mapping[str, str]) -> list[str]:
    """The commands the options stand for; a ValueError names an option it does not
    have or a value out of range.

    >>> option_commands({"Depth": "3", "Widths": "15 15 9"})
    ['SETD 3', 'SETW 15 15 9']
    """
    commands = []
    for name, value in options.items():
        known = OPTIONS.get(name.lower())
        if known is None:
            names = ", ".join(("Depth", "Widths", "Feedover", "CapturePlies"))
            raise ValueError(f"the original has no option {name!r} (it has {names})")
        command, low, high = known
        numbers = value.split()
        if not numbers or (command != "SETW" and len(numbers) != 1):
            many = " or more" if command == "SETW" else ""
            raise ValueError(f"--option {name}={value}: one number{many}")
        if not all(n.isdigit() and low <= int(n) <= high for n in numbers):
            raise ValueError(f"--option {name}={value}: numbers from {low} to {high}")
        commands.append(f"{command} {' '.join(str(int(n)) for n in numbers)}")
    return commands


class OriginalEngine:
    """The original, booted, answering ``play`` as a python-chess engine does."""

    def __init__(self, path: str, options: Mapping[str, str], engine: str | None = None) -> None:
        self.commands = option_commands(options)  # (checked before the image is read)
        self.image = load_original(path)
        self.engine = engine
        self.id = {"name": NAME}
        self.depth: int | None = None  # the SETD that --opponent-depth typed
        self.game: object = None  # the game it plays (python-chess's ``game`` argument)
        self._new_game()

    def _new_game(self) -> None:
        """The image booted afresh, not only RESET: RESET leaves some of the last game's
        state in core (a game played after another went otherwise than the same game
        played first), and a match's game must not depend on what its worker played
        before it (half a second of the host's time)."""
        self.original = self._boot()
        self.used = False  # nothing typed or searched since the boot
        self.original.new_game()
        for line in (*self.commands, "PSVD 1"):
            printed = self.original.send(line)
            if "_" not in printed:
                raise OriginalError(f"the original refused {line!r}: {printed.strip()!r}")
        if self.depth is not None:
            self.original.command(f"SETD {self.depth}")

    def _boot(self) -> Original:
        """The image booted, printing at the fast rate (its times are its searches')."""
        return Original(self.image, engine=self.engine, quick_printing=True)

    def play(
        self,
        board: chess.Board,
        limit: chess.engine.Limit,
        *,
        info: object = None,
        game: object = None,
    ) -> chess.engine.PlayResult:
        """Its move in ``board`` (a game from the initial position), with its value as
        the score; the limit's time is not for it (it has no clock), its depth is SETD.
        A new ``game`` (as a UCI engine's ``ucinewgame``) starts from a fresh boot."""
        del info
        if game != self.game:
            self.game = game
            if self.used:
                self._new_game()
        if board.root().fen() != chess.STARTING_FEN:
            raise OriginalError("the original can only play a game from the initial position")
        if limit.depth is not None and limit.depth != self.depth:
            self.depth = limit.depth
            self.original.command(f"SETD {limit.depth}")
        moves = board.move_stack
        typed = self.original.board.move_stack
        if moves[: len(typed)] != typed:
            self._new_game()
            typed = []
        self.used = True
        for move in moves[len(typed) :]:
            self.original.push(move)
        choice = self.original.think()
        if choice.move is None:
            raise OriginalError(f"the original made no move: it printed {choice.text!r}")
        found: dict[str, object] = {"time": choice.emulated_s}  # (PDP-6 seconds, as ours)
        if choice.value is not None:
            found["score"] = chess.engine.PovScore(white_score(choice.value, board.turn),
                                                   chess.WHITE)  # fmt: skip
        return chess.engine.PlayResult(choice.move, None, found)  # type: ignore[arg-type]

    def quit(self) -> None:
        """Nothing to end: the machine goes with the process."""


def white_score(value: int, mover: chess.Color = chess.WHITE) -> chess.engine.Score:
    """The value the original prints (pawn = 128, mate near 28672; White's view) in a
    position ``mover`` was to move in, as a python-chess score (a mate is counted from
    the mover's side, whose ply count tells mating from mated: mate_moves).

    >>> white_score(-477), white_score(28669), white_score(-28670, chess.BLACK)
    (Cp(-373), Mate(+2), Mate(-1))
    """
    own = value if mover == chess.WHITE else -value
    moves = mate_moves(own)
    if moves is not None:
        return chess.engine.Mate(moves if mover == chess.WHITE else -moves)
    return chess.engine.Cp(centipawns(value))
