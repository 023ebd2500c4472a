"""Macros and iterations (reference 1.9-1.10), with the MIDAS manual's own examples."""

import pytest

from .helpers import asm, errors, word, words, xwd


def test_define_and_call() -> None:
    src = """A=1
DEFINE FOOBR  AA,B
\tMOVE A,AA
\tCAIL A,B
\t POPJ P,
TERMIN
P=17
ZZZ=500
\tFOOBR ZZZ,10
"""
    # MOVE 1,500 / CAIL 1,10 (301040) / POPJ 17, (263740)
    assert words(src) == [xwd(0o200040, 0o500), xwd(0o301040, 0o10), xwd(0o263740, 0)]


def test_arguments_normal_syntax() -> None:
    # The manual's MACRO1 examples (node Example-1): A ? B ? C with B defaulted to FOO.
    head = "FOO=77\nBAR=66\nDEFINE MACRO1 A,B=FOO,C\n\tA ? B ? C\nTERMIN\n"
    assert words(head + "MACRO1 1,2,3") == [1, 2, 3]
    assert words(head + "MACRO1 [FOO,,BAR]2,3") == [xwd(0o77, 0o66), 2, 3]
    assert words(head + "MACRO1 1,,3") == [1, 0o77, 3]  # nullspecified: defaulted
    assert words(head + "MACRO1 1,[]3") == [1, 3]  # specified as null
    assert words(head + "MACRO1 1,2") == [1, 2]
    assert words(head + "MACRO1 1") == [1, 0o77]


def test_bracketed_arguments_follow_each_other() -> None:
    # After [A] the next argument starts at once; a comma there is an empty argument.
    head = "DEFINE M A,B,C\n<A>+<B>+<C>\nTERMIN\n"
    assert words(head + "M [1][2][3]") == [6]
    program = asm(head + "M [1],[2],[3]\nEND")
    # A=1, B empty, C=2; the call ends there and ",[3]" is the next word (,B: the
    # literal's address 102).
    assert program.words == {0o100: 3, 0o101: 0o102, 0o102: 3}
    assert "comma after a bracketed argument" in program.warnings[0].message


def test_arguments_end_at_semicolon_and_eol() -> None:
    src = "DEFINE TWO A,B\nA+B\nTERMIN\nTWO 1,2   ; a comment\nTWO 3,4\n"
    assert words(src) == [3, 7]
    # Blanks before an argument are part of it (the manual): "1+ 2" is two fields.
    assert "missing operand" in errors("DEFINE TWO A,B\nA+B\nTERMIN\nTWO 1, 2\n")[0]


def test_line_end_after_a_call_is_dropped() -> None:
    # As in MIDAS, the line end ending a call is thrown away: a body without a final
    # line end continues on the next line.
    src = "DEFINE PLUS A\n<A>+TERMIN\nPLUS 1\n2\n"
    assert words(src) == [3]


def test_value_argument() -> None:
    src = "DEFINE LBL N\nL!N: N\nTERMIN\nX=3\nLBL \\X+1\n"
    p = asm(src)
    assert p.symbols["L4"] == 0o100 and p.words == {0o100: 4}


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_value_argument_leaves_the_line_end(eol: str) -> None:
    # Only the field's terminator is eaten: with CR LF the CR goes and the LF still ends
    # the statement, so the body (which ends without a line end) is not glued to the
    # next line (Spacewar's REPEAT NSHIPS,[CONC SHIP,\.RPCNT+1 ... depends on it).
    src = eol.join(["L1=5", "DEFINE CONC A,B", "A!B!TERMIN", "CONC L,\\1", "W: 0", "END", ""])
    p = asm(src)
    assert p.words == {0o100: 5, 0o101: 0}
    assert p.symbols["W"] == 0o101 and "L1W" not in p.symbols


def test_value_argument_terminator_is_eaten() -> None:
    # A comma or a blank after the field is its terminator: the next argument follows.
    src = "DEFINE PAIR A,B\nA,,B\nTERMIN\nPAIR \\1+1,7\nPAIR \\2 3\n"
    assert words(src) == [xwd(2, 7), xwd(2, 3)]


def test_concatenation() -> None:
    src = "FOO12=5\nDEFINE CAT A,B\nA!B\nTERMIN\nCAT FOO,12\n"
    assert words(src) == [5]
    # '!' not next to a dummy stays; A!!!B keeps the middle one.
    src = "DEFINE S A,B\nASCII /A!!!B!/\nTERMIN\nS X,Y\n"
    # "X!Y": X=1011000 !=0100001 Y=1011001, zeros:
    # 101 100 001 000 011 011 001 000 000 000 000 000
    assert words(src) == [0o541033_100000]


def test_dummies_only_between_non_squoze_characters() -> None:
    # In " AB " neither A nor B occurs.
    src = "AB=7\nDEFINE M A,B\n AB\n A+B\nTERMIN\nM 1,2\n"
    assert words(src) == [7, 3]


def test_parenthesized_and_balanced_calls() -> None:
    # DEFINE SQR (X) squares; 1+SQR(2)*3 = 1+<<2>*<2>>*3 = 13.
    src = "DEFINE SQR (X)\n<<X>*<X>>TERMIN\n"
    assert word(src + "1+SQR(2)*3") == 13
    # An ordinary call within brackets: the > ends the argument.
    assert word(src + "3*<1+SQR 2>-4") == 11
    # Balanced dummies keep commas inside brackets: MAC2 <MOVE 1,2>,<MOVE 3,4>.
    src = "DEFINE MAC2 ?A,B\nA ? B\nTERMIN\nMAC2 <MOVE 1,2>,<MOVE 3,4>\n"
    assert words(src) == [xwd(0o200040, 2), xwd(0o200140, 4)]


def test_gensyms() -> None:
    # The manual's GENMAC: \\FOO,BAR -- unspecified gensymmed dummies become G00001 ...
    src = "DEFINE GENMAC \\FOO,BAR\n\tFOO,,BAR\nTERMIN\n"
    p = asm(src + "GENMAC X,Y\nX=1\nY=2\nGENMAC 1\nG00001=7\nGENMAC()\nG00002=5\nG00003=6\nEND")
    assert [p.words[a] for a in sorted(p.words)] == [xwd(1, 2), xwd(1, 7), xwd(5, 6)]


def test_gensym_labels_are_the_same_on_both_passes() -> None:
    src = "DEFINE LOOP \\L\nL: SOJG 1,L\nJRST L\nTERMIN\nLOOP\nLOOP\n"
    p = asm(src)
    assert p.symbols["G00001"] == 0o100 and p.symbols["G00002"] == 0o102
    assert p.words[0o103] == xwd(0o254000, 0o102)


def test_wholeline_and_strung_arguments() -> None:
    src = "DEFINE FOOWH A-B\n\tA\n\tB\nTERMIN\nFOOWH 1,2,3\n"
    assert words(src) == [1, 5]  # "1" and "2,3" (= 2 ++ 3)
    src = "DEFINE TXT *S*\nASCII /S/\nTERMIN\nTXT -AB,C-\n"
    assert words(src) == [word("ASCII /AB,C/")]


def test_keyword_arguments() -> None:
    # The manual's KWD1: A and D by order, B and C by keyword.
    head = "DEFINE KWD1 A=1,+B=2,C=3,+D=4\nA ? B ? C ? D\nTERMIN\n"
    assert words(head + "KWD1 100,,200") == [0o100, 2, 3, 0o200]
    assert words(head + "KWD1 10,C=11") == [0o10, 2, 0o11, 4]
    assert words(head + "KWD1 ,B=20,C=21,,40") == [1, 0o20, 0o21, 0o40]


def test_nested_definitions_and_termin_termin() -> None:
    src = """DEFINE OUTER N
DEFINE INNER!N
N
TERMIN TERMIN
OUTER 5
OUTER 6
INNER5
INNER6
"""
    assert words(src) == [5, 6]


def test_macro_used_inside_a_word_and_in_a_literal() -> None:
    # A normal argument runs to a comma, ';' or the line end -- not to a ']' -- so
    # inside a literal the call is parenthesized.
    src = "DEFINE TWICE X\n<X*2>TERMIN\nMOVEI 1,[TWICE(3)]\n"
    p = asm(src)
    assert p.words == {0o100: xwd(0o201040, 0o101), 0o101: 6}


def test_quote_protects_text() -> None:
    # '!' before .QUOTE lets it follow a squoze character; the quoted A stays "A".
    src = "DEFINE Q A\nASCII /A!.QUOTE !A!/\nTERMIN\nQ X\n"
    # "XA" in ASCII: 1011000 1000001 then zeros
    assert words(src) == [0o542020_000000]


def test_remote_macro() -> None:
    # The manual's "remote macro": BLCODE appends text to BNKBLK, which assembles it.
    src = """DEFINE BNKBLK OP
OP
TERMIN
DEFINE BLCODE NEWCFT
BNKBLK [DEFINE BNKBLK OP
OP]NEWCFT
TERMIN
TERMIN
BLCODE [11]
BLCODE [22]
BNKBLK
"""
    assert words(src) == [0o11, 0o22]


def test_repeat() -> None:
    assert words("REPEAT 3,[.RPCNT\n]") == [0, 1, 2]
    # Without a separator the passes make one syllable: .RPCNT.RPCNT.RPCNT
    assert words("REPEAT 3,[.RPCNT]") == [0]
    assert words("REPEAT 2, 7\n1") == [7, 7, 1]  # body to the end of the line
    assert words("REPEAT 0,[5]\nREPEAT -1,[5]\n1") == [1]
    # REPEAT X,[<.RPCNT+1>*]1 is factorial(X); 4! = 24 = 0o30
    assert word("REPEAT 4,[<.RPCNT+1>*]1") == 0o30
    # REPEAT X,[.RPCNT+]0 is X*(X-1)/2
    assert word("REPEAT 5,[.RPCNT+]0") == 10
    # Passes glue into one syllable: 'A'A'A
    assert word("REPEAT 3,['A]") == 0o414141


def test_repeat_text_splicing() -> None:
    # The manual's 0,,REPEAT 3,[.+1 <newline> 10,,]0
    src = "0,,REPEAT 3,[.+1\n10,,]0"
    assert words(src) == [0o101, xwd(0o10, 0o102), xwd(0o10, 0o103), xwd(0o10, 0)]


def test_nested_repeats_and_rpcnt() -> None:
    assert words("REPEAT 2,[REPEAT 2,[.RPCNT\n]\n.RPCNT\n]") == [0, 1, 0, 0, 1, 1]


def test_stop_and_istop() -> None:
    # The manual's FOO: 1 / IFE A,.STOP / 2
    src = "DEFINE FOO A\n1\nIFE A,.STOP\n2\nTERMIN\nFOO 1\nFOO 0\n"
    assert words(src) == [1, 2, 1]
    # .ISTOP: FOO==.RPCNT at the first set bit of BAR = number of trailing zeros.
    src = "BAR=1000\nREPEAT 36.,[\nFOO==.RPCNT\nIFN BAR&<1_.RPCNT>,.ISTOP\n]\nFOO"
    assert words(src) == [9]


def test_go_and_tag() -> None:
    src = """DEFINE FOO
BAR==3
.TAG BARF
BAR
BAR==BAR-1
IFN BAR,.GO BARF
TERMIN
FOO
"""
    assert words(src) == [3, 2, 1]


def test_irp() -> None:
    assert words("FOO=100\nIRP X,,[1,4,5]\nFOO+X ? TERMIN") == [0o101, 0o104, 0o105]
    # Several groups run in parallel.
    assert words("IRP X,,[1,2,3]Y,,[4,5]\n<X*10+0!Y>\nTERMIN") == [0o14, 0o25, 0o30]
    # The second dummy gets the rest of the string.
    assert words("IRP X,Y,[1,2,3]\n.LENGTH /Y/\nTERMIN") == [3, 1, 0]
    # Brackets protect commas and are dropped.
    assert words("IRP X,,[[1,,2],3]\nX\nTERMIN") == [xwd(1, 2), 3]
    assert words("IRP X,,[A,B]\n.IRPCNT\nTERMIN") == [0, 1]


def test_irp_manual_example() -> None:
    src = "IRP X,Y,[123 4,56789\nABCD[EF]GH,[IJ,],K]\n.LENGTH /X/ ? .LENGTH /Y/\nTERMIN"
    # X: "123 4", "56789", "ABCDEFGH", "IJ,", "K"
    # Y: "56789\nABCD[EF]GH,[IJ,],K" (CRLF counts 2), "ABCD[EF]GH,[IJ,],K", "[IJ,],K", "K", ""
    assert words(src) == [5, 25, 5, 18, 8, 7, 3, 1, 1, 0]


def test_irps_and_irpc() -> None:
    # The manual's IRPS: A, B, C, D, E, I get +100, F, G, H get -100.
    src = "IRPS X,Y,[A+B+C+ D+,E+ ,, &/!,F-G- H-I+]\n\tX==Y!100\nTERMIN\nA ? F ? I"
    assert words(src) == [0o100, 0o777777_777700, 0o100]
    assert words('IRPC C,,[ABC]\n"C\nTERMIN') == [0o101, 0o102, 0o103]
    # IRPC's second dummy is the rest of the string.
    assert words("IRPC C,R,[ABC]\n.LENGTH /R/\nTERMIN") == [2, 1, 0]


def test_irp_inside_macro_body() -> None:
    # The manual's INSIRP: the first TERMIN closes the IRP, the second the DEFINE.
    src = """DEFINE INSIRP INSN,ADDR
IRP X,,[ADDR]
\tINSN,X
TERMIN
TERMIN
P=17
A=1 ? B=2 ? C=3
INSIRP PUSH P,[A,B,C]
"""
    push = 0o261740  # PUSH 17,
    assert words(src) == [xwd(push, 1), xwd(push, 2), xwd(push, 3)]


def test_macro_errors() -> None:
    assert "no TERMIN" in errors("DEFINE FOO\n1\n")[0]
    # Errors inside an expansion are reported at the call, naming the macro.
    (msg,) = errors("DEFINE BAD\nUNDEF\nTERMIN\n  BAD")
    assert msg == "<source>:4:3: undefined symbol UNDEF (in macro BAD)"


def test_runaway_recursion_is_stopped() -> None:
    msgs = errors("DEFINE LOOP\nLOOP\nTERMIN\nLOOP")
    assert any("runaway" in m or "endless" in m for m in msgs)


def test_manual_backwards_irp_and_prog() -> None:
    # The manual's IRPB (an IRP backwards, by remote macros) and PROG/ENDPROG.
    src = """\tDEFINE IRPB X,Y,Z,BODY
\tDEFINE 1IRPB1 FOO
\tFOO!TERMIN
\tDEFINE 2IRPB2 BAR
\t1IRPB1 [DEFINE 1IRPB1 FOO
\tFOO
\tBAR]TERMIN
\tTERMIN
\tIRP X,Y,[Z]
\t2IRPB2 [BODY]
\tTERMIN
\t1IRPB1
\tTERMIN
\tIRPB FO,BA,[1,2,3][FO
]
\tDEFINE PROG VARS
\tIRP X,,[VARS]
\t\tPUSH P,X
\tTERMIN
\tDEFINE ENDPROG FOO
\tFOO
\tTERMIN
\tDEFINE 2PROG2 BAR
\tENDPROG [DEFINE ENDPROG FOO
\tFOO
\tBAR]TERMIN
\tTERMIN
\tIRP X,,[VARS]
\t2PROG2 [POP P,X]
\tTERMIN
\tTERMIN
P=17
\tPROG [1,2,3]
\tENDPROG
"""
    push, pop = 0o261740, 0o262740  # PUSH 17, and POP 17,
    assert words(src) == [3, 2, 1, xwd(push, 1), xwd(push, 2), xwd(push, 3),
                          xwd(pop, 3), xwd(pop, 2), xwd(pop, 1)]  # fmt: skip


def test_evaluated_and_keepstrung_arguments() -> None:
    # The manual's TYPECH #CHAR: an evaluated dummy is passed by value, so "; works.
    src = "A=1\nP=17\nTYO=100\nDEFINE TYPECH #CHAR\n\tMOVEI A,CHAR\n\tPUSHJ P,TYO\nTERMIN\n"
    assert words(src + 'TYPECH ";\n') == [xwd(0o201040, 0o73), xwd(0o260740, 0o100)]
    # The manual's ASCNT &KSTR&: the delimiters stay with the argument.
    src = "DEFINE ASCNT &KSTR&\n.LENGTH KSTR,,[ASCII KSTR]!TERMIN\n"
    # (The body ends without a line end, and a call ended by one drops it: the ";"
    # ends this call instead.)
    assert words(src + 'ASCNT "AB" ;\nEND') == [xwd(2, 0o101), 0o406040_000000]


def test_old_style_wholeline_and_bracket_call() -> None:
    # "A/" is the old way of writing "-A" (whole line).
    assert words("DEFINE W A/\nA\nTERMIN\nW 1,2\n") == [3]
    # Any open bracket makes a parenthesized call.
    assert words("DEFINE P2 A,B\n<A>+<B>\nTERMIN\nP2[1,2]\n") == [3]
