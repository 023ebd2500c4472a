"""``machack uci``: Mac Hack VI as a UCI engine, for today's GUIs and tools.

The protocol (https://www.shredderchess.com/chess-features/uci-universal-chess-interface.html)
is spoken here; the chess is the MIDAS program's, driven through
:class:`machack.player.MacHack`: positions are typed into it as coordinate moves, ``go``
becomes ``SETD``/``GO``, ``stop`` becomes BELL, and options become the program's own
settings (``SETW``, ``SETF`` ...).  A line the adapter cannot use gets an ``info string``
saying why, and the engine goes on: a GUI must never see it die.

Standard input is read by a thread of its own, so that ``stop``, ``ponderhit``,
``isready`` and ``quit`` are seen while the program thinks (between slices of the
emulator's run).  ``go ponder`` thinks on the opponent's time until ``ponderhit`` (the
go's limits count from then) or ``stop``; SIGTERM and SIGHUP end the engine at once.
"""

from __future__ import annotations

import contextlib
import io
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from .player import Clock, MacHack, PositionError, Thought, mate_moves, uci_score
from .session import Session, SessionError

NAME = "Mac Hack VI (emulated PDP-6)"
AUTHOR = "Richard Greenblatt (1967); emulation and adapter by the pdp6-machack project"
MAX_DEPTH = 20  # the program's SETD limit
MOVES_TO_GO = 30  # a sudden-death clock is shared as if this many moves were left
OVERHEAD_S = 0.05  # wall time kept back from a clock for the GUI's side of the exchange


@dataclass
class Option:
    """A UCI option and the program's setting it becomes (``command`` formats the value;
    None when the adapter keeps it itself)."""

    name: str
    kind: str  # spin, check, string
    default: str
    low: int = 0
    high: int = 0
    command: Callable[[str], str] | None = None

    def declaration(self) -> str:
        text = f"option name {self.name} type {self.kind} default {self.default}"
        return text + (f" min {self.low} max {self.high}" if self.kind == "spin" else "")


def _switch(word: str) -> Callable[[str], str]:
    return lambda value: f"{word} {'ON' if value == 'true' else 'OFF'}"


class UciEngine:
    """The UCI conversation over ``lines`` (from the reader thread; None at the end of
    input) and ``out``; ``boot`` makes a fresh program (again if one fails)."""

    def __init__(
        self, boot: Callable[[], Session], lines: queue.Queue[str | None], out: TextIO
    ) -> None:
        self.boot, self.lines, self.out = boot, lines, out
        self.player = MacHack(boot())
        self.options = self._options()
        self.values = {o.name.lower(): o.default for o in self.options}
        self.deferred: list[str] = []  # lines that came during a search, for after it
        self.quitting = False
        self.stop_asked = False
        self.ended = False  # the input has ended: every search stops at once
        self.pondering = False  # a go ponder search, until ponderhit or stop
        self.limits = self.clock = Clock()  # the go's limits; the search's clock
        self.hit: tuple[float, float] | None = None  # the ponderhit: wall, PDP-6 time

    def _options(self) -> list[Option]:
        """The options, with the program's own settings as defaults."""
        p = self.player
        return [
            Option("Depth", "spin", str(p.depth), 1, MAX_DEPTH),
            Option("Widths", "string", p.setting("SETW"), command=lambda v: f"SETW {v}"),
            Option("Feedover", "spin", p.setting("SETF"), 0, 20, lambda v: f"SETF {v}"),
            Option("CapturePlies", "spin", p.setting("SETC"), 0, 20, lambda v: f"SETC {v}"),
            Option("SecondaryPlies", "spin", p.setting("SETSD"), 0, 10, lambda v: f"SETSD {v}"),
            Option("OwnBook", "check", "true", command=_switch("BOOK")),
            Option("HashTable", "check", "true", command=_switch("HASH")),
            Option("EmulatedSpeed", "check", "false"),
            Option("Ponder", "check", "false"),  # the GUI says whether it will ask
        ]

    # --- output ----------------------------------------------------------------------
    def send(self, text: str) -> None:
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):  # the GUI has gone: nobody to answer
            self.quitting = True

    def note(self, text: str) -> None:
        """A remark for the GUI's log: an ``info string``, one line."""
        self.send("info string " + " ".join(text.split()))

    # --- the loop --------------------------------------------------------------------
    def run(self) -> None:
        """Answer lines until ``quit``, or until the end of input and every line before
        it (searches then stop at once, but each ``go`` still gets its ``bestmove``)."""
        while not self.quitting:
            if self.deferred:
                line: str | None = self.deferred.pop(0)
            else:
                line = None if self.ended else self.lines.get()
            if line is None:
                return
            try:
                self.handle(line)
            except SessionError as exc:
                self.note(f"the emulated program failed ({exc}); starting it again")
                self.restart()
                if line.split()[0] == "go":
                    self.send("bestmove 0000")  # a GUI waits for one
            except Exception as exc:  # noqa: BLE001 - a GUI must never see the engine die
                self.note(f"error in {line.strip()!r}: {type(exc).__name__}: {exc}")

    def restart(self) -> None:
        """A fresh program with the options and the position as before; if even that
        fails, the old one stays."""
        old = self.player
        try:
            self.player = MacHack(self.boot())
            for option in self.options:
                if self.values[option.name.lower()] != option.default:
                    self._apply(option, self.values[option.name.lower()])
            self.player.set_position(old.start_fen, [m.uci() for m in old.board.move_stack])
        except Exception as exc:  # noqa: BLE001 - said, and the engine goes on
            self.note(f"the program could not be started again: {exc}")

    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        verb, args = words[0], words[1:]
        handler = {
            "uci": self.cmd_uci,
            "isready": lambda a: self.send("readyok"),
            "setoption": self.cmd_setoption,
            "ucinewgame": lambda a: self.player.new_game(),
            "position": self.cmd_position,
            "go": self.cmd_go,
            "stop": lambda a: None,  # no search under way: nothing to stop
            "ponderhit": lambda a: None,
            "debug": lambda a: None,
            "register": lambda a: None,
            "quit": lambda a: setattr(self, "quitting", True),
        }.get(verb)
        if handler is None:
            self.note(f"unknown command {verb!r} ignored")
            return
        handler(args)

    def cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        for option in self.options:
            self.send(option.declaration())
        self.send("uciok")

    def cmd_setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            self.note(f"setoption needs 'name': {text!r}")
            return
        name, _, value = text[5:].partition(" value ")
        option = next((o for o in self.options if o.name.lower() == name.strip().lower()), None)
        if option is None:
            self.note(f"no option {name.strip()!r}")
            return
        value = value.strip()
        if option.kind == "check":
            value = value.lower()
            if value not in ("true", "false"):
                self.note(f"{option.name} is true or false, not {value!r}")
                return
        elif option.name == "Widths" and not value.replace(" ", "").isdigit():
            self.note(f"Widths are numbers, the root's first: not {value!r}")
            return
        elif option.kind == "spin":
            if not value.lstrip("-").isdigit() or not option.low <= int(value) <= option.high:
                self.note(f"{option.name} takes {option.low} to {option.high}, not {value!r}")
                return
        self._apply(option, value)

    def _apply(self, option: Option, value: str) -> None:
        """Set an option: the program's setting, or the adapter's own."""
        if option.command is not None:
            line = option.command(value)
            reply = self.player.send(line)
            if not reply.accepted:
                self.note(f"{option.name} {value}: the program refused {line!r} ({reply.text})")
                return
        elif option.name == "Depth":
            self.player.set_depth(int(value))
        elif option.name == "EmulatedSpeed":
            self.player.emulated_clock = self.player.pace = value == "true"
        self.values[option.name.lower()] = value

    def cmd_position(self, args: list[str]) -> None:
        fen: str | None = None
        if args[:1] == ["fen"]:
            end = args.index("moves") if "moves" in args else len(args)
            fen, rest = " ".join(args[1:end]), args[end:]
        elif args[:1] == ["startpos"]:
            rest = args[1:]
        else:
            self.note("position needs 'startpos' or 'fen'")
            return
        moves = rest[1:] if rest[:1] == ["moves"] else []
        if rest and rest[0] != "moves":
            self.note(f"position: {' '.join(rest)!r} ignored")
        try:
            self.player.set_position(fen, moves)
        except PositionError as exc:
            self.note(f"position: {exc}; the program holds {self.player.board.fen()}")

    # --- go --------------------------------------------------------------------------
    def cmd_go(self, args: list[str]) -> None:
        """One search as the go line says (docs/uci.md, the table), answered by one
        ``bestmove``.  ``go ponder`` searches the position the GUI gave (the one after
        the move it expects the opponent to play) with the go's depths but no clock;
        ``ponderhit`` starts the go's clock, ``stop`` answers at once, and a search that
        has ended before either holds its answer until one comes."""
        limits = self._go_limits(args)
        player = self.player
        infinite = "infinite" in limits
        self.pondering = "ponder" in limits
        budget = self._budget(limits, player.board.turn)
        mate = limits.get("mate")
        top = limits.get("depth", player.depth)
        if mate is not None and "depth" not in limits:
            top = min(2 * mate - 1, MAX_DEPTH)  # mate in n moves: 2n-1 plies
        depths: Sequence[int]
        if infinite:
            depths = range(1, MAX_DEPTH + 1)
        elif budget is not None or "nodes" in limits or mate is not None:
            depths = range(1, top + 1)
        else:
            depths = [top]
        emulated = budget if budget is not None and player.emulated_clock else None
        self.limits = Clock(wall_s=budget, emulated_s=emulated, nodes=limits.get("nodes"))
        self.clock = Clock() if self.pondering else self.limits  # ponderhit starts it
        self.hit = None
        self.stop_asked = self.ended
        wall0, emu0 = time.perf_counter(), player.session.machine.elapsed_us
        found = False  # go mate: a mate in that many moves is found, no deeper depth

        def report(t: Thought) -> None:
            nonlocal found
            wall_ms = round((time.perf_counter() - wall0) * 1000)
            emu_s = (player.session.machine.elapsed_us - emu0) / 1e6
            if t.value is not None:
                seldepth = max(len(t.pv), t.depth)
                pv = " ".join(m.uci() for m in t.pv)
                score = uci_score(t.value)
                nodes = player.nodes_searched()  # this go's, all depths (as go nodes)
                self.send(f"info depth {t.depth} seldepth {seldepth} score {score} "
                          f"nodes {nodes} time {wall_ms} pv {pv}")  # fmt: skip
                moves = mate_moves(t.value)
                found = found or (mate is not None and moves is not None and 0 < moves <= mate)
            elif t.how == "book":
                self.note(f"book move {t.move}: from the program's opening book, no search")
                return
            else:
                self.note(f"the program moved {t.move} without a search")
            self.note(f"depth {t.depth}: PDP-6 time {emu_s:.2f} s, wall {wall_ms / 1000:.3f} s"
                      + (" (stopped by BELL)" if t.how == "stopped" else ""))  # fmt: skip

        analysing = infinite and self.values["ownbook"] == "true"
        if analysing:  # analysis is the search's: the book would answer and say nothing
            player.send("BOOK OFF")
        thought = player.think(depths, self.clock, lambda: self._poll() or found, report)
        if analysing:  # (a program that failed is started again with the book on)
            player.send("BOOK ON")
        if thought.how == "plausible":
            self.note("stopped before a root move was searched through: the plausible "
                      "move generator's first choice")  # fmt: skip
        if mate is not None and thought.how in ("search", "stopped") and not found:
            self.note(f"no mate in {mate} found (searched to depth {thought.depth})")
        while (infinite or self.pondering) and not self.stop_asked:  # hold the answer
            line = self.lines.get()
            if line is None:
                self.ended = self.stop_asked = True
            else:
                self._take(line)
        if self.hit is not None:
            wall_s = time.perf_counter() - self.hit[0]
            emu_s = (player.session.machine.elapsed_us - self.hit[1]) / 1e6
            self.note(f"answered {wall_s:.3f} s after ponderhit (PDP-6 time {emu_s:.2f} s)")
        self.pondering = False
        self._bestmove(thought)

    def _ponderhit(self) -> None:
        """The opponent played the expected move: the go's limits count from now (a
        search that has ended is answered at once)."""
        if not self.pondering:
            return  # (no ponder search: nothing to do)
        self.pondering = False
        machine = self.player.session.machine
        self.hit = (time.perf_counter(), machine.elapsed_us)
        limits = self.limits
        if limits.wall_s is None and limits.emulated_s is None and limits.nodes is None:
            return
        clock = self.clock
        clock.wall_s, clock.emulated_s, clock.nodes = limits.wall_s, limits.emulated_s, limits.nodes
        clock.start(machine.elapsed_us, self.player.nodes_searched())

    def _bestmove(self, thought: Thought) -> None:
        if thought.move is None:
            self.note("no legal move")
            self.send("bestmove 0000")
            return
        ponder = ""
        if len(thought.pv) > 1 and thought.pv[0] == thought.move:
            ponder = f" ponder {thought.pv[1].uci()}"
        self.send(f"bestmove {thought.move.uci()}{ponder}")

    def _go_limits(self, args: list[str]) -> dict[str, int]:
        """The go line's limits by name (flags as 1); unknown or bad words noted."""
        numeric = {"depth", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
                   "nodes", "mate"}  # fmt: skip
        limits: dict[str, int] = {}
        i = 0
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                limits[word] = 1
            elif word in numeric and i + 1 < len(args) and args[i + 1].lstrip("-").isdigit():
                limits[word] = int(args[i + 1])
                i += 1
            elif word == "searchmoves":
                self.note("searchmoves is not supported: all moves are searched")
                while i + 1 < len(args) and args[i + 1] not in numeric | {"infinite", "ponder"}:
                    i += 1
            else:
                self.note(f"go: {word!r} not understood, ignored")
            i += 1
        if "depth" in limits:
            limits["depth"] = min(max(limits["depth"], 1), MAX_DEPTH)
        if "nodes" in limits:
            limits["nodes"] = max(limits["nodes"], 1)
        if limits.get("mate", 1) < 1:
            self.note(f"go mate {limits.pop('mate')}: a mate is found in 1 move or more; ignored")
        return limits

    def _budget(self, limits: dict[str, int], white: bool) -> float | None:
        """Seconds for this move: movetime, or a share of the clock."""
        if "movetime" in limits:
            return max(limits["movetime"] / 1000, 0.001)
        left = limits.get("wtime" if white else "btime")
        if left is None:
            return None
        inc = limits.get("winc" if white else "binc", 0) / 1000
        togo = max(limits.get("movestogo", MOVES_TO_GO), 1)
        share = max(left / 1000 - OVERHEAD_S, 0) / togo + 0.75 * inc
        return max(min(share, max(left / 1000 - OVERHEAD_S, 0) / 2), 0.001)

    def _poll(self) -> bool:
        """Between slices of a search: the lines that came; True once stop is asked."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return self.stop_asked
            if line is None:
                self.ended = self.stop_asked = True
            else:
                self._take(line)

    def _take(self, line: str) -> None:
        """A line that came while the engine thinks (or holds its answer)."""
        verb = line.split()[0] if line.split() else ""
        if verb == "isready":
            self.send("readyok")
        elif verb == "stop":
            self.stop_asked = True
        elif verb == "quit":
            self.quitting = self.stop_asked = True
        elif verb == "ponderhit":
            self._ponderhit()
        elif verb in ("position", "go", "ucinewgame"):
            # the GUI has gone on without a stop: the search is over for it
            self.note(f"{verb} before stop: the search is stopped first")
            self.stop_asked = True
            self.deferred.append(line)
        elif verb:
            self.deferred.append(line)


def read_lines(stream: TextIO, lines: queue.Queue[str | None]) -> None:
    """The reader thread: every line of ``stream`` into ``lines``, then None (also if
    the stream fails: the engine then ends as at the end of input)."""
    try:
        for line in stream:
            lines.put(line.strip())
    finally:
        lines.put(None)


class Terminated(BaseException):
    """SIGTERM or SIGHUP came: the engine ends at once (a BaseException, so that no
    ``except Exception`` on the way takes it for a failure to go on from)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: object) -> None:
    signal.signal(signum, signal.SIG_IGN)  # one is enough: a second must not break the exit
    raise Terminated(signum)


@contextlib.contextmanager
def ending_on_signals(out: TextIO) -> Iterator[None]:
    """SIGTERM and SIGHUP end the engine at once, wherever it is (between slices of the
    emulator's run: some milliseconds), with exit status 128 + the signal's number (143
    for SIGTERM), as a shell reports a process the signal ended.  A handler of our own
    rather than the default, so that a disposition inherited from the GUI (ignored) or
    set by a library cannot keep the engine alive."""
    saved = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None:  # (no SIGHUP on Windows)
            continue
        try:
            saved[sig] = signal.signal(sig, _terminate)
        except ValueError:  # not the main thread: leave signals alone
            break
    try:
        yield
    except Terminated as ended:
        try:
            out.flush()
        except (OSError, ValueError):  # the GUI has gone: nothing more to say
            pass
        raise SystemExit(128 + ended.signum) from None
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)


def serve(boot: Callable[[], Session], stdin: TextIO = sys.stdin, out: TextIO = sys.stdout) -> None:
    """Run the engine on standard input and output, until ``quit``, the end of input,
    SIGTERM or SIGHUP (see :func:`ending_on_signals`)."""
    if isinstance(stdin, io.TextIOWrapper):
        stdin.reconfigure(errors="replace")  # bytes that are no text are bad words, no more
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=read_lines, args=(stdin, lines), daemon=True).start()
    with ending_on_signals(out):
        UciEngine(boot, lines, out).run()
