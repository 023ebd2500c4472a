"""What real MIDAS of 1965-1971 accepted and the later one dropped: OCT/EXP, WORD,
RIM10, RELOCATABLE, a stray TERMIN, the KA10 opcode names (settled from MIDAS 73's
source and from binaries it produced)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from midas import assemble
from midas.cli import main as midas_main
from midas.rim import rim10_loader, rim10_words, rim_words
from midas.sblk import PTR, instruction, sblk_words
from pdp6 import Machine
from pdp6.devices import PaperTapeReader
from pdp6.formats.loader import (
    JRST_1,
    LoaderError,
    block_checksum,
    load_file,
    read_rim,
    read_sblk,
    read_words,
)
from pdp6.formats.readin import words_to_frames
from pdp6.host.cli import main as pdp6_main

from .helpers import asm, words, xwd


def test_oct_and_exp_do_nothing() -> None:
    # MIDAS 73 sends both to one routine that returns no value: the word after them is
    # the value, read in the current radix (the 1965 program: ALPHA: OCT 1750).
    program = asm("ALPHA: OCT 1750\nEXP 12\nRADIX 10.\nOCT 10\n")
    assert program.symbols["ALPHA"] == 0o100
    assert words("ALPHA: OCT 1750\nEXP 12\nRADIX 10.\nOCT 10\n") == [0o1750, 0o12, 10]


def test_word_goes_into_the_file_not_into_memory() -> None:
    program = asm("LOC 200\n1\n2\nWORD 777\n3\nEND\n")
    assert program.words == {0o200: 1, 0o201: 2, 0o202: 3}  # WORD took no location
    out = sblk_words(program, PTR)
    body = out[out.index(JRST_1) + 1 :]
    # block 200-201, the raw word, then a new block for 202
    first = [xwd(0o777776, 0o200), 1, 2]
    assert body[:4] == [*first, block_checksum(first)]
    assert body[4] == 0o777
    second = [xwd(0o777777, 0o202), 3]
    assert body[5:8] == [*second, block_checksum(second)]
    # On a RIM tape the word stands between the pairs (the RIM loader executes it).
    tape = rim_words(program, PTR)
    assert tape[4] == 0o777 and tape[5] == instruction("DATAI", PTR, 0o202)


def test_rim10_layout() -> None:
    program = asm("RIM10\nLOC 1000\nGO: MOVEI 1,5\nHALT .\nEND GO\n")
    assert program.output_format == "rim10"
    tape = rim10_words(program, PTR)
    assert tape[0] == xwd(0o777761, 0)  # -17,,0: the read-in block, 15 words for 1-17
    assert tape[1:16] == rim10_loader(PTR)
    assert tape[1] == instruction("CONO", PTR, 0o60)
    data = [xwd(0o777776, 0o1000), xwd(0o201040, 5), xwd(0o254200, 0o1001)]
    assert tape[16:20] == [*data, block_checksum(data)]
    assert tape[20:] == [xwd(0o254000, 0o1000)]  # the start instruction, no symbols


def test_rim10_tape_loads_and_starts_on_the_pdp6() -> None:
    # The PDP-10's read-in puts the first block in 1-17, with the reader running, and
    # executes 17.  The PDP-6 has no read-in hardware: deposit the block and start it at
    # 1, which starts the reader; LDR10 reads the rest of the tape.
    source = (
        "RIM10\nLOC 1000\nGO: MOVE 1,DATA\nADD 1,DATA+1\nMOVEM 1,DATA+2\nHALT .\n"
        "LOC 2000\nDATA: 30\n12\n0\nEND GO\n"
    )
    tape = rim10_words(asm(source), PTR)
    machine = Machine(engine="python")
    reader = machine.attach(PaperTapeReader(fast=True))
    reader.attach(words_to_frames(tape[16:]))
    for i, word in enumerate(tape[1:16], start=1):
        machine.memory[i] = word
    machine.pc = 1  # LDRGO: start the reader, as the read-in hardware had
    stop = machine.run(max_instructions=200_000)
    assert (stop.reason, machine.pc) == ("halt", 0o1003)
    assert machine.memory[0o2002] == 0o42  # 30 + 12, so the program ran


def test_rim10_checksum_error_halts_in_the_loader() -> None:
    tape = rim10_words(asm("RIM10\nLOC 1000\n5\nEND 1000\n"), PTR)
    tape[18] ^= 1  # the block's checksum
    machine = Machine(engine="python")
    machine.attach(PaperTapeReader(fast=True)).attach(words_to_frames(tape[16:]))
    for i, word in enumerate(tape[1:16], start=1):
        machine.memory[i] = word
    machine.pc = 1  # LDRGO: start the reader, as the read-in hardware had
    stop = machine.run(max_instructions=200_000)
    assert (stop.reason, machine.pc) == ("halt", 1)  # JRST 4,LDRGO


_TYPES_OK = """TITLE OK
RIM10
A=1
LOC 1000
GO:\tMOVEI A,"O
\tJSR TYO
\tMOVEI A,"K
\tJSR TYO
\tHALT .
TYO:\t0
\tDATAO TTY,A
\tCONSO TTY,10
\tJRST .-1
\tJRST @TYO
END GO
"""


def test_pdp6_run_loads_a_rim10_file_midas_wrote(tmp_path: Path) -> None:
    # Told from SBLK and RIM by its first word, -17,,0; the blocks are loaded and
    # started as an SBLK file's are (the loader in the read-in block is not run).
    source = tmp_path / "ok.mid"
    source.write_text(_TYPES_OK)
    assert CliRunner().invoke(midas_main, [str(source), "--no-map"]).exit_code == 0
    binary = tmp_path / "ok.rim10"  # the source chose RIM10
    image = load_file(binary)
    program = asm(_TYPES_OK)
    assert (image.format, image.words, image.start) == ("rim10", program.words, program.start)
    result = CliRunner().invoke(pdp6_main, ["run", str(binary), "--engine", "python"])
    assert (result.exit_code, result.output) == (0, "OK")


def test_a_rim10_file_with_a_bad_checksum_is_refused() -> None:
    tape = rim10_words(asm("RIM10\nLOC 1000\n5\nEND 1000\n"), PTR)
    assert read_words(tape).words == {0o1000: 5}
    tape[18] ^= 1  # the block's checksum
    with pytest.raises(LoaderError, match="data block 1 .* checksum"):
        read_words(tape)
    assert read_words(tape, ignore_checksum=True).words == {0o1000: 5}
    tape[18] ^= 1
    with pytest.raises(LoaderError, match="RIM10 file ends before the start instruction"):
        read_words(tape[:-1])


def test_relocatable_is_accepted_and_recorded() -> None:
    program = assemble("RELOCATABLE\nGO: JRST GO\nEND GO\n")
    assert not program.errors and program.relocatable
    assert program.symbols["GO"] == 0  # relocatable 0, assembled absolute there
    assert program.words == {0: xwd(0o254000, 0)}
    (warning,) = program.warnings
    assert "RELOCATABLE" in warning.message and "absolute" in warning.message
    assert read_sblk(sblk_words(program)).words == {0: xwd(0o254000, 0)}


def test_stray_termin_is_a_warning() -> None:
    program = assemble("1\nTERMIN\n2\nEND\n")
    assert not program.errors
    assert program.words == {0o100: 1, 0o101: 2}
    (warning,) = program.warnings
    assert str(warning) == "<source>:2:1: warning: TERMIN without a DEFINE or IRP (ignored)"


def test_rim_tape_still_reads_back() -> None:
    program = asm("RIM\nLOC 300\n7\nEND 300\n")
    assert read_rim(rim_words(program)).words == {0o300: 7}


def test_ka10_opcode_names_are_predefined_and_are_no_ops_on_the_pdp6() -> None:
    # MIDAS 73's initial table has UFA, DFN and JFFO (marked "PDP10 INSTRUCTION").
    assert words("UFA 1,2\nDFN 1,2\nJFFO 3,100") == [
        xwd(0o130040, 2),
        xwd(0o131040, 2),
        xwd(0o243140, 0o100),
    ]
    program = asm("GO: MOVEI 1,7\nUFA 1,X\nDFN 1,X\nJFFO 1,.+2\nHALT .\nHALT .\nX: 3\nEND GO\n")
    machine = Machine(engine="python")
    for addr, word in program.words.items():
        machine.memory[addr] = word
    machine.pc = 0o100
    assert machine.run(max_instructions=100).reason == "halt"
    assert machine.pc == 0o104 and machine.memory[1] == 7  # JFFO did not jump
    assert machine.memory[2] == 0  # nor did UFA or DFN write AC+1


# MIDAS 73 sized a constants area on pass 1 sharing a literal with an earlier one that
# reads alike, when the earlier one's symbols were undefined then and are defined now,
# and comparing old-style literals (closed by the line end) without their comments.
# ITS 138 is built this way: its one constants area is 105 words with no zeros left on
# pass 2 (the real binary); comparing values alone made it 110.
MIDAS73_CONSTANTS = """\tCAME 1,[JRST 2,@UUOH
\tCAME 2,[JRST 2,@UUOH\t;UUOH is not defined yet
UUOH:\t0
\tCAME 3,[JRST 2,@UUOH
\tLDB 1,[IOLO,,TAB(2)
\tLDB 2,[IOLO,,TAB(2)\t;a comment after it
IOLO==1000
TAB:\t0
CONSTANTS
AFTER:\t0
\tEND
"""


def test_a_constants_area_is_sized_as_midas_73_sized_it() -> None:
    program = assemble(MIDAS73_CONSTANTS, old=True)
    assert not program.errors
    assert program.words == {
        0o100: xwd(0o312040, 0o107), 0o101: xwd(0o312100, 0o107), 0o102: 0,
        0o103: xwd(0o312140, 0o107), 0o104: xwd(0o135040, 0o110),
        0o105: xwd(0o135100, 0o110), 0o106: 0,
        0o107: xwd(0o254120, 0o102),  # JRST 2,@UUOH: one word for all three
        0o110: xwd(0o001002, 0o106),  # IOLO,,TAB(2): one for both
        0o111: 0,  # AFTER, at once: no zeros left in the area
    }  # fmt: skip
    assert program.symbols["AFTER"] == 0o111
