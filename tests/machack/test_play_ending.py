"""How `machack play` ends when it must: a program in core that stops working, or SIGTERM.
Either way one message, a non-zero status, and the game kept as PGN (issue 32: a runaway
left the host spinning at 100% until SIGKILL; SIGTERM was ignored; the game was lost).

The stand-in for a runaway is Mac Hack itself with one word changed after it booted:
the first word of HELP's code becomes a jump to location 0 (into the accumulators) or a
zero word (a UUO, which the program's trap UUOERR stops at)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import machack.cli as cli

JRST_0 = 0o254000000000


@pytest.mark.parametrize(
    ("word", "where"),
    [
        (JRST_0, "its PC went to 000000, into the accumulators"),
        (0, "it executed 000000000000 at {at:06o} (CHELP), a word that is no instruction"),
    ],
)
def test_a_runaway_ends_play_with_one_message_and_the_game_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, word: int, where: str
) -> None:
    booted = cli._session
    at: list[int] = []

    def with_a_bad_help(*args: object, **kwargs: object) -> cli.Session:
        session = booted(*args, **kwargs)  # type: ignore[arg-type]
        at.append(session.image.symbol("CHELP"))
        session.machine.memory[at[0]] = word
        return session

    monkeypatch.setattr(cli, "_session", with_a_bad_help)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli.main, ["play", "--depth", "1"], input="P-K4\nHELP\nP-Q4\n")
    assert result.exit_code == 1
    errors = [x for x in result.output.splitlines() if x.startswith("Error:")]
    assert len(errors) == 1
    assert errors[0].startswith(f"Error: the program in core ran away: {where.format(at=at[0])}")
    assert "P-Q4" not in result.output.split("HELP")[1]  # nothing typed after it was sent
    (kept,) = tmp_path.glob("machack-*.pgn")
    assert f"[the game is in {kept.name}]" in result.output
    assert "1. e4 e5 { book } *" in kept.read_text()


def test_a_runaway_keeps_the_game_in_the_pgn_file_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    booted = cli._session

    def with_a_bad_help(*args: object, **kwargs: object) -> cli.Session:
        session = booted(*args, **kwargs)  # type: ignore[arg-type]
        session.machine.memory[session.image.symbol("CHELP")] = JRST_0
        return session

    monkeypatch.setattr(cli, "_session", with_a_bad_help)
    pgn = tmp_path / "game.pgn"
    result = CliRunner().invoke(
        cli.main, ["play", "--depth", "1", "--pgn", str(pgn)], input="P-K4\nN-KB3\nHELP\n"
    )
    assert result.exit_code == 1
    assert "ran away" in result.output
    assert "1. e4 e5 { book } 2. Nf3 Nc6 { book } *" in pgn.read_text()


def _play(tmp_path: Path, *options: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "machack", "play", *options],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path)  # fmt: skip


def _wait_for(stream: object, text: bytes, seconds: float = 120.0) -> bytes:
    """Read ``stream`` (a pipe) until ``text`` has come."""
    import select

    seen = b""
    end = time.monotonic() + seconds
    fd = stream.fileno()  # type: ignore[attr-defined]
    while text not in seen and time.monotonic() < end:
        if not select.select([fd], [], [], 0.5)[0]:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        seen += chunk
    assert text in seen, seen
    return seen


@pytest.mark.parametrize("when", ["thinking", "at the prompt"])
def test_sigterm_ends_play_at_once_keeping_the_game(tmp_path: Path, when: str) -> None:
    """SIGTERM, while the machine thinks (a depth-12 search) or while play waits for the
    next line: the command ends within a second or so with status 143, one line on
    stderr, and the game so far in a PGN file."""
    play = _play(tmp_path, "--depth", "3")
    assert play.stdin is not None and play.stdout is not None
    play.stdin.write(b"P-K4\nBOOK OFF\nN-KB3\n")
    play.stdin.flush()
    _wait_for(play.stdout, b"2. ... ")
    if when == "thinking":  # (piped, the echo of GO comes with its reply: after it)
        play.stdin.write(b"DEPTH 12\nGO\n")
        play.stdin.flush()
        _wait_for(play.stdout, b"DEPTH 12\n_\n*")
        time.sleep(1.0)
    play.send_signal(signal.SIGTERM)
    _, err = play.communicate(timeout=30)  # (measured: half a second)
    assert play.returncode == 143
    lines = err.decode().splitlines()
    assert lines[-1] == "machack: terminated by SIGTERM"
    (kept,) = tmp_path.glob("machack-*.pgn")
    assert f"[the game is in {kept.name}]" in lines
    assert "1. e4 e5 { book } 2. Nf3 " in kept.read_text()
