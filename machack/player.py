"""Mac Hack as a player for other programs: a position in, the program's move out.

The UCI adapter (``uci.py``) and the match runner (``match.py``) drive the program
through :class:`MacHack`.  It types the game's moves in coordinates (so the program knows
the history and repetitions come out right), types ``GO`` and reads the answer.  When a
move's time is up, or a GUI says ``stop``, it types BELL as the 1967 operator did; the
program answers ``QUIT`` and its ``BEST`` command gives the best move so far.

Every move comes from the MIDAS program.  python-chess only translates: it names the
move the program printed in descriptive notation by the position it leads to, and holds
a board so that the moves handed on are checked.  The host decides when to stop thinking
(the clock), never what to play.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import chess

from .session import Reply, Session, SessionError, is_move_line

MATE = 28672
"""The program's value of mate at the root (the original's EVMT3): mate in n plies is
MATE - n; every value farther than :data:`MATE_ZONE` from zero is a mate."""
MATE_ZONE = MATE - 1000
PAWN = 128  # the program's pawn
LONG = {"budget": 10**13, "emulated_limit_s": 1e9}  # a GUI may let it think for ever
NEXT_DEPTH = 0.4
"""Another depth is begun only while less than this part of the time is used: each depth
takes longer than all before it together."""
BELL = b"\x07"
RING_AGAIN_US = 2000.0  # emulated microseconds between BELLs until the program stops


class PositionError(ValueError):
    """A position the program cannot take (a bad FEN or an illegal move); the message
    says which, and the program keeps the part that it took."""


def position_problems(fen: str) -> str:
    """What python-chess finds wrong with the position of ``fen`` ('' if nothing, or if
    it cannot read it)."""
    try:
        status = chess.Board(fen).status()
    except ValueError:
        return ""
    return ", ".join(str(f.name).lower().replace("_", " ") for f in chess.Status if f & status)


def refusal_note(fen: str) -> str:
    """`` (no white king, ...)`` to put after the program's refusal of ``fen`` (BAD FEN),
    or '' when python-chess finds nothing wrong."""
    why = position_problems(fen)
    return f" ({why})" if why else ""


def centipawns(value: int) -> int:
    """The program's value (pawn = 128) in centipawns."""
    return round(value * 100 / PAWN)


def mate_moves(value: int) -> int | None:
    """Moves to mate (negative: the side to move is mated), or None for no mate.  A mate
    the side to move gives comes after an odd number of plies, one it suffers after an
    even number; RULES PAPER counts the plies from 0 at the root, RULES D and 1967 from 1
    (the original's count: its mate in one is 28670), so either count gives the moves."""
    if abs(value) < MATE_ZONE:
        return None
    plies = MATE - abs(value)
    return (plies + 1) // 2 if value > 0 else -(plies // 2)


def uci_score(value: int) -> str:
    """``cp 23`` or ``mate 3``, as an ``info`` line gives a score."""
    mate = mate_moves(value)
    return f"cp {centipawns(value)}" if mate is None else f"mate {mate}"


@dataclass
class Clock:
    """How long one move may take: wall seconds, emulated PDP-6 seconds, the program's
    nodes (all depths together), or any of them.

    They are counted from :meth:`start`, which a search calls as it begins; a caller may
    give the limits and start the clock again while the search goes on (a UCI
    ``ponderhit``: the ``go``'s limits count from then).  With no limit nothing is used.
    """

    wall_s: float | None = None
    emulated_s: float | None = None
    nodes: int | None = None
    started_wall: float = 0.0  # perf_counter, PDP-6 microseconds and nodes at the start
    started_us: float = 0.0
    started_nodes: int = 0

    def start(self, emulated_us: float, nodes: int = 0) -> None:
        self.started_wall, self.started_us = time.perf_counter(), emulated_us
        self.started_nodes = nodes

    def used(self, wall_s: float, emulated_s: float, nodes: int = 0) -> float:
        """The largest part of any budget spent (0 with no budget)."""
        parts = [0.0]
        if self.wall_s is not None:
            parts.append(wall_s / max(self.wall_s, 1e-6))
        if self.emulated_s is not None:
            parts.append(emulated_s / max(self.emulated_s, 1e-6))
        if self.nodes is not None:
            parts.append(nodes / max(self.nodes, 1))
        return max(parts)

    def spent(self, emulated_us: float, nodes: int) -> float:
        """The part used since :meth:`start`, with the machine at ``emulated_us`` and
        ``nodes`` searched in all."""
        return self.used(time.perf_counter() - self.started_wall,
                         (emulated_us - self.started_us) / 1e6,
                         nodes - self.started_nodes)  # fmt: skip

    def deadline_us(self) -> float | None:
        """The PDP-6 time at which an emulated budget runs out (None without one)."""
        if self.emulated_s is None:
            return None
        return self.started_us + self.emulated_s * 1e6


@dataclass
class Thought:
    """What the program answered for one position.

    ``how``: ``search`` (a search ended), ``stopped`` (BELL stopped it: the best root move
    so far), ``plausible`` (stopped before any root move was through: the plausible move
    generator's first choice), ``book`` (the program played from its opening book: no
    search, no value), ``other`` (it moved without this search's line) or ``none`` (no
    legal move).  ``value`` is for the side to move.
    """

    move: chess.Move | None
    how: str
    depth: int
    value: int | None = None
    pv: list[chess.Move] = field(default_factory=list)
    nodes: int = 0
    emulated_s: float = 0.0
    wall_s: float = 0.0


class MacHack:
    """The program in ``session``, kept at the position a caller gives it.

    ``emulated_clock``: budgets are PDP-6 seconds (the moves the 1967 machine would have
    found in that time); ``pace``: the host also waits until the wall clock has caught up
    with the emulated one, so the machine answers as slowly as the real PDP-6.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        session.short_slices = True
        self.emulated_clock = False
        self.pace = False
        self.board = chess.Board()
        self.start_fen = chess.STARTING_FEN
        self.session.command("NEW")
        self.session.command("PN")
        self.depth = int(self.setting("SETD"))  # the depth a plain search uses
        self.held_depth = self.depth  # what the program holds now
        self._nodes_done = 0  # nodes of the finished depths of a think
        self._nodes_stale: int | None = None  # during a GO: the count before it
        self._nodes_fresh = False  # the count has changed since (THINK cleared it)

    # --- settings --------------------------------------------------------------------
    def setting(self, name: str) -> str:
        """A setting as the program types it (``SETD=`` gives ``4``)."""
        reply = self.session.command(f"{name}=")
        return reply.lines[0] if reply.lines and reply.lines[0] != "_" else ""

    def send(self, line: str) -> Reply:
        """A line for the program (a setting from an option); the caller reads the reply."""
        return self.session.send(line)

    def set_depth(self, depth: int) -> None:
        """The depth a plain search uses and deepening searches stop at."""
        self.depth = depth

    # --- the position ----------------------------------------------------------------
    def new_game(self) -> None:
        """A new game from the initial position (the program forgets the last one)."""
        self.session.command("NEW")
        self.board = chess.Board()
        self.start_fen = chess.STARTING_FEN

    def set_position(self, fen: str | None, moves: Sequence[str]) -> None:
        """Bring the program to ``fen`` (None: the initial position) and the moves after
        it (coordinates).  Moves the program has already are kept, others taken back
        (``U``), so the history stays whole; raises :class:`PositionError`."""
        fen = " ".join((fen or chess.STARTING_FEN).split())
        try:
            board = chess.Board(fen)
        except ValueError as exc:
            raise PositionError(f"bad FEN {fen!r}: {exc}") from None
        parsed: list[chess.Move] = []
        for text in moves:
            try:
                parsed.append(chess.Move.from_uci(text.lower()))
            except ValueError:
                raise PositionError(f"not a move in coordinates: {text!r}") from None
        if fen != self.start_fen:
            reply = self.session.send(f"SETUP {board.fen()}")
            if not reply.accepted:
                raise PositionError(f"the program refused the FEN: {reply.text}{refusal_note(fen)}")
            self.start_fen, self.board = fen, board
        have = self.board.move_stack
        keep = 0
        while keep < min(len(have), len(parsed)) and have[keep] == parsed[keep]:
            keep += 1
        for _ in range(len(have) - keep):
            self.session.command("U")
            self.board.pop()
        for move in parsed[keep:]:
            reply = self.session.send(move.uci().upper())
            if not reply.accepted:
                raise PositionError(f"illegal move {move.uci()}: the program says {reply.text}")
            self.board.push(move)

    # --- thinking --------------------------------------------------------------------
    def think(
        self,
        depths: Sequence[int],
        clock: Clock | None = None,
        poll: Callable[[], bool] = lambda: False,
        report: Callable[[Thought], None] | None = None,
    ) -> Thought:
        """Search at each depth in turn (``SETD d``, ``GO``, ``U``) until the last is done,
        the clock runs out or ``poll()`` asks to stop; ``report`` sees every depth's answer.

        The clock starts as the first depth begins; ``poll`` may give it limits and
        start it again (see :class:`Clock`).  Another depth is begun only while less
        than :data:`NEXT_DEPTH` of it is used.

        The answer: the last finished search, unless BELL stopped a deeper one after a
        root move was through (the program's best so far); with nothing searched, the
        plausible move generator's first choice.
        """
        clock = clock or Clock()
        m = self.session.machine
        wall0, emu0 = time.perf_counter(), m.elapsed_us
        self._nodes_done, self._nodes_stale = 0, None
        clock.start(emu0)
        best: Thought | None = None
        for depth in depths:
            if best is not None and (
                poll() or clock.spent(m.elapsed_us, self.nodes_searched()) > NEXT_DEPTH
            ):
                break
            thought = self._search(depth, clock, poll, wall0, emu0)
            if report is not None and thought.how in ("search", "stopped", "book", "other"):
                report(thought)
            if thought.how == "plausible" and best is not None:
                break  # stopped before a root move was through: the last depth stands
            best = thought
            if thought.how != "search":
                break
        assert best is not None  # depths is never empty
        return replace(
            best, emulated_s=float(m.elapsed_us - emu0) / 1e6, wall_s=time.perf_counter() - wall0
        )

    def nodes_searched(self) -> int:
        """The nodes of the present (or last) :meth:`think`, all its depths: the
        program's own count (``NODES``, read from core; THINK clears it as it begins,
        so until it has changed it is still the last search's)."""
        if self._nodes_stale is None:
            return self._nodes_done
        now = int(self.session.machine.memory[self.session.image.symbol("NODES")])
        self._nodes_fresh = self._nodes_fresh or now != self._nodes_stale
        return self._nodes_done + (now if self._nodes_fresh else 0)

    def _search(
        self,
        depth: int,
        clock: Clock,
        poll: Callable[[], bool],
        wall0: float,
        emu0: float,
    ) -> Thought:
        """One ``GO`` at ``depth``, stopped by BELL when the clock runs out or ``poll()``.

        BELL is typed again every :data:`RING_AGAIN_US` until the program stops: one that
        arrives while it is still reading the GO line is lost (THINK clears the flag as
        it begins), as an operator's early BELL was.
        """
        session, m = self.session, self.session.machine
        if depth != self.held_depth:
            session.command(f"SETD {depth}")
            self.held_depth = depth
        before = session.on_slice
        rung = -RING_AGAIN_US
        self._nodes_stale = int(m.memory[session.image.symbol("NODES")])
        self._nodes_fresh = False

        def alarm() -> float | None:
            """When an emulated budget runs out: the run pauses there to ring."""
            return clock.deadline_us() if self.emulated_clock else None

        def between_slices() -> None:
            nonlocal rung
            if before is not None:
                before()
            asked = self._catch_up(wall0, emu0, poll)
            if asked or clock.spent(m.elapsed_us, self.nodes_searched()) >= 1.0:
                if m.elapsed_us - rung >= RING_AGAIN_US:
                    session.type(BELL)
                    rung = m.elapsed_us
                session.alarm_us = m.elapsed_us + RING_AGAIN_US  # look again soon
            else:
                session.alarm_us = alarm()  # (a ponderhit may have started the clock)

        session.alarm_us = alarm()
        session.on_slice = between_slices
        try:
            reply = session.send("GO", **LONG)
        finally:
            session.on_slice, session.alarm_us = before, None
            self._nodes_done, self._nodes_stale = self.nodes_searched(), None
        self._catch_up(wall0, emu0, poll)
        moved = any(is_move_line(line) for line in reply.after_ack)
        thought = self._answer(depth, moved)
        thought.wall_s, thought.emulated_s = reply.wall_s, float(reply.emulated_us) / 1e6
        return thought

    def _catch_up(self, wall0: float, emu0: float, poll: Callable[[], bool]) -> bool:
        """With ``pace``: wait until the wall clock has caught up with the emulated one,
        unless a stop is asked; whether it was."""
        m = self.session.machine
        while not poll():
            lag = (m.elapsed_us - emu0) / 1e6 - (time.perf_counter() - wall0)
            if not self.pace or lag <= 0:
                return False
            time.sleep(min(lag, 0.02))
        return True

    def _answer(self, depth: int, moved: bool) -> Thought:
        """Read the program's answer after GO: the move it made (taken back again), or
        after BELL the best so far; BEST gives the value, nodes and line."""
        played = None
        if moved:
            played = self._name_played()
            self.session.command("U")
        words = self.session.command("BEST").lines[0].split()
        if words[:1] == ["BOOK"]:  # BEST after a book move: BOOK E2E4
            return Thought(played, "book" if played else "none", depth)
        if words[:1] == ["NO"]:
            return Thought(played, "other" if played else "none", depth)
        if words[0] == "PLAUSIBLE":
            return Thought(played or self._move(words[1]), "other" if played else "plausible",
                           depth)  # fmt: skip
        move, value, nodes = self._move(words[1]), int(words[3]), int(words[5])
        pv = [self._move(w) for w in words[7:]]
        if played is not None and played != move:  # not this search's move
            return Thought(played, "other", depth)
        return Thought(move, "search" if moved else "stopped", depth, value, pv, nodes)

    def _move(self, text: str) -> chess.Move:
        try:
            return chess.Move.from_uci(text.lower())
        except ValueError:
            raise SessionError(f"BEST printed {text!r}, not a move") from None

    def _name_played(self) -> chess.Move:
        """The move the program just made, found by the position it leads to."""
        return name_move(self.board, self.session.fen())


def name_move(board: chess.Board, fen: str) -> chess.Move:
    """The legal move of ``board`` that leads to the program's ``fen`` (placement, side,
    castling and en passant compared: the program prints an e.p. square exactly when
    python-chess does)."""
    after = fen.split()[:4]
    for move in board.legal_moves:
        board.push(move)
        same = board.fen().split()[:4] == after
        board.pop()
        if same:
            return move
    raise SessionError(f"the program's position {' '.join(after)} follows from no legal move")
