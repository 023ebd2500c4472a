"""The ``midas`` command, held to the interfaces of the issue."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from midas.cli import main
from pdp6.formats.loader import load_file, read_line_map
from pdp6.formats.wordfile import decode_words

SOURCE = """TITLE TEST
A=1
GO:\tMOVEI A,[5]
\tJRST GO
END GO
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, text: str = SOURCE, name: str = "prog.mid") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_sblk_with_map_beside_it(tmp_path: Path) -> None:
    src = write(tmp_path)
    code, out, err = run(str(src), "-o", str(tmp_path / "out.bin"))
    assert (code, out, err) == (0, "", "")
    image = load_file(tmp_path / "out.bin")
    assert image.format == "sblk" and image.start == 0o100
    assert image.words == {0o100: 0o201040_000102, 0o101: 0o254000_000100, 0o102: 5}
    assert image.symbols == {"A": 1, "GO": 0o100}
    line_map = read_line_map(tmp_path / "out.map")
    assert line_map.lines[0o100] == (str(src), 3)
    assert line_map.lines[0o102] == (str(src), 3)  # the literal: the line that wrote it
    assert line_map.symbols == {"A": 1, "GO": 0o100}
    assert json.loads((tmp_path / "out.map").read_text())["format"] == "midas-line-map"


def test_rim(tmp_path: Path) -> None:
    src = write(tmp_path)
    code, _out, _err = run(str(src), "--format", "rim", "-o", str(tmp_path / "out.rim"))
    assert code == 0
    image = load_file(tmp_path / "out.rim")
    assert image.format == "rim" and image.start == 0o100 and len(image.words) == 3


def test_rim10(tmp_path: Path) -> None:
    src = write(tmp_path, "RIM10\n" + SOURCE)
    code, _out, _err = run(str(src))  # the source chose RIM10: prog.rim10
    assert code == 0
    words = decode_words((tmp_path / "prog.rim10").read_bytes())
    assert words[0] == 0o777761_000000  # -17,,0: LDR10 for 1-17, then the program
    assert words[16] == 0o777775_000100 and words[-1] == 0o254000_000100


def test_dump(tmp_path: Path) -> None:
    code, out, err = run(str(write(tmp_path)), "--dump")
    assert code == 0 and err == ""
    assert out == "000100/ 201040000102\n000101/ 254000000100\n000102/ 000000000005\nSTART 000100\n"
    assert not list(tmp_path.glob("*.bin"))  # --dump alone writes no binary
    code, out, _err = run(str(write(tmp_path, "7\nEND\n", "nostart.mid")), "--dump")
    assert out == "000100/ 000000000007\n"


def test_listing(tmp_path: Path) -> None:
    code, _out, _err = run(str(write(tmp_path)), "--listing", str(tmp_path / "out.lst"))
    assert code == 0
    text = (tmp_path / "out.lst").read_text()
    assert "000100  201040,,000102      3  GO:     MOVEI A,[5]" in text
    assert "GO      000000000100" in text


def test_default_output_name(tmp_path: Path) -> None:
    src = write(tmp_path)
    assert run(str(src))[0] == 0
    assert (tmp_path / "prog.bin").exists() and (tmp_path / "prog.map").exists()
    assert run(str(src), "--format", "rim", "--no-map")[0] == 0
    assert (tmp_path / "prog.rim").exists()


def test_errors_exit_1_and_write_nothing(tmp_path: Path) -> None:
    src = write(tmp_path, "FOO: MOVE A,BAR\n  JRST BAZ\nEND\n")
    code, out, err = run(str(src), "-o", str(tmp_path / "out.bin"), "--listing",
                         str(tmp_path / "out.lst"))  # fmt: skip
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[:3] == [
        f"{src}:1:11: undefined symbol A",
        f"{src}:1:13: undefined symbol BAR",
        f"{src}:2:8: undefined symbol BAZ",
    ]
    assert "3 errors" in lines[3]
    assert list(tmp_path.iterdir()) == [src]


def test_missing_source_file(tmp_path: Path) -> None:
    code, _out, err = run(str(tmp_path / "nope.mid"))
    assert code == 1 and "cannot read" in err and "Traceback" not in err


def test_garbage_input_never_raises(tmp_path: Path) -> None:
    src = tmp_path / "junk.mid"
    src.write_bytes(bytes(range(256)) * 4)
    code, _out, err = run(str(src), "--dump")
    assert code == 1 and "Traceback" not in err and "internal" not in err


def test_printx_goes_to_stderr(tmp_path: Path) -> None:
    code, out, err = run(str(write(tmp_path, "IF2 PRINTX /HELLO/\n1\nEND\n")), "--dump")
    assert code == 0 and out == "000100/ 000000000001\n" and err == "HELLO\n"


def test_old_dialect_option(tmp_path: Path) -> None:
    src = write(tmp_path, "MOVE 1,[5\nEND\n")
    assert run(str(src), "--dump")[0] == 1
    assert run(str(src), "--dump", "--old")[0] == 0
    src = write(tmp_path, "18\nEND\n")
    code, out, err = run(str(src), "--dump")
    assert code == 0 and out == "000100/ 000000000020\n" and "warning: digit 8" in err
    assert run(str(src), "--dump", "--old") == (0, out, "")


def test_define_supplies_what_a_linker_would(tmp_path: Path) -> None:
    """WAR 44 refers to BKBEG" and BKEND", globals of another program the linker placed;
    --define gives them values as SYM=VALUE before the first line would."""
    src = write(tmp_path, '\tMOVE A,[-<BKEND"-BKBEG"+1>,,BKBEG"]\n\tPUSHJ P,SQRT\nEND\n')
    assert run(str(src), "--dump")[0] == 1  # undefined without them
    code, out, err = run(str(src), "--dump", "--define", "BKBEG=2000", "--define", "bkend=2777",
                         "--define", "SQRT=30.", "--define", "A=1", "--define", "P=17")  # fmt: skip
    assert (code, err) == (0, "")
    assert out == ("000100/ 200040000102\n"  # MOVE 1,[-1000,,2000]
                   "000101/ 260740000036\n"  # PUSHJ 17,36 (30. is decimal)
                   "000102/ 777000002000\n")  # fmt: skip
    for bad, message in (("1=2", "SYM=VALUE"), ("A", "SYM=VALUE"), ("A=NOSUCH", "NOSUCH")):
        code, _out, err = run(str(src), "--define", bad)
        assert code == 2 and "--define" in err and message in err and "Traceback" not in err


def test_bench_command() -> None:
    code, out, _err = run("bench", "--lines", "300", "--repeat", "1")
    assert code == 0 and out.count("lines/second") == 2 and "macro-heavy" in out


def test_python_dash_m(tmp_path: Path) -> None:
    src = write(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "midas", str(src), "--dump"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0 and result.stdout.endswith("START 000100\n")


def test_assembly_information_block(tmp_path: Path) -> None:
    src = write(tmp_path)
    assert run(str(src), "--info", "-o", str(tmp_path / "out.bin"))[0] == 0
    from pdp6.formats.wordfile import decode_words

    words = decode_words((tmp_path / "out.bin").read_bytes())
    image = load_file(tmp_path / "out.bin")  # the loader skips the block
    assert image.start == 0o100
    info = words.index(0o777771_000003)  # -7,,3: seven words of information type 3
    assert words[info - 1] == 0o254000_000100  # right after the start instruction
    assert words[info + 1] == 0o777772_000001  # sub-block -6,,1
    assert words[info + 5] == 0o606257_470000  # SIXBIT /PROG/: P=60 R=62 O=57 G=47


def test_unwritable_output(tmp_path: Path) -> None:
    src = write(tmp_path)
    code, _out, err = run(str(src), "-o", str(tmp_path / "no" / "such" / "dir.bin"))
    assert code == 1 and "cannot write" in err and "dir.bin" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prog.mid"]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_source_that_never_ends() -> None:
    """Read whole, /dev/zero filled memory until the process died."""
    code, _out, err = run("/dev/zero", "--dump")
    assert code == 1
    assert "cannot read /dev/zero: longer than 67108864 bytes (not a PDP-6 file)" in err


def test_every_command_gives_its_version() -> None:
    """midas took --version for a source file's option; the three commands now agree."""
    from importlib.metadata import version

    from machack.cli import main as machack_main
    from pdp6.host.cli import main as pdp6_main

    for name, command in (("midas", main), ("pdp6", pdp6_main), ("machack", machack_main)):
        result = CliRunner().invoke(command, ["--version"], prog_name=name)
        assert (result.exit_code, result.output) == (
            0,
            f"{name}, version {version('pdp6-machack')}\n",
        )


def test_output_never_replaces_a_source_a_link_or_a_pipe(tmp_path: Path) -> None:
    """-o names a file to write: the program's own source is refused (it used to be
    replaced by the binary), a link is written through, a pipe is written into."""
    import os
    import threading

    source = write(tmp_path)
    code, _, err = run(str(source), "-o", str(source))
    assert code == 1 and "will not write" in err and source.read_text() == SOURCE
    real, link = tmp_path / "real.bin", tmp_path / "link.bin"
    real.write_bytes(b"")
    link.symlink_to(real)
    assert run(str(source), "-o", str(link), "--no-map")[0] == 0
    assert link.is_symlink() and real.stat().st_size > 0
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert run(str(source), "-o", str(fifo), "--no-map")[0] == 0
    reader.join(10)
    assert fifo.is_fifo() and got == [real.read_bytes()]
