"""Running the period's programs from the command line, end to end: binaries in the ITS
archives' encoding, and every option that running DEC's diagnostics and the surviving
Mac Hack image needs, on ``pdp6 run`` and ``pdp6 console`` (--core, --switches, --baud,
--start, --continue-halts, --ignore-checksum), with their bad values."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pdp6.formats.wordfile import decode_words, encode_archive
from pdp6.host.cli import main

from .console_helpers import (
    ROOT,
    Programs,
    assemble,
    pdp6_command,
    programs_fixture,  # noqa: F401  (the programs fixture)
    replies,
    subprocess_env,
)


def pdp6(*args: str, input: str = "") -> Result:
    """``pdp6 ARGS``; run and console on the python engine (no wait for a numba build)."""
    engine = ["--engine", "python"] if args[0] in ("run", "console") else []
    return CliRunner().invoke(main, [*args, *engine], input=input)


def midas(tmp_path: Path, name: str, source: str) -> Path:
    src = tmp_path / f"{name}.mid"
    src.write_text(source)
    return assemble(src, tmp_path / f"{name}.bin", "--no-map")


def in_archive_encoding(binary: Path, target: Path, damage: dict[int, int] | None = None) -> Path:
    """``binary`` (as midas wrote it) in the ITS archives' encoding, some words changed."""
    words = decode_words(binary.read_bytes())
    for index, bits in (damage or {}).items():
        words[index] ^= bits
    target.write_bytes(encode_archive(words))
    return target


# --- a MIDAS program in the archive encoding ----------------------------------------------------
@pytest.fixture
def echo_its(programs: Programs, tmp_path: Path) -> Path:
    return in_archive_encoding(programs.echo, tmp_path / "ECHO.BIN")


def test_a_midas_program_in_the_archive_encoding_boots_with_pdp6_run(echo_its: Path) -> None:
    assert echo_its.read_bytes()[0] < 0o360 and len(echo_its.read_bytes()) % 9  # not bin
    for boot in ([], ["--boot"]):  # loaded directly, and read in through the RIM loader
        result = pdp6("run", str(echo_its), "--baud", "fast", *boot, input="P-K4\n")
        assert (result.exit_code, result.stdout) == (0, "ECHO READY\nP-K4\n"), result.output


def test_a_real_subprocess_runs_it_too(echo_its: Path) -> None:
    done = subprocess.run(
        [*pdp6_command(), "run", str(echo_its), "--baud", "fast"], input=b"HI\n",
        capture_output=True, env=subprocess_env(), timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, b"ECHO READY\nHI\n", b"")


def test_console_and_disasm_read_it(echo_its: Path) -> None:
    result = pdp6("console", str(echo_its))
    assert result.stdout.startswith(
        f"loaded {echo_its}: 28 words (sblk, ITS archive encoding), start GO (000100)\n"
    )
    listing = pdp6("disasm", str(echo_its)).output  # the symbols are in the SBLK file
    assert "000100  GO:      200740,,000152  MOVE 17,PDL+20" in listing


def test_a_file_name_with_a_space_loads(echo_its: Path) -> None:
    """As the archives name their binaries ("@ CHESS"): the console loads the name as it
    is given, and its load command takes it quoted."""
    named = echo_its.with_name("@ ECHO")
    shutil.copy(echo_its, named)
    result = pdp6("console", str(named), input=f'load "{named}"\n')
    assert result.exit_code == 0, result.output
    assert result.stdout.count(f"loaded {named}: 28 words") == 2, result.output


# --- checksums --------------------------------------------------------------------------------
GREET = """GO:\tMOVE 1,CHAR
\tDATAO TTY,1
\tCONSO TTY,10
\tJRST .-1
\tHALT .
CHAR:\t"A
\tEND GO
"""


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """GREET in the archive encoding, with bit 2 of CHAR flipped ("A" becomes "E")."""
    binary = midas(tmp_path, "greet", GREET)
    index = decode_words(binary.read_bytes()).index(ord("A"))
    return in_archive_encoding(binary, tmp_path / "GREET.BIN", {index: 0o4})


def test_a_bad_checksum_is_refused_in_one_line(damaged: Path) -> None:
    for command in ("run", "console", "disasm"):
        result = pdp6(command, str(damaged))
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert re.fullmatch(
            rf"Error: {damaged}: data block 1 \(000100-000105; header at word 39 \(byte offset "
            r"\d+\), checksum at word 46 \(byte offset \d+\)\): checksum \d{6},,\d{6} in the "
            r"file, \d{6},,\d{6} computed \(--ignore-checksum loads it anyway\)\n",
            result.output,
        ), result.output


def test_ignore_checksum_warns_and_runs(damaged: Path) -> None:
    result = pdp6("run", str(damaged), "--ignore-checksum", "--baud", "fast")
    assert (result.exit_code, result.stdout) == (0, "E"), result.output
    assert re.fullmatch(
        r"pdp6: warning: data block 1 \(000100-000105; .*computed: loaded anyway\n",
        result.stderr,
    )
    listing = pdp6("disasm", str(damaged), "--ignore-checksum")
    assert listing.exit_code == 0 and "pdp6: warning: data block 1" in listing.stderr
    assert "000105  CHAR:    000000,,000105  CHAR" in listing.stdout


def greet_damaged(tmp_path: Path, bits: int) -> Path:
    """GREET in the archive encoding, CHAR ("A") changed by ``bits``."""
    binary = midas(tmp_path, "greet", GREET)
    index = decode_words(binary.read_bytes()).index(ord("A"))
    return in_archive_encoding(binary, tmp_path / "GREET.BIN", {index: bits})


def test_repair_checksums_puts_the_damaged_word_right(tmp_path: Path) -> None:
    """Two bits of CHAR flipped ("A" to "e"): CHAR's implied value is two bits from the
    file's, every other word's more.  The repair is made, told, and A is printed again."""
    damaged = greet_damaged(tmp_path, 0o44)
    result = pdp6("run", str(damaged), "--repair-checksums", "--baud", "fast")
    assert (result.exit_code, result.stdout) == (0, "A"), result.output
    assert result.stderr == (
        "pdp6: repaired data block 1 (000100-000105): 000105 000000,,000145 -> "
        "000000,,000101, the word its checksum implies (2 bits differ)\n"
    )
    console = pdp6("console", str(damaged), "--repair-checksums", input="e 105\nchecksum\n")
    assert console.stdout.startswith("repaired data block 1 (000100-000105): 000105 ")
    assert "000105 CHAR/       000000,,000101" in console.stdout
    assert "pdp6> checksum\ndata block 1 (000100-000105;" in console.stdout  # still listed


def test_a_repair_that_several_words_explain_is_not_made(damaged: Path) -> None:
    """One bit of CHAR flipped: a one-bit change of two other words explains the checksum
    as well, so no word is chosen; the file is refused, or loaded as it is."""
    refused = pdp6("run", str(damaged), "--repair-checksums")
    assert refused.exit_code == 1 and refused.output.count("\n") == 1, refused.output
    assert refused.output.endswith(
        "not repaired, 3 words explain it equally well (000101, 000102, 000105) "
        "(--ignore-checksum loads it as it is)\n"
    )
    loaded = pdp6("run", str(damaged), "--repair-checksums", "--ignore-checksum", "--baud", "fast")
    assert (loaded.exit_code, loaded.stdout) == (0, "E"), loaded.output
    assert loaded.stderr.endswith("computed: loaded anyway\n")


def test_deposit_stores_words_before_the_start(damaged: Path) -> None:
    result = pdp6("run", str(damaged), "--ignore-checksum", "--baud", "fast",
                  "--deposit", "105=101", "--deposit", "100=MOVEI 1,102")  # fmt: skip
    assert (result.exit_code, result.stdout) == (0, "B"), result.output
    assert result.stderr.endswith(
        "pdp6: deposited 000000,,000101 at 000105 (was 000000,,000105)\n"
        "pdp6: deposited 201040,,000102 at 000100 (was 200040,,000105)\n"
    )
    console = pdp6("console", str(damaged), "--ignore-checksum", "--deposit", "105=0,,101",
                   input="e 105\n")  # fmt: skip
    assert "deposited 000000,,000101 at 000105" in console.stdout
    assert "000105 CHAR/       000000,,000101" in console.stdout


def test_bad_deposits_and_repairs_are_refused_in_one_line(damaged: Path) -> None:
    for args, message in (
        (["--deposit", "105"], "ADDR=WORD"),
        (["--deposit", "9=1"], "ADDR=WORD"),
        (["--deposit", "1000000=1"], "beyond the 256K address space"),
        (["--deposit", "105=NOSUCH"], "NOSUCH"),
        (["--deposit", "40000=1", "--core", "16K", "--ignore-checksum"], "beyond this machine"),
        (["--deposit", "105=1", "--boot"], "--boot reads FILE in through the RIM loader"),
    ):
        result = pdp6("run", str(damaged), *args)
        assert result.exit_code in (1, 2) and message in result.output, (args, result.output)
        assert "Traceback" not in result.output and result.output.count("Error") == 1, result.output


def test_a_block_no_one_word_explains_is_refused_or_loaded_as_it_is(tmp_path: Path) -> None:
    """The symbols' block is damaged: no word of memory to repair."""
    binary = midas(tmp_path, "greet", GREET.replace("\tEND GO", "SYMBOL=5\n\tEND GO"))
    words = decode_words(binary.read_bytes())
    symbol_block = words.index(0o254000_000100) + 1  # after the start word
    target = in_archive_encoding(binary, tmp_path / "SYMS.BIN", {symbol_block + 1: 1})
    refused = pdp6("run", str(target), "--repair-checksums")
    assert refused.exit_code == 1
    assert "information block 1 (type 0; " in refused.output
    assert "not repaired, only a data block's words can be repaired" in refused.output
    loaded = pdp6("run", str(target), "--repair-checksums", "--ignore-checksum", "--baud", "fast")
    assert (loaded.exit_code, loaded.stdout) == (0, "A"), loaded.output
    assert "information block 1 (type 0; " in loaded.stderr and "loaded anyway" in loaded.stderr


def test_the_console_repairs_the_word_the_checksum_implies(damaged: Path) -> None:
    commands = "checksum\nchecksum CHAR\nd 105 000000,,000101\ngo\nchecksum GO+4\nchecksum 200\n"
    result = pdp6("console", str(damaged), "--ignore-checksum", "--baud", "fast",
                  input=commands)  # fmt: skip
    out = result.stdout
    assert out.startswith("warning: data block 1 (000100-000105; header at word 39")
    assert "pdp6> checksum\ndata block 1 (000100-000105;" in out
    assert (
        "pdp6> checksum CHAR\ndata block 1's checksum implies 000000,,000101 at CHAR (000105) "
        "(now 000000,,000105: 1 bit differs): d 105 000000,,000101\n"
    ) in out
    assert "pdp6> go\nA\nhalted at GO+4 (000104)" in out  # repaired: it types A
    # Every word has the one value the checksum implies; the damaged one is for you to see.
    assert (
        "pdp6> checksum GO+4\ndata block 1's checksum implies 254200,,000102 at GO+4 (000104) "
        "(now 254200,,000104: 2 bits differ): d 104 254200,,000102\n"
    ) in out
    assert (
        "?checksum: 000200 is in no block loaded despite its checksum (they load 000100-000105)"
    ) in out
    assert result.exit_code == 1  # the last command failed, as a script's exit status says


def test_checksum_with_nothing_bad_loaded(programs: Programs) -> None:
    result = pdp6("console", str(programs.echo), input="checksum\nchecksum 100\n")
    assert "pdp6> checksum\nno block was loaded despite its checksum\n" in result.stdout
    assert (
        "?checksum: 000100 is in no block loaded despite its checksum (there are none)"
    ) in result.stdout


# --- core size --------------------------------------------------------------------------------
SIZE = """GO:\tCONO APR,10000\t\t; clear NXM
\tMOVE 1,100000\t\t; the first word past 32K
\tCONI APR,2
\tMOVEI 3,"Y
\tTRNN 2,10000\t\t; non-existent memory?
\tMOVEI 3,"N
\tDATAO TTY,3
\tCONSO TTY,10
\tJRST .-1
\tHALT .
\tEND GO
"""


def test_core_size_makes_memory_past_it_non_existent(tmp_path: Path) -> None:
    binary = midas(tmp_path, "size", SIZE)
    for core, answer in (("32K", "Y"), ("32k", "Y"), ("33K", "N"), ("256K", "N"), (None, "N")):
        extra = ["--core", core] if core else []
        result = pdp6("run", str(binary), "--baud", "fast", *extra)
        assert (result.exit_code, result.stdout) == (0, answer), (core, result.output)


def test_console_core_size(programs: Programs) -> None:
    result = pdp6("console", "--core", "32K", input="e 77777\ne 100000\nregisters\n")
    assert "pdp6> e 77777\n077777/ " in result.stdout
    assert "?examine: address 100000 is beyond core (0-77777)" in result.stdout
    big = pdp6("console", str(programs.echo), "--core", "1K", input="e 100\n")
    assert big.exit_code == 0 and "000100 GO/" in big.stdout  # 28 words at 100: fits in 1K


def test_a_program_beyond_core_is_refused(tmp_path: Path) -> None:
    binary = midas(tmp_path, "high", "LOC 100000\nGO:\tHALT .\n\tEND GO\n")
    result = pdp6("run", str(binary), "--core", "32K")
    assert result.exit_code == 1
    assert result.output == f"Error: {binary}: loads 100000, beyond this machine's core\n"


# --- data switches --------------------------------------------------------------------------
SWITCHES = """GO:\tDATAI APR,1\t\t; the data switches
\tHLRZ 2,1
\tDATAO TTY,2\t\t; left half, then right half, as characters
\tCONSO TTY,10
\tJRST .-1
\tDATAO TTY,1
\tCONSO TTY,10
\tJRST .-1
\tHALT .
\tEND GO
"""


def test_switches_are_read_by_datai_apr(tmp_path: Path) -> None:
    binary = midas(tmp_path, "sw", SWITCHES)
    for value in ("000101000102", "101,,102"):
        result = pdp6("run", str(binary), "--baud", "fast", "--switches", value)
        assert (result.exit_code, result.stdout) == (0, "AB"), (value, result.output)


def test_console_switches_option_and_command() -> None:
    result = pdp6("console", "--switches", "777777000000",
                  input="e switches\nset switches 1,,2\ne switches\n")  # fmt: skip
    assert "pdp6> e switches\nSWITCHES/ 777777,,000000\n" in result.stdout
    assert "pdp6> e switches\nSWITCHES/ 000001,,000002\n" in result.stdout


# --- teletype speed -----------------------------------------------------------------------------
def emulated_seconds(result: Result) -> float:
    return float(re.search(r"([0-9.]+) s emulated", result.stderr).group(1))


TEN = """GO:\tMOVEI 2,10.
\tMOVEI 1,"X
\tDATAO TTY,1
\tCONSO TTY,10
\tJRST .-1
\tSOJG 2,GO+1
\tHALT .
\tEND GO
"""


def test_baud_sets_the_teletype_speed_in_emulated_time(tmp_path: Path) -> None:
    binary = midas(tmp_path, "ten", TEN)
    for baud, seconds in (("110", 10 * 11 / 110), ("300", 10 * 11 / 300), ("fast", 0.0)):
        result = pdp6("run", str(binary), "--baud", baud, "-v")
        assert result.stdout == "X" * 10, result.output
        assert seconds <= emulated_seconds(result) < seconds + 0.002, (baud, result.stderr)


def test_console_baud(programs: Programs) -> None:
    for baud, shown in (("300", "300 baud"), ("fast", "fast")):
        result = pdp6("console", "--baud", baud, input="show devices\n")
        assert re.search(rf"TTY  120  CONI \d+  {shown}\n", result.stdout), result.output


# --- start address ----------------------------------------------------------------------------
ENTRIES = """GO:\tMOVEI 1,"A
\tJRST OUT
ALT:\tMOVEI 1,"B
OUT:\tDATAO TTY,1
\tCONSO TTY,10
\tJRST .-1
\tHALT .
\tEND {start}
"""


def test_start_overrides_or_supplies_the_start_address(tmp_path: Path) -> None:
    binary = midas(tmp_path, "entries", ENTRIES.format(start="GO"))
    bare = midas(tmp_path, "bare", ENTRIES.format(start=""))
    cases = [([str(binary)], 0, "A"), ([str(binary), "--start", "102"], 0, "B"),
             ([str(bare), "--start", "100"], 0, "A")]  # fmt: skip
    for args, status, out in cases:
        result = pdp6("run", *args, "--baud", "fast")
        assert (result.exit_code, result.stdout) == (status, out), (args, result.output)
    result = pdp6("run", str(bare))
    assert result.exit_code == 1
    assert "no start address (END with an address sets one; or --start)" in result.output


def test_a_jumpa_start_word_starts_as_jrst_does(tmp_path: Path) -> None:
    """DEC's diagnostic tapes end with JUMPA 100 where MIDAS writes JRST 100."""
    binary = midas(tmp_path, "entries", ENTRIES.format(start="GO"))
    words = decode_words(binary.read_bytes())
    jrst_go = 0o254000_000100
    at = [i for i, w in enumerate(words) if w == jrst_go]  # the start word, and its twin
    jumpa = in_archive_encoding(binary, tmp_path / "DIAG.BIN",
                                {i: jrst_go ^ 0o324000_000100 for i in at})  # fmt: skip
    result = pdp6("run", str(jumpa), "--baud", "fast")
    assert (result.exit_code, result.stdout) == (0, "A"), result.output
    console = pdp6("console", str(jumpa), input="e pc\n")
    assert "start GO (000100)\n" in console.stdout and "PC/ 000100   GO" in console.stdout


def test_start_takes_symbols_in_the_console(programs: Programs) -> None:
    result = pdp6("console", str(programs.echo), "--start", "TYI", input="e pc\n")
    assert "\nPC at TYI (000116) (--start)\n" in result.stdout
    assert "pdp6> e pc\nPC/ 000116   TYI (000116)" in result.stdout


def test_bad_start_addresses(programs: Programs, tmp_path: Path) -> None:
    for args, message in (
        (["run", str(programs.echo), "--start", "NOWHERE"], "NOWHERE"),
        (["console", "--core", "16K", "--start", "40000"], "beyond core"),
        (["run", str(programs.echo), "--start", "100", "--boot"], "no room for --start"),
    ):
        result = pdp6(*args)
        assert result.exit_code in (1, 2) and message in result.output, (args, result.output)
        assert "Traceback" not in result.output


# --- continuing after halts -------------------------------------------------------------------
PARTS = """GO:\tMOVEI 1,"1
\tJSP 2,TYPE
\tHALT .+1\t\t; end of part 1: CONTINUE goes on
\tMOVEI 1,"2
\tJSP 2,TYPE
\tHALT .+1
\tMOVEI 1,"3
\tJSP 2,TYPE
\tHALT GO\t\t; end of the pass: CONTINUE starts another
TYPE:\tDATAO TTY,1
\tCONSO TTY,10
\tJRST .-1
\tJRST (2)
\tEND GO
"""


def test_continue_halts_goes_on_and_prints_each_halt(tmp_path: Path) -> None:
    binary = midas(tmp_path, "parts", PARTS)
    plain = pdp6("run", str(binary), "--baud", "fast")
    assert (plain.exit_code, plain.stdout, plain.stderr) == (0, "1", "")
    result = pdp6("run", str(binary), "--baud", "fast", "--continue-halts", "4")
    assert (result.exit_code, result.stdout) == (0, "12312"), result.output
    notes = result.stderr.splitlines()
    assert notes[:4] == [
        "[halt 1 at GO+3 (000103): continuing]",
        "[halt 2 at GO+6 (000106): continuing]",
        "[halt 3 at GO (000100): continuing]",
        "[halt 4 at GO+3 (000103): continuing]",
    ]
    assert notes[4] == ""  # the end of the teletype's line, on the terminal
    assert re.fullmatch(r"pdp6: halted at GO\+6 \(000106\) .* after \d+ instructions.*", notes[5])


def test_console_continue_halts(tmp_path: Path) -> None:
    binary = midas(tmp_path, "parts", PARTS)
    result = pdp6("console", str(binary), "--continue-halts", "2", "--baud", "fast",
                  input="go\ngo\n")  # fmt: skip
    assert result.stdout.count("pdp6> go\n123\nhalted at GO (000100)") == 2  # 2 halts gone past
    assert result.stderr.count("continuing]") == 4


def test_bad_option_values_are_usage_errors(programs: Programs) -> None:
    for option, value, message in (
        ("--core", "300K", "'300K': a core size from 1K to 256K words, such as 32K"),
        ("--core", "32", "'32': a core size"),
        ("--core", "0K", "'0K': a core size"),
        ("--switches", "1,,2,,3", "'1,,2,,3':"),
        ("--switches", "", "'': a value is missing"),
        ("--continue-halts", "-1", "-1"),
        ("--baud", "slow", "'slow': a line speed such as 110, or 'fast'"),
    ):
        for command in ("run", "console"):
            args = [command, str(programs.echo), option, value]
            result = pdp6(*args)
            assert result.exit_code == 2 and message in result.output, (args, result.output)
            assert "Traceback" not in result.output


def test_debug_takes_the_machine_options(programs: Programs) -> None:
    result = CliRunner().invoke(main, [
        "debug", str(programs.dir / "echo.mid"), "--engine", "python", "--core", "16K",
        "--switches", "1,,2", "-c", "e switches", "-c", "e 40000",
    ])  # fmt: skip
    assert "debug> e switches\nSWITCHES/ 000001,,000002\n" in result.stdout, result.output
    assert "?examine: address 40000 is beyond core (0-37777)" in result.stdout


# --- the practice run in docs/period-software.md is what the tools say ----------------------
def test_the_practice_run_in_the_docs(
    programs: Programs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = (ROOT / "docs" / "period-software.md").read_text()
    practice = doc[doc.index("## Practice") :]
    code = re.search(r"<<'EOF'\n(.*?)EOF\n", practice, re.S).group(1)
    shutil.copy(programs.echo, tmp_path / "echo.bin")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "period-software.md", "exec"), {})
    shown = practice.splitlines()
    refused = pdp6("run", "ECHO.BIN", input="hi\n")
    assert refused.output.rstrip("\n") in shown
    warned = pdp6("run", "ECHO.BIN", "--ignore-checksum", input="hi\n")
    assert warned.stdout == "ECHO VEADY\nHI\n"
    assert warned.stderr.rstrip("\n") in shown
    commands = ["checksum HELLO+1", "checksum HELLO", "d 130 512130,,142262"]
    console = pdp6("console", "--ignore-checksum", "ECHO.BIN", input="\n".join(commands))
    for command, reply in replies(console).items():
        assert f"pdp6> {command}" in shown and reply in shown, (command, reply)
