"""The ``machack`` command: play Mac Hack VI on the emulated PDP-6, and tools for scripts.

Every chess decision is made by the MIDAS program in emulated core; this file only boots
the machine, types lines at it and prints what it answers.
"""

from __future__ import annotations

import codecs
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from pdp6.host.autoengine import AutoEngine
from pdp6.host.runner import StopFlag, Terminated, ending_on_signals

from .build import BuildError
from .session import (
    ProgramHalted,
    ProgramHung,
    Reply,
    Session,
    SessionError,
    is_move_line,
    move_text,
    parse_reply,
)
from .sides import MODES, YOU

if TYPE_CHECKING:
    from .display import Screen
    from .pgn import PlayNotes

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Work a person asked for (a deep search, perft 6) may take long: budgets for the host
# only, so that a program that really hangs is still reported.
LONG = {"budget": 10**13, "emulated_limit_s": 1e9}


def _fen_arg(fen: str) -> str:
    """The FEN to give the program: 'startpos' is the initial position, and the fields
    after the board may be left out (White to move, no castling, as python-chess reads
    it).  One that cannot be read, or whose castling rights or en passant square do not
    fit its board (python-chess would drop them), is refused here, saying why."""
    import chess

    text = fen.strip()
    if text.lower() in ("startpos", "start", "new"):
        return START
    try:
        board = chess.Board(text)
    except ValueError as exc:
        raise click.ClickException(f"bad FEN {text!r}: {exc}") from None
    from .player import position_problems

    unfit = board.status() & (chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE)
    if unfit:
        raise click.ClickException(f"bad FEN {text!r}: {position_problems(text)}")
    return board.fen()


def _setup(session: Session, fen: str) -> None:
    """SETUP a position read by ``_fen_arg``, or say why the program refused it."""
    from .player import refusal_note

    reply = session.send(f"SETUP {fen}")
    if not reply.accepted:
        raise click.ClickException(
            f"the program refused the FEN {fen!r}: {reply.text}{refusal_note(fen)}"
        )


class _Say:
    """Where the host's one-line notes go: standard error, or, once the game runs on a
    terminal, the teletype host, which puts them between the program's lines."""

    def __init__(self) -> None:
        self.to: Callable[[str], None] = lambda text: click.echo(text, err=True)

    def __call__(self, text: str) -> None:
        self.to(text)


def _session(say: Callable[[str], None] | None = None, **kwargs: object) -> Session:
    """The program booted on the engine pdp6.host.autoengine picks: on a fresh machine the
    python engine at once, and the compiled engine as soon as its background build is
    done (the session moves between slices of a run).  ``say`` shows the one-line notes
    (standard error by default)."""
    auto = AutoEngine(say=say or _Say())
    click.get_current_context().call_on_close(auto.note_unfinished)
    try:
        session = Session(engine=auto.engine, **kwargs)  # type: ignore[arg-type]
    except (SessionError, BuildError) as exc:
        raise click.ClickException(f"the program did not start: {exc}") from exc
    session.on_slice = lambda: auto.poll(session.machine)
    return session


class Printer:
    """Prints the program's output; at ``cps`` characters a second like a Model 35."""

    def __init__(self, cps: float | None) -> None:
        self.cps = cps

    def line(self, text: str) -> None:
        if not self.cps:
            click.echo(text)
            return
        for ch in text + "\n":
            sys.stdout.write(ch)
            sys.stdout.flush()
            time.sleep(1.0 / self.cps)


def _send_interruptible(session: Session, line: str, stop: StopFlag) -> Reply:
    """Send a line; Ctrl-C while the machine thinks types BELL (it answers QUIT).

    Ctrl-C only raises a flag, which the session looks at between slices of the run
    (``on_slice``): an interrupt never lands in the middle of an instruction.
    """
    m = session.machine
    t0, w0 = m.elapsed_us, time.perf_counter()
    session.type(line.encode("latin-1", "replace") + b"\r")
    with stop.catching_signals():
        raw = session.run_until_idle(**LONG)
    reply = parse_reply(raw)
    reply.emulated_us = m.elapsed_us - t0
    reply.wall_s = time.perf_counter() - w0
    return reply


class _Group(click.Group):
    """The command, its standard output flushed and guarded (a full device is one line
    on stderr, not a traceback: :func:`pdp6.formats.hostfiles.standard_output`), --help too."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from pdp6.formats.hostfiles import standard_output

        with standard_output("machack"):
            return super().main(*args, **kwargs)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdp6-machack")
def main() -> None:
    """Mac Hack VI (Greenblatt, 1967), a MIDAS program on an emulated PDP-6.

    \b
    Examples:
      machack play                       you play White, the machine Black
      machack play --colour white --depth 3 --baud 110
      machack perft startpos 4
      machack move "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
      machack replay --1967              the four 1967 games, checked move by move
      machack uci                        a UCI engine for chess GUIs (docs/uci.md)
      machack match --opponent stockfish --movetime 1000
      machack compare --original chess-d.bin --1967 --set "RULES D"
                                         beside the surviving original (docs/machack.md)
      machack play --pgn game.pgn        the game as PGN, with PDP-6 times
      machack bench
      machack book build                 the book's table from its text, after editing it
    """


@main.command()
@click.option(
    "--colour",
    "--color",
    "colour",
    type=click.Choice(sorted(MODES)),
    default="black",
    show_default=True,
    help="The side the machine plays (both: it plays itself; none: you type both).",
)
@click.option("--depth", type=click.IntRange(1, 20), default=4, show_default=True,
              help="Plies of the search (SETD).")  # fmt: skip
@click.option("--baud", type=click.Choice(["110"]), default=None,
              help="Teletype at 110 baud: 10 characters a second.")  # fmt: skip
@click.option("--display", is_flag=True,
              help="Open the Type 340 display in a window beside the teletype: the program "
              "draws the board, the game, its clocks (FANCY, SDS: docs/display.md).")  # fmt: skip
@click.option("--display-png", "display_png", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write the 340's screen to this PNG after each move.")  # fmt: skip
@click.option("--display-gif", "display_gif", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="At the end write the 340's screen after each move as an "
              "animated GIF.")  # fmt: skip
@click.option("--fen", default=None, help="Start from this position instead of the initial one.")
@click.option("--pgn", "pgn_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="At the end write the game as PGN, with the PDP-6 time and the program's "
              "value of each of its moves (it types them after each move: PSVD 1).")  # fmt: skip
def play(
    colour: str, depth: int, baud: str | None, display: bool, display_png: Path | None,
    display_gif: Path | None, fen: str | None, pgn_file: Path | None,
) -> None:  # fmt: skip
    """Play a game at the teletype.

    Type moves in descriptive notation as in the 1967 scores (P-K4, N-KB3, NXP, O-O,
    P-R8=Q, R/K2-Q2) or in coordinates (E2E4), and the program's commands (BOARD, PG,
    MOVES, SCORE, DRAW?, U, RESIGN, HELP in docs/teletype.md).  After each machine
    move the emulated PDP-6 time and the wall time are shown.  Ctrl-C while the
    machine thinks types BELL: it stops, answers QUIT and stops playing (type PB or
    PW to let it play again).  Ctrl-D ends the session.

    On a fresh machine the game starts at once on the python engine while the
    compiled engine is built in the background; it moves to it when it is ready.
    """
    if pgn_file is not None:
        _writable(pgn_file)  # now, not after the whole game
    start = _fen_arg(fen) if fen else None  # (one that cannot be read: refused now too)
    say = _Say()
    session = _session(say=say, baud=int(baud) if baud else None)
    banner = [text for text in session.banner.split("\n") if text and text != "*"]
    screen, display_note = _screen(session, display, display_png, display_gif, say)
    if start is not None:
        _setup(session, start)
    settings = [f"DEPTH {depth}"]
    from .pgn import PlayNotes

    notes = PlayNotes()  # (also for a game kept when play ends by a signal)
    if pgn_file is not None:
        settings += ["PSVD 1", "PSTAT 1"]  # the value and time of each move, for the PGN
    for line in settings:  # typed by the host, not shown as if the player had
        reply = session.send(line)
        if not reply.accepted:
            raise click.ClickException(f"the program refused {line!r}: {reply.text}")
    you = YOU[colour]
    host_note = (f"[machine plays {colour}, {you}; depth {depth}; "
                 "Ctrl-C stops it thinking, Ctrl-D ends the game]")  # fmt: skip
    header = banner + [host_note] + ([display_note] if display_note else [])
    failure: SessionError | Terminated | None = None
    left = False
    try:
        with ending_on_signals():
            if sys.stdin.isatty() and sys.stdout.isatty():
                left = _play_terminal(session, say, colour, baud, header, notes.line, screen)
            else:
                _play_lines(session, colour, baud, header, notes.line)
    except (SessionError, Terminated) as exc:  # the program stopped working, or SIGTERM
        failure = exc
    finally:
        if screen is not None:
            _close_screen(screen)
    if failure is not None:  # the game as it was at the last prompt is kept, not lost
        if isinstance(failure, Terminated):  # (a working program: to its prompt first)
            _to_prompt(session)
        if session.game_ply() > 0:
            _write_play_pgn(session.restored(), notes, colour, pgn_file or _kept_game_path())
        if isinstance(failure, Terminated):
            click.echo(f"machack: {failure}", err=True)
            sys.exit(failure.exit_status)
        raise click.ClickException(str(failure))
    if pgn_file is not None:
        _write_play_pgn(session, notes, colour, pgn_file)
    elif left and session.game_ply() > 0:  # left by Ctrl-C: the game is kept
        _write_play_pgn(session, notes, colour, _kept_game_path())


@main.command()
@click.option("--colour", "--color", "colour", type=click.Choice(sorted(MODES)),
              default="black", show_default=True,
              help="The side the machine plays in each tab's game.")  # fmt: skip
@click.option("--depth", type=click.IntRange(1, 20), default=4, show_default=True,
              help="Plies of the search (SETD).")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 lets other machines "
              "play on this one).")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8340, show_default=True,
              help="The port (0: any free one).")  # fmt: skip
def web(colour: str, depth: int, host: str, port: int) -> None:
    """The 1967 console in a web page: the teletype and the Type 340.

    Serves a page at http://127.0.0.1:8340/ (the address is printed): the teletype's
    paper, where you type moves and commands as in `machack play`, beside the 340's
    screen, live.  Every tab is a new machine and a new game; closing it ends that
    machine.  BELL (the button, or Ctrl-C in the page) stops the machine thinking.
    Needs the web extra: pip install 'pdp6-machack[web]'.  Ctrl-C here ends the server.
    """
    from pdp6.host.web.cli import serve_consoles

    from .web import MacHackConsole, console_maker

    auto = AutoEngine(say=_Say())
    serve_consoles(console_maker(colour, depth, auto.engine), MacHackConsole.title, host, port)


def _to_prompt(session: Session) -> None:
    """Stop any thinking (BELL) and throw away a line half typed, so that the game the
    program holds is kept as it is now (Session.save_game at its prompt)."""
    session.tty.host = session.host
    session.type(b"\x07\x7f")
    try:
        session.run_until_idle(budget=50_000_000, emulated_limit_s=60.0)
    except SessionError:
        pass  # (the state saved at the last prompt is kept instead)


def _kept_game_path() -> Path:
    """Where a game goes when play ends before a --pgn file was asked for: a new file in
    the current folder, named by the time."""
    return Path(f"machack-{time.strftime('%Y%m%d-%H%M%S')}.pgn")


def _screen(
    session: Session, window: bool, png: Path | None, gif: Path | None, say: _Say
) -> tuple[Screen | None, str | None]:
    """The Type 340 on the session's machine, if any display output was asked for, and
    the note for the header (where the pictures go, or why there is no window)."""
    if not (window or png or gif):
        return None, None
    from pdp6.formats.hostfiles import OutputFileError

    from .display import Screen, no_window_reason

    reason = no_window_reason() if window else None
    files = ", ".join(str(p) for p in (png, gif) if p is not None)
    if reason is not None and not files:
        return None, (f"[{reason}: playing on the teletype only; --display-png and "
                      "--display-gif draw the 340 into files]")  # fmt: skip
    if reason is not None:
        note = f"[{reason}: the 340 is drawn only into {files}]"
    elif window:
        note = "[the Type 340 display is in its own window" + (
            f"; its screen goes to {files} after every move]" if files else "]")  # fmt: skip
    else:
        note = f"[the Type 340's screen goes to {files} after every move]"
    try:
        screen = Screen(session, live=window and reason is None, png=png, gif=gif, say=say)
    except OutputFileError as exc:
        raise click.ClickException(str(exc)) from exc
    poll = session.on_slice

    def between_slices() -> None:
        if poll is not None:
            poll()
        screen.poll()

    session.on_slice = between_slices
    return screen, note


def _close_screen(screen: Screen) -> None:
    """Write the GIF and close the window; a file that cannot be written is said."""
    from pdp6.formats.hostfiles import OutputFileError

    try:
        screen.close()
    except OutputFileError as exc:
        raise click.ClickException(str(exc)) from exc
    if screen.gif is not None:
        click.echo(f"[the game's animation is in {screen.gif}]", err=True)


def _writable(path: Path) -> None:
    """Refuse an output file that cannot be written, before any work goes into it."""
    from pdp6.formats.hostfiles import OutputFileError, check_writable

    try:
        check_writable(path)
    except OutputFileError as exc:
        raise click.ClickException(str(exc)) from None


def _write_play_pgn(session: Session, notes: PlayNotes, colour: str, path: Path) -> None:
    """The game the program holds, as PGN in ``path`` (see machack.pgn.play_pgn); if
    the file cannot be written after all, the PGN goes to standard error instead."""
    from .pgn import MACHACK, play_pgn

    person = "Player at the teletype"
    white = MACHACK if colour in ("white", "both") else person
    black = MACHACK if colour in ("black", "both") else person
    session.type(b"\x07\x7f")  # stop any thinking; throw away a line half typed
    try:
        session.run_until_idle()
        text = play_pgn(session, notes, white, black)
    except (SessionError, ValueError) as exc:
        raise click.ClickException(f"the PGN was not made: {exc}") from exc
    _write_or_show(path, text)
    click.echo(f"[the game is in {path}]", err=True)


def _write_or_show(path: Path, pgn: str) -> None:
    """Write the PGN to ``path``, checked writable before the work; if it cannot be
    written after all (a full disk), it goes to standard error, not lost."""
    try:
        path.write_text(pgn)
    except OSError as exc:
        click.echo(pgn, err=True, nl=False)
        raise click.ClickException(
            f"cannot write {path}: {exc.strerror or exc} (the game's PGN is above)"
        ) from None


def _play_lines(
    session: Session,
    colour: str,
    baud: str | None,
    header: list[str],
    watch: Callable[[str], None] | None = None,
) -> None:
    """The game over standard input and output (a pipe or a file): a line at a time."""
    printer = Printer(10.0 if baud else None)
    for text in header:
        printer.line(text)
    stop = StopFlag()
    poll = session.on_slice

    def between_slices() -> None:
        if poll is not None:
            poll()
        if stop.raised:  # Ctrl-C: BELL to the program, which stops thinking
            stop.clear()
            session.type(b"\x07")

    session.on_slice = between_slices
    echoed_by_terminal = sys.stdin.isatty()  # (a line typed at a terminal is on it already)
    machine_plays_both = colour == "both"
    first = "PN" if machine_plays_both else MODES[colour]
    opening = _send_interruptible(session, first, stop)  # the host's command: only
    opening.lines = opening.after_ack  # what the machine does after it is shown
    _show(printer, opening, watch)
    typed = _typed_lines(sys.stdin)
    while True:
        if machine_plays_both:
            reply = _send_interruptible(session, "GO", stop)
            _show(printer, reply, watch)
            moved = any(is_move_line(x) for x in reply.after_ack)
            if not moved or any(_is_result(x) for x in reply.lines):
                machine_plays_both = False  # the game is over, or BELL stopped it
            continue
        try:
            click.echo("*", nl=False)
            line = next(typed)
        except (StopIteration, KeyboardInterrupt):
            click.echo()
            return
        try:
            reply = _send_interruptible(session, line, stop)
        except ProgramHung as exc:
            raise click.ClickException(str(exc)) from exc
        if not echoed_by_terminal:  # as the teletype's paper shows it: the program's echo
            printer.line(reply.echo)
        _show(printer, reply, watch)


def _typed_lines(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream``, each ended by RETURN (CR), LF or CR LF, as the teletype
    ends them, and each given as soon as its end arrives: the bytes under the text are
    read as they come (a text stream holds a line ended by CR until an LF follows)."""
    raw = getattr(stream, "buffer", None)
    read = getattr(raw, "read1", None)
    if read is None:  # (a text stream with no bytes under it)
        chunks: Iterator[str] = iter(stream)
    else:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        chunks = (decoder.decode(data) for data in iter(lambda: read(4096), b""))
    carry, after_cr = "", False
    for chunk in chunks:
        if after_cr and chunk.startswith("\n"):
            chunk = chunk[1:]  # the LF of a CR LF that came in two reads
        if chunk:
            after_cr = chunk.endswith("\r")
        *lines, carry = re.split(r"\r\n|\r|\n", carry + chunk)
        yield from lines
    if carry:
        yield carry


def _play_terminal(
    session: Session,
    say: _Say,
    colour: str,
    baud: str | None,
    header: list[str],
    watch: Callable[[str], None] | None = None,
    screen: Screen | None = None,
) -> bool:
    """The interactive game: the keyboard goes to the program a key at a time through
    the shared terminal host (pdp6/host/terminal.py), the program echoes and answers, and
    the host adds the PDP-6 and wall time to each of the machine's move lines.

    While the program waits at its prompt the host sleeps until a key comes
    (``Session.idle_wait``).  Ctrl-C while it thinks is BELL; at the prompt the first
    Ctrl-C says how to leave, a second one leaves.  Returns True when the game was left
    that way (the caller keeps the game), False for Ctrl-D or a hang-up.  Raises
    :class:`ProgramRanAway` (or ``ProgramHalted``) when the program stops working."""
    from .playhost import PlayHost, play_runner

    machine = session.machine
    host = PlayHost(machine, pace_cps=10.0 if baud else None, watch=watch)
    for text in header:
        click.echo(text)
    session.tty.host = host  # from now on the teletype is this terminal
    say.to = host.note
    host.keys.extend(b"PS\r" if colour == "both" else f"{MODES[colour]}\r".encode())
    host.muted = 2  # the host's own command: its echo and `_` are not shown
    runner = play_runner(session)
    leaving = -1  # Ctrl-C came at the prompt after this many keys: the next one leaves
    left = False
    waited = False  # the last stop was at the prompt, waiting
    try:
        with host.raw():
            while True:
                outcome = runner.run()
                if outcome.reason in ("halt", "breakpoint"):
                    session.check_runaway()
                if outcome.reason == "halt":
                    raise ProgramHalted(f"the program halted at {outcome.pc:06o}")
                if outcome.reason == "breakpoint" and outcome.pc == session.idle_pc:
                    if session.at_prompt():  # waiting for the person: sleep till a key
                        if not waited:  # (the game kept once at each prompt)
                            session.save_game()
                        waited = True
                        session.idle_wait(host.wait_for_input)
                        continue
                    if session.waiting():  # a key on its way: the clock on to it
                        machine.idle_until(float("inf"))
                    waited = False
                    continue
                waited = False
                if screen is not None and outcome.reason == "breakpoint":
                    screen.poll()  # the program built a list: a picture of it, then go on
                    continue
                if outcome.reason != "interrupted" or host.hung_up:
                    break
                if not host.keys and not session.tty.input_flag and session.waits_for_a_key():
                    if leaving == host.keys_read:  # Ctrl-C twice at the prompt: leave
                        left = True
                        break
                    leaving = host.keys_read  # (a key typed since starts over)
                    host.note_at_prompt("[Ctrl-C again or Ctrl-D leaves the game]")
                    continue
                host.keys.append(0o007)  # BELL: stop thinking
    finally:
        host.finish_output()
        click.echo()
        session.tty.host = session.host  # the session's own host again, for the host
    return left


def _is_result(line: str) -> bool:
    return line.startswith(("CHECKMATE", "STALEMATE", "DRAW BY", "WHITE RESIGNS", "BLACK RES"))


def _show(printer: Printer, reply: Reply, watch: Callable[[str], None] | None = None) -> None:
    moves = [x for x in reply.after_ack if is_move_line(x)]
    for text in reply.lines:
        if watch is not None:
            watch(text)
        if is_move_line(text) and len(moves) == 1:
            text = f"{text:<24} [PDP-6 {reply.emulated_us / 1e6:.1f} s, wall {reply.wall_s:.2f} s]"
        printer.line(text)


def _command_for_gui() -> str:
    """The command line a GUI should run: this installation's own ``machack``."""
    found = shutil.which("machack")
    return f"{found or 'machack'} uci"


@main.command(
    help=f"""Run Mac Hack VI as a UCI engine on standard input and output.

    For a chess GUI (Arena, Cute Chess, Banksia, En Croissant, ...) add a UCI engine
    with the command:

    \b
      {_command_for_gui()}

    Options: Depth, Widths, Feedover, CapturePlies, SecondaryPlies (the program's SETD,
    SETW, SETF, SETC, SETSD), OwnBook and HashTable (BOOK and HASH, where the program
    has them) and EmulatedSpeed (think in PDP-6 seconds, at the real machine's pace).
    Every move is the MIDAS program's; see docs/uci.md.
    """
)
def uci() -> None:
    from . import uci as ucimod

    def say(text: str) -> None:
        click.echo(f"info string {text}")

    ucimod.serve(lambda: _session(say=say))


@main.command("pgn")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-")
@click.option("--fen", default=None, help="The position the game started from (default: the "
              "initial one).")  # fmt: skip
@click.option("--white", default="?", show_default=True, help="White's name.")
@click.option("--black", default="?", show_default=True, help="Black's name.")
@click.option("--result", type=click.Choice(["1-0", "0-1", "1/2-1/2", "*"]), default=None,
              help="The result (default: as the program announces it at the end).")  # fmt: skip
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the PGN here instead of standard output.")  # fmt: skip
def pgn_command(
    file: str, fen: str | None, white: str, black: str, result: str | None, output: Path | None
) -> None:
    """Turn the program's PG printout into PGN.

    FILE (or standard input) holds what PG typed, a full move a line in descriptive
    notation ('  1 P-K4        P-K4'); other lines are passed over.  The moves are typed
    into the program one by one and named in coordinates by the position they lead to.

    \b
    Example:
      machack pgn game.txt --white "Mac Hack VI (emulated PDP-6)" --black Dreyfus -o game.pgn
    """
    from .pgn import pg_to_pgn

    try:
        with click.open_file(file, encoding="utf-8") as stream:
            text = stream.read(1 << 24)
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {file}: {exc}") from exc
    if output is not None:
        _writable(output)  # now, not after the moves are replayed
    start = _fen_arg(fen) if fen else START
    session = _session()
    try:
        pgn = pg_to_pgn(session, text, start, white, black, result)
    except (ValueError, SessionError) as exc:
        raise click.ClickException(str(exc)) from exc
    if output is None:
        click.echo(pgn, nl=False)
    else:
        _write_or_show(output, pgn)


@main.command()
@click.option("--opponent", required=True, metavar="COMMAND",
              help="The UCI engine to play, as a command line (e.g. stockfish), or "
              "original:FILE for the surviving original Mac Hack image.")  # fmt: skip
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A UCI option for the opponent (repeatable); for the original Depth, "
              "Widths, Feedover, CapturePlies (its SETD, SETW, SETF, SETC).")  # fmt: skip
@click.option("-n", "--games", type=click.IntRange(1, 100_000), default=10, show_default=True)
@click.option("--movetime", type=click.IntRange(1, 3_600_000), default=None,
              help="Milliseconds a move, for both (Mac Hack deepens up to its depth).  "
              "[default: 1000; against the original none: it has no clock, and Mac Hack "
              "searches once at its depth]")  # fmt: skip
@click.option("--depth", type=click.IntRange(1, 20), default=None,
              help="Mac Hack's depth (SETD; default the program's).")  # fmt: skip
@click.option("--set", "settings", multiple=True, metavar="COMMAND",
              help="A setting typed to Mac Hack first, e.g. --set 'SETW 15 15 9 9 7'.")  # fmt: skip
@click.option("--emulated-speed", is_flag=True,
              help="Mac Hack's movetime in PDP-6 seconds: what the 1967 machine would "
              "have found in that time.")  # fmt: skip
@click.option("--opponent-depth", type=click.IntRange(1, 200), default=None,
              help="Limit the opponent by depth as well.")  # fmt: skip
@click.option("--openings", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Openings, one a line (SAN or coordinates); default: "
              "ten classical ones.")  # fmt: skip
@click.option("--resign", "resign_cp", type=click.IntRange(1, 100_000), default=1000,
              show_default=True, help="Adjudicate a loss when the opponent's own score is "
              "beyond this many centipawns ...")  # fmt: skip
@click.option("--resign-moves", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="... for this many of its moves in a row.")  # fmt: skip
@click.option("--draw-at", type=click.IntRange(0, 10_000), default=150, show_default=True,
              help="Adjudicate a draw after this move (0: never).")  # fmt: skip
@click.option("--adjudicate", "judge", default=None, metavar="ENGINE",
              help="A strong UCI engine's command line (e.g. stockfish) to judge every game "
              "the rules of chess did not end: it scores the position where --draw-at or "
              "--resign stopped the game, and gives the game to the side it favours by more "
              "than --adjudicate-cp, else a draw; a --resign the judge does not agree with "
              "is played on.  It never chooses a move.")  # fmt: skip
@click.option("--adjudicate-ms", "judge_ms", type=click.IntRange(0, 3_600_000), default=1000,
              show_default=True, help="The judge's milliseconds a position (0: only "
              "--adjudicate-depth).")  # fmt: skip
@click.option("--adjudicate-depth", "judge_depth", type=click.IntRange(1, 200), default=None,
              help="The judge's depth a position (with --adjudicate-ms: whichever comes "
              "first).")  # fmt: skip
@click.option("--adjudicate-cp", "judge_cp", type=click.IntRange(0, 100_000), default=150,
              show_default=True, help="The judge's score, in centipawns, beyond which a "
              "side wins.")  # fmt: skip
@click.option("-j", "--concurrency", type=click.IntRange(1, 256), default=os.cpu_count() or 1,
              show_default="the cores", help="Games at a time, one process each.")  # fmt: skip
@click.option("--pgn", "pgn_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where the games go (default: match-DATE-TIME.pgn).")  # fmt: skip
def match(
    opponent: str, options: tuple[str, ...], games: int, movetime: int | None, depth: int | None,
    settings: tuple[str, ...], emulated_speed: bool, opponent_depth: int | None,
    openings: Path | None, resign_cp: int, resign_moves: int, draw_at: int, judge: str | None,
    judge_ms: int, judge_depth: int | None, judge_cp: int, concurrency: int,
    pgn_file: Path | None,
) -> None:  # fmt: skip
    """Play Mac Hack VI against a UCI engine and score the match.

    The games alternate colours over a set of openings, run in parallel (one emulated
    PDP-6 a process), are adjudicated (a loss when the opponent's own score stays
    beyond --resign; a draw after --draw-at), go to a PGN file as they finish, and
    end with the score and the Elo difference with its 95% interval.

    With --adjudicate a strong engine judges those games instead: the position the
    rules stopped a game in goes to the side it favours by more than --adjudicate-cp
    (150: a pawn and a half), else it is a draw; the PGN's Termination and Adjudicator
    tags and the last move's comment say how each was judged.

    The surviving original Mac Hack plays as any engine does, given its image
    (--opponent original:FILE; docs/period-software.md says where to fetch it): it
    searches at its own settings (SETD 4, SETW 6, SETF 2 unless --option says
    otherwise), its value is its own score for adjudication, and a game in which Mac
    Hack underpromotes (the original only ever queens) is left unfinished.

    \b
    Examples (Debian: apt install stockfish):
      machack match --opponent stockfish --option UCI_LimitStrength=true \\
          --option UCI_Elo=1350 --movetime 1000
      machack match --opponent original:chess-d.bin --set "RULES D" -n 20 \\
          --adjudicate stockfish
    """
    import chess.engine

    from . import match as matchmod
    from .opponent import image_path
    from .original import OriginalError, load_original

    original = image_path(opponent)
    if original == "":
        raise click.UsageError("--opponent original:FILE names the image's file")
    if original is not None:
        try:
            load_original(original)  # (a file that is not the image: refused before all else)
        except OriginalError as exc:
            raise click.ClickException(f"the original cannot be the opponent: {exc}") from None
    elif movetime is None:
        movetime = 1000
    if judge is not None and judge_ms == 0 and judge_depth is None:
        raise click.UsageError("--adjudicate-ms 0 needs --adjudicate-depth")

    parsed: dict[str, str] = {}
    for text in options:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(f"--option takes NAME=VALUE, not {text!r}")
        parsed[name.strip()] = value.strip()
    try:
        config = matchmod.MatchConfig(
            opponent=[] if original is not None else matchmod.resolve_command(opponent),
            options=parsed,
            games=games,
            movetime_ms=movetime,
            depth=depth,
            settings=list(settings),
            emulated=emulated_speed,
            opponent_depth=opponent_depth,
            openings=matchmod.read_openings(openings),
            resign_cp=resign_cp,
            resign_moves=resign_moves,
            draw_at=draw_at,
            original=original,
            judge=[] if judge is None else matchmod.resolve_command(judge, "--adjudicate"),
            judge_ms=judge_ms,
            judge_depth=judge_depth,
            judge_cp=judge_cp,
        )
    except (ValueError, OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(str(exc)) from exc
    _compiled_engine()  # (built once here, before the workers start)
    try:
        matchmod.new_player(config)  # the settings, checked once here
        name = matchmod.check_opponent(config)
    except (ValueError, SessionError, OriginalError) as exc:
        raise click.ClickException(str(exc)) from exc
    except (OSError, chess.engine.EngineError) as exc:
        raise click.ClickException(f"cannot start the opponent {opponent!r}: {exc}") from exc
    judge_name = ""
    if judge is not None:
        try:
            judge_name = matchmod.check_judge(config)
        except (OSError, chess.engine.EngineError, TimeoutError) as exc:
            raise click.ClickException(
                f"cannot start the adjudicating engine {judge!r}: {' '.join(str(exc).split())}"
            ) from None
    path = pgn_file or Path(time.strftime("match-%Y%m%d-%H%M%S.pgn"))
    _writable(path)
    click.echo(f"{games} games against {name}, {min(concurrency, games)} at a time; PGN: {path}",
               err=True)  # fmt: skip
    if judge_name:
        click.echo(f"unfinished games adjudicated by {judge_name}: "
                   f"{matchmod.judge_limit_text(config)}", err=True)  # fmt: skip
    progress = matchmod.Progress(games, lambda t: click.echo(t, err=True, nl=False),
                                 sys.stderr.isatty())  # fmt: skip
    try:
        matchmod.run_match(config, min(concurrency, games), path, progress)
    except KeyboardInterrupt:
        click.echo("\n[interrupted: the score of the games played]", err=True)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc}") from exc
    for line in matchmod.summary(progress.done):
        click.echo(line)
    if not any(r.machack_points is not None for r in progress.done):
        sys.exit(1)


@main.command()
@click.option("--original", "original_file", required=True, metavar="FILE",
              help="The surviving Mac Hack image '@ CHESS' (docs/period-software.md says "
              "where to fetch it); its one damaged word is repaired as it loads.")  # fmt: skip
@click.option("--1967", "games_1967", is_flag=True,
              help="Mac Hack's positions in the four 1967 games (shipped with the program; "
              "the moves the score marks BOOK left out).")  # fmt: skip
@click.option("--pgn", "pgn_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Every position of every game in a PGN file (games from the initial "
              "position).")  # fmt: skip
@click.option("--fen", "lines_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Positions one a line as the moves that reach them: 'startpos moves e2e4 "
              "e7e5' (the original cannot set up a FEN).")  # fmt: skip
@click.option("--set", "settings", multiple=True, metavar="COMMAND",
              help="A setting, repeatable: SETD, SETW, SETF, SETC go to both programs, any "
              "other (RULES D, BOOK OFF) to ours alone.  First come SETD 4, SETW 6, "
              "SETF 2.")  # fmt: skip
@click.option("--trace", is_flag=True,
              help="Under each position both programs' root moves, side by side, in the "
              "order each searched them, with their values.")  # fmt: skip
@click.option("--every", type=click.IntRange(1), default=1, show_default=True,
              help="Compare only every n-th position.")  # fmt: skip
def compare(
    original_file: str, games_1967: bool, pgn_file: Path | None, lines_file: Path | None,
    settings: tuple[str, ...], trace: bool, every: int,
) -> None:  # fmt: skip
    """Our program and the surviving original choose in the same positions.

    Each position is reached by typing its game from the start into both programs (the
    original cannot set up a position; it is booted afresh for every position, as it
    keeps state from one search to the next that changes its later answers: see
    docs/machack.md); both search it at the same settings, and the
    table gives the position, the game's move, both programs' moves, whether they
    agree and the PDP-6 seconds each took (both run on this emulator, so the times
    compare).  The summary: how often they agree, how often they searched the same
    root moves, the median times, and how often each chose the game's move.  Progress
    goes to standard error.  The original only ever promotes to a queen: a game is
    compared up to its first underpromotion.

    \b
    Examples:
      machack compare --original chess-d.bin --1967 --set "RULES D"
      machack compare --original chess-d.bin --pgn games.pgn --every 4 --trace
      machack compare --original chess-d.bin --fen lines.txt --set "SETD 3"

    \b
    Exit status: 0 if every position was compared, 1 if a program failed somewhere.
    """
    from . import compare as comparemod
    from .original import OriginalError

    sources = [games_1967, pgn_file is not None, lines_file is not None]
    if sum(sources) != 1:
        raise click.UsageError("give one of --1967, --pgn FILE and --fen FILE")
    try:
        both, ours_only = comparemod.route_settings(settings)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        if pgn_file is not None:
            items = comparemod.spots_pgn(pgn_file)
        elif lines_file is not None:
            items = comparemod.spots_lines(lines_file)
        else:
            items = comparemod.spots_1967()
    except (ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    items = comparemod.every_nth(items, every)
    try:
        image = comparemod.open_original(original_file)
    except OriginalError as exc:
        raise click.ClickException(str(exc)) from None
    engine = _compiled_engine()
    chosen = [*comparemod.DEFAULT_SETTINGS, *both]

    def boot() -> comparemod.Comparison:
        try:
            session = Session(engine=engine)
        except (SessionError, BuildError) as exc:
            raise click.ClickException(f"our program did not start: {exc}") from exc
        ours = comparemod.Ours([*chosen, *ours_only], session)
        return comparemod.Comparison(lambda: comparemod.boot_original(image, engine),
                                     ours, chosen)  # fmt: skip

    try:
        first: comparemod.Comparison | None = boot()
        assert first is not None
        first.original()  # the settings, checked once here
        first.ours.new_game()
    except (comparemod.CompareError, OriginalError, SessionError) as exc:
        raise click.ClickException(str(exc)) from None

    def next_comparison() -> comparemod.Comparison:
        nonlocal first
        made, first = first or boot(), None
        return made

    progress = comparemod.Progress(lambda t: click.echo(t, err=True, nl=False),
                                   sys.stderr.isatty())  # fmt: skip

    def show(line: str) -> None:
        progress.wipe()
        click.echo(line)

    own = f"; ours also {', '.join(ours_only)}" if ours_only else ""
    click.echo(f"settings: {', '.join(chosen)} in both{own}")
    done = comparemod.Run()
    try:
        comparemod.run(items, next_comparison, show, trace, progress, done)
    except KeyboardInterrupt:
        progress.wipe()
        click.echo("[interrupted: the summary of the positions compared]", err=True)
    progress.wipe()
    summary = comparemod.summarize(done.rows)
    click.echo("")
    click.echo(summary.line())
    if summary.played_line():
        click.echo(summary.played_line())
    if done.problems or done.skipped:
        click.echo(f"{len(done.problems)} problem(s); {done.skipped} position(s) not compared")
    sys.exit(1 if done.problems or not done.rows else 0)


def _compiled_engine() -> str:
    """The engine for a long job: the compiled one, waited for if its first build is
    still running (the python engine if it cannot be built)."""
    auto = AutoEngine(say=_Say())
    if auto.pending:
        click.echo("waiting for the compiled engine's first build (1-3 minutes) ...", err=True)
        try:
            auto.wait()
        except RuntimeError as exc:
            click.echo(f"[{exc}: on the python engine]", err=True)
    return auto.engine


@main.command()
@click.argument("fen")
@click.argument("depth", type=click.IntRange(0, 20))
def perft(fen: str, depth: int) -> None:
    """Count the leaf nodes of the legal move tree (FEN may be 'startpos')."""
    start = _fen_arg(fen)  # (before the machine is started)
    session = _session()
    _setup(session, start)
    t0 = time.perf_counter()
    reply = session.send(f"PERFT {depth}", **LONG)
    wall = time.perf_counter() - t0
    line = reply.first("PERFT ")
    if not reply.accepted or line is None:
        raise click.ClickException(f"PERFT refused: {reply.text}")
    click.echo(line.split("=")[1].strip())
    sys.stdout.flush()
    click.echo(f"{wall:.2f} s wall, {reply.emulated_us / 1e6:.1f} s PDP-6", err=True)


@main.command()
@click.argument("fen")
@click.option("--depth", type=click.IntRange(1, 20), default=4, show_default=True)
def move(fen: str, depth: int) -> None:
    """The machine's move in a position: descriptive notation, then coordinates."""
    import chess

    start = _fen_arg(fen)  # (before the machine is started)
    session = _session()
    _setup(session, start)
    session.command(f"DEPTH {depth}")
    before = chess.Board(session.fen())
    reply = session.send("GO", **LONG)
    played = [x for x in reply.after_ack if is_move_line(x)]
    if not played:
        click.echo(" ".join(reply.after_ack) or "no move")
        sys.exit(1)
    text = move_text(played[0])
    after = session.fen()
    coordinates = "?"
    for candidate in before.legal_moves:  # name the program's move for scripts
        before.push(candidate)
        if before.fen() == after:
            coordinates = candidate.uci()
        before.pop()
    click.echo(f"{text} {coordinates}")


@main.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--1967", "games_1967", is_flag=True,
              help="Replay the four 1967 tournament games as the paper prints them (shipped "
              "with the program).")  # fmt: skip
@click.option("--think", is_flag=True,
              help="Where Mac Hack was to move, let the program choose, and print a table: "
              "the recorded move, the program's, whether they agree, the PDP-6 time.")  # fmt: skip
@click.option(
    "--tournament",
    is_flag=True,
    help="With --think: the 1967 tournament widths (SETW 15 15 9 9 7).",
)
@click.option("--set", "settings", multiple=True, metavar="COMMAND",
              help="With --think: a setting typed to the program first, e.g. --set 'SETD 5' "
              "(repeatable).")  # fmt: skip
@click.option("--book", is_flag=True,
              help="With --think: the program's opening book on; its moves are marked BOOK, "
              "and the positions the score marks BOOK are asked too.")  # fmt: skip
@click.option("--every", type=click.IntRange(1), default=1, show_default=True,
              help="With --think: ask only every n-th of Mac Hack's positions.")  # fmt: skip
@click.option("--choices", is_flag=True,
              help="With --think: print only the choices (move, recorded, ours, agree), no "
              "times, to compare two versions of the program with diff; the tests hold this "
              "output at the defaults in tests/machack/data/think_1967.txt.")  # fmt: skip
@click.option("-v", "--verbose", is_flag=True, help="Print every move and the FEN after it.")
def replay(
    files: tuple[Path, ...], games_1967: bool, think: bool, tournament: bool,
    settings: tuple[str, ...], book: bool, every: int, choices: bool, verbose: bool,
) -> None:  # fmt: skip
    """Type recorded games into the program and check every position.

    Reads PGN files (moves typed in coordinates) and the descriptive format of the 1967
    games (the notation typed exactly as printed, checked against the PGN of the same
    name beside it).  Exit status 0 only if every game replays cleanly.

    With --think, at every move of Mac Hack's side (the game's history typed in first)
    the program searches and its choice is compared with the recorded move; the table
    ends with the agreement and the emulated time per move.  The book is off unless
    --book is given.

    \b
    Examples:
      machack replay --1967
      machack replay mygames.pgn
      machack replay --think --1967
      machack replay --think --tournament --1967
      machack replay --think --book --set 'HASH ON' --1967
      machack replay --think --choices --1967 | diff tests/machack/data/think_1967.txt -
    """
    from .replay import GAMES_1967, replay_files

    paths = list(files) + ([GAMES_1967 / "descriptive.txt"] if games_1967 else [])
    if not paths:
        raise click.UsageError("name a PGN or descriptive file, or give --1967")
    if think:
        from . import think as thinkmod

        chosen = (*(thinkmod.TOURNAMENT if tournament else ()), *settings)
        games = thinkmod.think_files(paths, chosen, log=click.echo if verbose else None,
                                     boot=_session, book=book, every=every)  # fmt: skip
        click.echo(thinkmod.format_choices(games) if choices else thinkmod.format_table(games))
        sys.exit(1 if any(g.problem for g in games) else 0)
    if tournament or settings or book or every != 1 or choices:
        raise click.UsageError("--tournament, --set, --book, --every and --choices go with --think")
    results = replay_files(paths, log=click.echo if verbose else None, boot=_session)
    for result in results:
        click.echo(result.summary())
    bad = [r for r in results if not r.ok]
    click.echo(f"{len(results) - len(bad)} of {len(results)} games replayed cleanly")
    sys.exit(1 if bad or not results else 0)


@main.group()
def book() -> None:
    """The opening book: the authored text (machack/book/openings.txt) and the MIDAS
    table made from it (machack/src/book.mid), which the program searches in core."""


@book.command("build")
def book_build() -> None:
    """Check every line of the text and rewrite src/book.mid from it (the keys are
    learnt by playing the lines into the program)."""
    from . import bookgen

    sys.exit(bookgen.main())


@book.command("check")
def book_check() -> None:
    """Say whether src/book.mid is the table the text makes (exit status 1 if not)."""
    from . import bookgen

    sys.exit(bookgen.main(check=True))


@main.command()
@click.option("--positions", type=click.IntRange(0, 5), default=3, show_default=True,
              help="How many positions to time at depth 4.")  # fmt: skip
@click.option("--first-start/--no-first-start", default=True, show_default=True,
              help="Time machack play's first prompt with empty caches and warm ones "
              "(the empty-cache run waits for the compiled engine's build).")  # fmt: skip
@click.option("--display-cost/--no-display-cost", default=True, show_default=True,
              help="Time a search with the Type 340 refreshed in each display mode "
              "against the bare search, five rounds side by side (some 10 s of wall "
              "time a mode).")  # fmt: skip
@click.option("--search/--no-search", default=True, show_default=True,
              help="The Greenblatt search's figures: the plausible move generator's PDP-6 "
              "time a call, and replay --think of the 1967 games at the defaults and of game "
              "4 at tournament widths (agreement, PDP-6 and wall time a move; a few "
              "minutes).")  # fmt: skip
@click.option("--agreement-every", type=click.IntRange(0), default=1, show_default=True,
              help="The agreement table with the 1967 moves, book and hash table on, on "
              "every n-th of Mac Hack's positions; 0 leaves it out (the whole table takes "
              "a minute or two).")  # fmt: skip
@click.option("--idle/--no-idle", default=True, show_default=True,
              help="The host CPU machack play uses waiting at its prompt on a terminal, "
              "on each engine (5 s each).")  # fmt: skip
@click.option("--web/--no-web", default=True, show_default=True,
              help="machack web's figures: a page's first picture in headless Chromium, "
              "and the emulation's speed with the page drawing the 340, five rounds (a "
              "minute or two).")  # fmt: skip
def bench(
    positions: int,
    first_start: bool,
    display_cost: bool,
    search: bool,
    agreement_every: int,
    idle: bool,
    web: bool,
) -> None:
    """Perft speed, emulated move-generation time, time per move at depth 4, the
    Greenblatt search's figures (the plausible move generator's time a call, agreement
    with the 1967 games and the time a move), the hash table, the agreement with the 1967
    moves with the book and the hash table on, the share of a search's emulated time the
    Type 340's refresh takes, and the time to the first prompt on a fresh machine and a
    warm one, the CPU it uses waiting at its prompt, and machack web's first picture and
    cost."""
    from . import bench as benchmod

    auto = AutoEngine(say=_Say())
    if auto.pending:
        click.echo("waiting for the compiled engine's first build (1-3 minutes) ...", err=True)
        auto.wait()
    benchmod.run(click.echo, positions, first_start, agreement_every, display_cost, search, idle,
                 web)  # fmt: skip


@main.command("bench-engines")
@click.option("--engine",
              type=click.Choice(["all", "compiled", "native", "python", "interpreter"]),
              default="all", show_default=True,
              help="Which of the emulator's execute loops to time (see pdp6 bench).")  # fmt: skip
@click.option("--why", is_flag=True,
              help="Say why the python engine left instructions to the interpreter.")  # fmt: skip
@click.option("--alternate", type=click.IntRange(1, 100), default=None, metavar="N",
              help="Instead: the same search N times on the compiled and native engines in "
                   "turn, after warming each (native: until a search brings no new "
                   "block), and the median ratio.")  # fmt: skip
@click.option("--warm", type=click.IntRange(1, 1000), default=40, show_default=True,
              help="With --alternate: most warm-up searches on the native engine.")  # fmt: skip
def bench_engines(engine: str, why: bool, alternate: int | None, warm: int) -> None:
    """Time Mac Hack VI's search (depth 3) on each engine: four moves on one machine (the
    first, then the next three), and the first move of a fresh machine, which finds the
    blocks the first one translated.  pdp6 bench times a mix of tight loops; this, a real
    program.

    --alternate N compares the native engine with the compiled one once its blocks are
    made: the same search from the same position on each in turn, N rounds.
    """
    from pdp6 import jit
    from pdp6.cpu import engines

    from . import bench_engines as benchmod

    wanted = engines.ALL_ENGINES if engine == "all" else (engine,)
    if alternate is not None:
        wanted = benchmod.COMPARED
        if "native" not in engines.ENGINES:
            raise click.UsageError("--alternate needs the native engine (numba and llvmlite)")
    if "compiled" in wanted and not jit.ENABLED:
        raise click.UsageError(
            "the compiled engine needs numba (pip install numba) and PDP6_NOJIT unset"
        )
    note = lambda line: click.echo(line, err=True)  # noqa: E731
    if alternate is not None:
        benchmod.report_alternate(alternate, warm, click.echo, note)
        return
    benchmod.report(wanted, why, click.echo, note)


if __name__ == "__main__":  # pragma: no cover
    main()
