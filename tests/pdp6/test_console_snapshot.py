"""Snapshots (``save``/``restore``): the whole machine comes back, and a corrupt,
foreign or mismatched file is refused with a clear message, leaving the machine as it
was."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pdp6 import Machine
from pdp6.cpu.engines import ENGINES
from pdp6.devices import ScriptedHost
from pdp6.formats.snapshot import MAGIC, SnapshotError, read_snapshot, restore, save
from pdp6.host.debugger import Debugger

from .console_helpers import (
    Programs,
    programs_fixture,  # noqa: F401  (the programs fixture)
    rewrite,
)


def started(path: Path, engine: str = "python", core_words: int = 1 << 18) -> Debugger:
    """The echo program part-way through its greeting, a key already in the teletype."""
    dbg = Debugger(Machine(core_words=core_words, engine=engine), ScriptedHost("Q", eof=False))
    dbg.load(path)
    dbg.resume(until_us=250_000)
    return dbg


def state(dbg: Debugger) -> tuple:
    m = dbg.m
    t = dbg.tty
    return (
        m.pc, m.flags, m.elapsed_ns, m.instructions, list(np.asarray(m._mem)),
        list(np.asarray(m._st)), t.coni(), t.output_done_at, t.characters_out,
        bytes(dbg.ptr.tape), dbg.ptr.position,
    )  # fmt: skip


@pytest.mark.parametrize("engine", ENGINES)
def test_restore_brings_the_whole_machine_back(
    programs: Programs,
    tmp_path: Path,
    engine: str,
) -> None:
    dbg = started(programs.echo, engine)
    dbg.ptr.attach(b"TAPE")
    snap = tmp_path / "m.snap"
    save(dbg.m, snap)
    before = state(dbg)
    printed = dbg.host.output  # type: ignore[attr-defined]
    dbg.resume(until_us=2_000_000)  # the rest of the greeting and the echo of Q
    rest = dbg.host.output[len(printed) :]  # type: ignore[attr-defined]
    assert printed + rest == "ECHO READY\nQ"
    dbg.ptr.attach(b"")
    assert state(dbg) != before
    restore(dbg.m, read_snapshot(snap))
    assert state(dbg) == before
    dbg.resume(until_us=2_000_000)  # and it runs on exactly as the first time
    assert dbg.host.output == printed + rest + rest  # type: ignore[attr-defined]


def test_snapshot_moves_between_engines(programs: Programs, tmp_path: Path) -> None:
    if len(ENGINES) < 2:
        pytest.skip("one engine only")
    a = started(programs.echo, "compiled")
    save(a.m, tmp_path / "m.snap")
    b = Debugger(Machine(engine="python"), ScriptedHost(), baud=110)
    restore(b.m, read_snapshot(tmp_path / "m.snap"))
    assert state(b)[:7] == state(a)[:7]


def refused(dbg: Debugger, path: Path, message: str) -> None:
    before = state(dbg)
    with pytest.raises(SnapshotError, match=message):
        restore(dbg.m, read_snapshot(path))
    assert state(dbg) == before  # left exactly as it was


def test_corrupt_foreign_and_newer_files_are_refused(
    programs: Programs,
    tmp_path: Path,
) -> None:
    dbg = started(programs.echo)
    good = tmp_path / "good.snap"
    save(dbg.m, good)
    dbg.resume(until_us=500_000)  # move on, so that a restore would show
    data = good.read_bytes()

    flipped = tmp_path / "flipped.snap"
    flipped.write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    refused(dbg, flipped, "flipped.snap is corrupt: its checksum does not match")

    truncated = tmp_path / "truncated.snap"
    truncated.write_bytes(data[: len(data) // 2])
    refused(dbg, truncated, "truncated.snap is corrupt")

    refused(dbg, programs.echo, "echo.bin is not a PDP-6 snapshot")

    newer = tmp_path / "newer.snap"
    newer.write_bytes(data.replace(MAGIC + b" 1\n", MAGIC + b" 2\n", 1))
    refused(dbg, newer, "newer.snap is a version 2 snapshot; this pdp6 reads version 1")

    garbled = tmp_path / "garbled.snap"
    garbled.write_bytes(data)
    rewrite(garbled, lambda doc: doc["devices"]["TTY"]["fields"].update(output_flag="yes"))
    refused(dbg, garbled, "garbled.snap is corrupt: TTY.output_flag should be true or false")

    wide = tmp_path / "wide.snap"
    wide.write_bytes(data)
    rewrite(wide, lambda doc: doc["devices"]["TTY"]["fields"].update(pia=8))
    refused(dbg, wide, "wide.snap is corrupt: TTY.pia holds 10: wider than 3 bits")

    short = tmp_path / "short.snap"
    short.write_bytes(data)
    rewrite(short, lambda doc: doc.update(state=doc["state"][:5]))
    refused(dbg, short, "short.snap is corrupt: bad processor state")


def test_mismatched_machines_are_refused(programs: Programs, tmp_path: Path) -> None:
    dbg = started(programs.echo)
    snap = tmp_path / "m.snap"
    save(dbg.m, snap)
    small = started(programs.echo, core_words=0o100000)
    refused(small, snap, "has 256K words of core; this machine has 32K")

    bare = Machine(engine="python")  # no teletype or tapes attached
    with pytest.raises(SnapshotError, match=r"has device PTP \(100\), which this machine does"):
        restore(bare, read_snapshot(snap))
    assert bare.memory[0o100] == 0


def test_save_to_an_impossible_place(programs: Programs) -> None:
    dbg = started(programs.echo)
    with pytest.raises(SnapshotError, match="cannot write snapshot /no/such/dir/m.snap"):
        save(dbg.m, "/no/such/dir/m.snap")
