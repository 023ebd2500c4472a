"""Bad input never breaks the assembler: any text gives a program and messages."""

from hypothesis import given, settings
from hypothesis import strategies as st

from midas import assemble

ATOMS = [
    "MOVE", "A", "FOO", ":", "::", "=", "==", ",", ",,", " ", "\n", "?", ";x\n", "[", "]",
    "<", ">", "(", ")", "@", "'", '"', "^", "_", "+", "-", "*", "/", "&", "#", "\\", "!",
    "DEFINE M X,Y\n", "TERMIN", "M", "REPEAT 3,", "IRP Z,,[1,2]\n", "IFE 0,", "IFN 1,",
    "IF2", "IFSE", ".ELSE", "LOC 200", "BLOCK 2", "CONSTANTS", "VARIABLES", "END",
    "ASCIZ /", "/", "SQUOZE 0,", ".BYTE 7", ".BYTE", ".OP", ".RPCNT", ".", "1", "10.", "3.5",
    "EXPUNGE", ".STOP", ".GO", ".TAG", ".QUOTE /", "{", "}", "DATAI", "PTR", "FOO'",
    ".INSRT nothing", ".MLLIT=0\n", ".SCALAR", "IRPNC 1,1,1,",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ATOMS), max_size=40))
def test_random_statements_are_diagnosed_not_crashed(atoms: list[str]) -> None:
    program = assemble("".join(atoms))
    assert not any("internal" in e.message for e in program.errors)
    for error in program.errors:
        assert str(error).startswith("<source>:")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    program = assemble(text)
    assert not any("internal" in e.message for e in program.errors)


def test_latin1_characters() -> None:
    # 'ß'.upper() is two letters: characters are folded by ASCII rules only.
    program = assemble("^\xdf\n'\xdf\n\"\xdf\nEND\n")
    assert program.words[0o100] == 0o37  # 0xDF = 0o337, & 77
    assert not any("internal" in e.message for e in program.errors)
