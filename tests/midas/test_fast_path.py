"""The one-step reader of plain instruction lines must agree with the general reader."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from midas import Program, assemble
from midas.assembler import Assembler
from midas.bench import generate, generate_macro_heavy

from .test_output import VISIB1


def both(source: str) -> tuple[Program, Program]:
    fast = assemble(source)
    Assembler.fast_statements = False
    try:
        slow = assemble(source)
    finally:
        Assembler.fast_statements = True
    return fast, slow


def same(source: str) -> None:
    fast, slow = both(source)
    assert fast.words == slow.words
    assert fast.symbols == slow.symbols
    assert fast.symbol_table == slow.symbol_table
    assert [str(e) for e in fast.errors] == [str(e) for e in slow.errors]
    assert fast.line_map == slow.line_map


@pytest.mark.parametrize(
    "source",
    [
        VISIB1,
        generate(600),
        "A=1\nDATAI PTR,0\nCONO TTY,60\nDATAO 21,5\nEND\n",  # I/O, a bad device code
        "foo: move a,bar(b)\na=1\nb=2\nbar: jrst foo\nend\n",  # lower case
        "X: JRST .\nY: JRST X ; comment\nJRST UNDEF\nMOVE 18,1\nEND\n",
        "RADIX 10.\nMOVEI 1,10\nMOVEI 2,10.\nDEFINE M\n5\nTERMIN\nJRST M\nEND\n",
        "FOO: 0\nFOO: 1\nBAR: HALT\nEND\n",  # multiply defined
        "MOVE 1,777777777777\nMOVE 1,1000000000000\nEND\n",
        "T: JRST .+2\nMOVE 1,T-1(17)\nMOVE 1,-1(17)\nMOVE 2,+3\nJRST T+UNDEF\nEND\n",
    ],
)
def test_sources_agree(source: str) -> None:
    same(source)


NAMES = st.sampled_from(
    ["A", "B", "FOO", "BAR", "UNDEF", "MOVE", "JRST", "PTR", "TTY", "DATAI", "CONO", "HALT",
     "foo", "P", "LONGNAMEX", "LONGNAMEY"]
)  # fmt: skip
TOKENS = st.one_of(NAMES, st.from_regex(r"[0-9]{1,13}\.?", fullmatch=True), st.just("."))


@st.composite
def lines(draw) -> str:
    label = draw(st.sampled_from(["", "L1: ", "L2:\t", "L1: L3: "]))
    op = draw(NAMES)
    ac = draw(st.sampled_from(["", draw(TOKENS) + ","]))
    ind = draw(st.sampled_from(["", "@"]))
    addr = draw(st.sampled_from(["", draw(TOKENS)]))
    addr += draw(st.sampled_from(["", "+" + draw(TOKENS), "-" + draw(TOKENS)]))
    idx = draw(st.sampled_from(["", f"({draw(TOKENS)})"]))
    tail = draw(st.sampled_from(["", " ; note", "\t"]))
    rest = f"{ac}{ind}{addr}{idx}"
    return f"{label}{op}{' ' + rest if rest else ''}{tail}"


@settings(max_examples=150, deadline=None)
@given(st.lists(lines(), min_size=1, max_size=6))
def test_generated_lines_agree(body: list[str]) -> None:
    same("A=1\nB=2\nFOO=100\nBAR=1000\nP=17\n" + "\n".join(body) + "\nEND\n")


# Fields the fast path plans beyond plain tokens: groupings (two deep), quoted characters,
# and one-line texts in a literal; and words of halfwords, labels alone.
GROUPS = st.builds(
    lambda a, op, b, outer: outer.format(f"<{a}{op}{b}>"),
    TOKENS,
    st.sampled_from(["", "+", "-", "*", "&", "/"]),
    TOKENS,
    st.sampled_from(["{}", "{}&777", "-{}", "<{}*2>", "<{}+A>-1", "{}+<B>", "< {}>", "<{},1>"]),
)
QUOTED = st.sampled_from(['"A', '"a', '"AB', '"1.', "'A", "'FOO", "'ab", '"A"B', '";', "'^", '"'])
TEXTS = st.builds(
    lambda op, text: f"[{op} {text}]",
    st.sampled_from(["SIXBIT", "ASCIZ", "ASCII", "ASCIC", "sixbit", ".ASCII", "SIXBITS"]),
    st.sampled_from(["/AB/", "/HELLO THERE/", "|A;B|", "//", "/a{/", ".X.", "/ONE TWO THREE/"]),
)
MORE_FIELDS = st.one_of(TOKENS, GROUPS, QUOTED, TEXTS)


@st.composite
def wider_lines(draw) -> str:
    label = draw(st.sampled_from(["", "L1: ", "L2:\t", "L1: L3: ", "L2:: "]))
    kind = draw(st.integers(0, 3))
    if kind == 0:  # an instruction with the wider fields
        op = draw(st.one_of(NAMES, GROUPS, QUOTED))
        ac = draw(st.sampled_from(["", draw(st.one_of(TOKENS, GROUPS, QUOTED)) + ","]))
        addr = draw(st.sampled_from(["", draw(MORE_FIELDS)]))
        idx = draw(st.sampled_from(["", f"({draw(st.one_of(TOKENS, GROUPS))})"]))
        rest = f"{ac}{addr}{idx}"
        body = f"{op}{' ' + rest if rest else ''}"
    elif kind == 1:  # halfwords
        left = draw(st.one_of(TOKENS, GROUPS, QUOTED))
        right = draw(st.sampled_from(["", draw(MORE_FIELDS)]))
        body = f"{left},,{right}" + draw(st.sampled_from(["", "", "", " 5", ",6"]))
    elif kind == 2:  # labels alone
        body = ""
    else:  # a conditional around one of them
        body = f"IFN {draw(TOKENS)},[{draw(TOKENS)},,{draw(TOKENS)}]"
    tail = draw(st.sampled_from(["", " ; note", "\t"]))
    return f"{label}{body}{tail}"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(wider_lines(), lines()), min_size=1, max_size=6))
def test_generated_wider_lines_agree(body: list[str]) -> None:
    same("A=1\nB=2\nFOO=100\nBAR=1000\nP=17\n" + "\n".join(body) + "\nEND\n")


@pytest.mark.parametrize(
    "source",
    [
        # groupings: undefined inside (pass 2's message at the symbol), an I/O name in
        # one (no device field), blanks or a comma in one (the general reader's)
        "A=1\nX: MOVE 1,<UND+1>&777\nMOVE 2,<<A+2>*3>(A)\nMOVE <A+1>,<-A>\nEND\n",
        "MOVE 1,<DATAO>\n<DATAO> 14,\n<CONO 4>\nMOVE 1,< A >\nMOVE 1,<A,B>\nEND\n",
        "RADIX 10.\nMOVE 1,<19+1>\nRADIX 8\nMOVE 1,<19+1>\nMOVE 1,<1/0>\nEND\n",
        # quoted characters
        'CAIE 1,"A\nCAIE 1,"a\nCAIE 1,\'ab\nMOVE 1,"AB"CD\nCAIE 1,";\nEND\n',
        # texts in literals: shared, none, several words, a character SIXBIT has no code
        # for, the pseudo-op redefined, expunged or literals forbidden
        "HRRZ 1,[SIXBIT /B1/]\nHRRZ 2,[SIXBIT /B1/]\nHRRZ 3,[ASCIZ /HELLO THERE/]\n"
        "HRRZ 1,[ASCIZ //]\nHRRZ 1,[SIXBIT /a{/]\nHRRZ 1,[ASCII .AB.]\nEND\n",
        "DEFINE SIXBIT X\n5\nTERMIN\nHRRZ 1,[SIXBIT /A/]\nEND\n",
        "EXPUNGE ASCIZ\nHRRZ 1,[ASCIZ /A/]\nEND\n",
        ".LITSW=1\nHRRZ 1,[ASCIZ /A/]\nEND\n",
        # halfwords and labels alone
        "L: A,,B\n1,,\n2,,[3]\n4,,[ASCIZ /X/]\nUND,,5\nIFN 1,[6,,7]\n7,,8 9\n,,5\n"
        "FOO::\nBAR:\nBAZ: ; c\nL:\nA=1\nB=2\nEND\n",
    ],
)
def test_wider_sources_agree(source: str) -> None:
    same(source)


@st.composite
def conditionals(draw) -> str:
    name = draw(st.sampled_from(["IFE", "IFN", "IFG", "IFGE", "IFL", "IFLE", "ifn", "IFNE"]))
    field = draw(TOKENS) + draw(st.sampled_from(["", "+" + draw(TOKENS), "-" + draw(TOKENS)]))
    body = draw(st.sampled_from(["[MOVE A,B]", "MOVE A,B", "[1\n2]", "{3}", "[JRST .] ; c"]))
    return f"{name} {field},{body}"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(conditionals(), lines()), min_size=1, max_size=6))
def test_generated_conditionals_agree(body: list[str]) -> None:
    same("A=1\nB=2\nFOO=100\nBAR=1000\nP=17\n" + "\n".join(body) + "\nEND\n")


def test_a_bracket_after_a_plain_statement() -> None:
    same("IFE 0,[MOVE 1,2]\nIFE 0,[MOVE 1,2] ; c\nIFE 0,[MOVE 1,2] 5\nEND\n")
    same("MOVE 1,2]\nIFE 0,[\nJRST .]\nEND\n")  # an unmatched ']'


def test_runs_of_failing_conditionals() -> None:
    # Failing conditionals of one name are passed over together; anything between them
    # (another name, a comment, a '?', a closing bracket, an expansion's end) stops that.
    same("IFE 1,[2]\nIFE 1,[3]\n\nIFE 2,[4] ? IFE 3,[5]\nIFN 0,[6]\nIFE 1,[7]\n8\nEND\n")
    same("IFE 1,[2]\n; c\nIFE 1,[3]\nIFE 0,[IFE 1,[4]\nIFE 1,[5]]\nIFE 1,[6]\n9\nEND\n")
    same("IRPC X,,[1231]\nIFE X-2,[X]\nIFE X-3,[X+10]\nIFE X-3,[X+20]\nTERMIN\nEND\n")
    same("RADIX 10.\nIFE 8,[1]\nRADIX 8\nIFE 8,[2]\nIFE 9,[3]\nEND\n")


def test_an_expunged_or_redefined_conditional_is_not_taken_for_one() -> None:
    same("EXPUNGE IFE\nIFE 0,[1]\nEND\n")
    same("DEFINE IFE A\n7\nTERMIN\nIFE 0,[1]\nEND\n")


MACROS = """A=1
B=2
FOO=100
BAR=1000
P=17
DEFINE CONC X,Y
X!Y!TERMIN
DEFINE TWO X,Y
\tMOVE X,Y
\tADD X,Y
TERMIN
DEFINE GEN \\L
L:\tJRST L
TERMIN
DEFINE DEF X=5
\tMOVEI 1,X
TERMIN
"""
EXPRS = st.builds(
    lambda u, a, op, b: f"{u}{a}{op}{b}" if op else f"{u}{a}",
    st.sampled_from(["", "-", "#"]),
    TOKENS,
    st.sampled_from(["", "+", "-", "*", "&", "#", "\\", "_", "/"]),
    TOKENS,
)


@st.composite
def expansion_lines(draw) -> str:
    """Lines that make the fast path expand macros, loops and conditionals."""
    e, t = draw(EXPRS), draw(TOKENS)
    return draw(
        st.sampled_from(
            [
                f"CONC {t},1",  # glued to the next line
                f"CONC {t}1,:",
                f"MOVE A,CONC FOO,\\{e}",
                f"\tJRST CONC BAR,\\{e} ; c",
                f"TWO {t},{e}",
                f"TWO [{t}],{e}",
                "GEN",
                "DEF",
                f"DEF {e}",
                f"IFE {e},[MOVE A,{e}]",
                f"IFN {e},[TWO A,B\n]",
                f"REPEAT 2,[MOVE A,{e}\n]",
                "IRP X,,[A,B]\n\tMOVE X,FOO\nTERMIN",
                f'IRPC X,,[{t}]\n\tMOVEI 1,"X\nTERMIN',
                f"CAMLE A,[{e}]",
                f"MOVE A,CONC FOO,\\<{e}>",  # (a grouping, a quoted character, halfwords)
                f'TWO <{t}>,"A',
                f"{t},,CONC FOO,\\{e}",
                f"L{draw(st.integers(0, 3))}:",
                f"{e}",
                f"L{draw(st.integers(0, 3))}: {e} {t},{e}",
            ]
        )
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(expansion_lines(), lines(), conditionals()), min_size=1, max_size=8))
def test_generated_expansions_agree(body: list[str]) -> None:
    same(MACROS + "\n".join(body) + "\nEND\n")


@pytest.mark.parametrize(
    "source",
    [
        generate_macro_heavy(400),
        # errors inside a one-line macro's expansion are reported at the call
        MACROS + "MOVE A,CONC UND,\\1\nCONC UND,2\nEND\n",
        # a label the expansion defines twice
        MACROS + "CONC X,1:\n0\nCONC X,1:\n1\nEND\n",
        # a call after a label made by an expansion: the body's first word belongs to the
        # statement begun at the expansion (its line), unless an inline pseudo-op ends it
        MACROS + "CONC A1,:\nTWO A,-8+.\nCONC A2,:\nTWO A,B\nEND\n",
        "DEFINE CONC X,Y\nX!Y!TERMIN\nDEFINE IR X\nIRP Y,,[X]\n\tY\nTERMIN\nTERMIN\n"
        "DEFINE IRQ X\nIRP!X Y,,[1]\n\tY\nTERMIN\nTERMIN\nIRPA=5\n"
        "CONC A1,:\nIR [1,2]\nCONC A2,:\nIRQ A\nEND\n",
        # literals: undefined on pass 1, shared, forbidden by .LITSW
        "MOVE 1,[LATER]\nMOVE 2,[LATER]\nLATER: 0\n.LITSW=1\nMOVE 3,[5]\nEND\n",
        # byte mode after plain lines; I/O instructions with expressions
        "MOVE 1,2\n.BYTE 6\n1\n2\n.BYTE\nDATAO TTY+4,0\nCONO 4+PTR,60\nEND\n",
        "DEFINE M\n.BYTE 7\nTERMIN\nMOVE 1,2\nM\n1\n2\n.BYTE\nEND\n",
        "X=1/0\nMOVE 1,1/0\nIFE 1/0,[5]\nEND\n",
    ],
)
def test_expansion_sources_agree(source: str) -> None:
    same(source)


def test_the_chess_program_agrees() -> None:
    from midas import assemble_file

    main = Path(__file__).resolve().parents[2] / "machack" / "src" / "machack.mid"
    fast = assemble_file(main)
    Assembler.fast_statements = False
    try:
        slow = assemble_file(main)
    finally:
        Assembler.fast_statements = True
    assert not fast.errors and fast.words == slow.words
    assert fast.symbols == slow.symbols and fast.line_map == slow.line_map
