"""The smaller pseudo-ops and assembler variables (MIDAS manual, node Pseudos)."""

from pathlib import Path

from midas import assemble_file

from .helpers import asm, errors, word, words, xwd


def test_type() -> None:
    # -1 number; 1 pseudo-op or macro; 2 defined symbol; 3 seen but undefined; 17 unseen;
    # 4/5 variable (defined/undefined).
    src = "DEFINE M\nTERMIN\nX=1\n.TYPE 12 ? .TYPE IFE ? .TYPE M ? .TYPE X ? .TYPE NEVER"
    assert words(src) == [0o777777_777777, 1, 1, 2, 0o17]
    # On pass 1 LATER is unseen (17); on pass 2 it is defined (2).
    assert words("X==.TYPE LATER\nLATER=5\nX") == [2]
    assert words("FOO'\n.TYPE FOO") == [0o102, 4]  # FOO's storage comes after the code


def test_gensym_counter() -> None:
    p = asm("DEFINE G \\X\nX: 0\nTERMIN\n.GSSET 10\nG\n.GSCNT\nEND")
    assert p.symbols["G00011"] == 0o100  # counter 10, incremented before use
    assert p.words[0o101] == 0o11


def test_expunge_a_macro_and_a_pseudo_op() -> None:
    assert words("DEFINE FOO\n1\nTERMIN\nEXPUNGE FOO\nFOO=2\nFOO") == [2]
    assert words("EXPUNGE LOC\nLOC=7\nLOC") == [7]


def test_top_level_quote_and_comment() -> None:
    assert words(".QUOTE /5/\nCOMMEN /anything\nat all/\n6") == [5, 6]


def test_irpw_and_irpnc() -> None:
    src = "IRPW X,Y,[\n1 ;2\n\n3\n]\n<X> ? .LENGTH /Y/\nTERMIN"
    assert words(src) == [1, 1, 3, 0]
    # IRPNC m,n,p: skip m characters, take n at a time, at most p passes.
    assert words("IRPNC 1,2,2,X,,[ABCDEFG]\n.LENGTH /X/ ? \"X\nTERMIN") == [
        2, 0o102 * 0o200 + 0o103, 2, 0o104 * 0o200 + 0o105,
    ]  # fmt: skip


def test_kill_hkill_global() -> None:
    p = asm("A=1\nB=2\nC=3\n.HKILL A\n.GLOBAL B\nEND")
    flags = {e.name: e.flags for e in p.symbol_table}
    assert flags == {"A": 0o500000_000000, "B": 0o040000_000000, "C": 0o100000_000000}
    p = asm(".HKALL=1\nFOO: 0\nEND")
    assert p.symbol_table[0].flags == 0o500000_000000


def test_dot_radix_and_ascvl() -> None:
    assert word(".RADIX 10.,12") == 12
    assert word(".ASCVL /A") == 0o101


def test_assembler_variables() -> None:
    assert words(".PASS") == [2]
    assert words("X==.PASS\nIF1 [Y==X]\nY") == [1]  # X was 1 on pass 1
    assert words("IFN 1,5\n.SUCCESS") == [5, 0o777777_777777]
    assert words(".MLLIT") == [1]


def test_storage_and_literal_switches() -> None:
    assert "storage word" in errors(".NSTGW\n1")[0]
    assert words(".NSTGW\nA=1\n.YSTGW\n2") == [2]
    assert "literal" in errors(".LITSW=1\nMOVE 1,[2]")[0]


def test_err_and_unsupported() -> None:
    assert errors(".ERR Something is wrong") == ["<source>:1:1: .ERR Something is wrong"]
    assert "not supported" in errors("1PASS")[0]
    assert "not supported" in errors(".BEGIN FOO")[0]


def test_ignored_pseudos_and_subttl() -> None:
    assert words(".SYMTAB 3000,1000\n.XCREF A,B\nSUBTTL the next part\n1") == [1]


def test_several_statements_in_a_grouping() -> None:
    assert word("<1 ? 2 ? 3>") == 3
    assert word("<A=5\nA+1>") == 6


def test_equals_copies_macros() -> None:
    assert words("DEFINE SEVEN\n7\nTERMIN\nEQUALS SIEBEN,SEVEN\nSIEBEN") == [7]


def test_half_killed_unredefinable_assignment() -> None:
    p = asm("FOO==:5\nEND")
    assert p.symbols == {"FOO": 5} and p.symbol_table[0].flags == 0o500000_000000
    assert "multiply defined" in errors("FOO==:5\nFOO=6")[0]


def test_insrt_file_without_final_newline(tmp_path: Path) -> None:
    (tmp_path / "a.mid").write_text("X=5")  # no line end at the end
    (tmp_path / "main.mid").write_text(".INSRT a.mid\nY=X\nY\nEND\n")
    program = assemble_file(tmp_path / "main.mid")
    assert not program.errors and program.words == {0o100: 5}


def test_xwd_of_forward_references() -> None:
    assert words("XWD A,B\nA: 0\nB: 0") == [xwd(0o101, 0o102), 0, 0]
