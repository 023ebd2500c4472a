"""Text and data pseudo-ops: ASCII, ASCIZ, SIXBIT, SQUOZE, XWD, .BYTE, .LENGTH, ...
(reference 1.8; MIDAS manual nodes Bytes and Pseudos)."""

from .helpers import asm, errors, word, words, xwd

# ASCII "A" left justified: 0o101 << 29 = 0o404000000000.
A_WORD = 0o404000_000000
# "ABCDE": 1000001 1000010 1000011 1000100 1000101 0 ->
#          100 000 110 000 101 000 011 100 010 010 001 010 = 0o406050342212.
ABCDE = 0o406050_342212


def test_ascii() -> None:
    assert word("ASCII /A/") == A_WORD
    assert words("ASCII /ABCDE/") == [ABCDE]
    assert words("ASCII /ABCDEA/") == [ABCDE, A_WORD]
    assert word("ASCII ZAZ") == A_WORD  # any delimiter


def test_asciz_adds_a_zero_byte() -> None:
    assert words("ASCIZ /A/") == [A_WORD]
    assert words("ASCIZ /ABCDE/") == [ABCDE, 0]  # exactly five: a further word


def test_asciz_line_ends_are_crlf() -> None:
    # CR = 15, LF = 12: 0001101 0001010 then zeros -> 000 110 100 010 100 ... = 0o064240000000
    assert words("ASCIZ /\n/") == [0o064240_000000]


def test_ascic_fills_with_control_c() -> None:
    # "A" then ^C (0000011) to the end of the word:
    # 1000001 0000011 0000011 0000011 0000011 0
    # -> 100 000 100 000 110 000 011 000 001 100 000 110 = 0o404060301406
    assert words("ASCIC /A/") == [0o404060_301406]


def test_dot_ascii_inserts_values() -> None:
    # .ASCII /X!N / with N=12 (octal): "X12 " and a zero byte.
    # X=1011000 1=0110001 2=0110010 sp=0100000 0 -> 101 100 001 100 010 110 010 010 000 000 000 000
    assert words("N=12\n.ASCII /X!N /") == [0o541426_220000]


def test_sixbit() -> None:
    assert word("SIXBIT /ABC/") == 0o414243_000000
    assert words("SIXBIT /ABCDEFG/") == [0o414243_444546, 0o470000_000000]
    assert word("SIXBIT /abc/") == 0o414243_000000


def test_text_of_several_words_stored_before_the_word_that_holds_the_last() -> None:
    p = asm("FOO: ASCII /ABCDEA/\nBAR: 0\nEND")
    assert p.symbols == {"FOO": 0o100, "BAR": 0o102}
    # ... and inside a literal
    p = asm("MOVEI 1,[ASCIZ /ABCDE/]\nEND")
    assert p.words == {0o100: xwd(0o201040, 0o101), 0o101: ABCDE, 0o102: 0}


def test_multi_word_text_inside_a_word() -> None:
    # MIDAS assembles the statement again for each further word of the text: the first
    # word takes the fields before the text, the last one those after it, the words
    # between stand alone (the 1967 monitor: a device name and two more words).
    assert words("4,,SIXBIT /   TTYDDT   INPUT /") == [
        xwd(4, 0o646471),  # 4,,'   TTY'
        0o444464_000000,  # 'DDT   '
        0o515660_656400,  # 'INPUT '
    ]
    assert words("SIXBIT /ABCDEFGH/+1") == [0o414243_444546, 0o475000_000001]
    assert words("MOVE 1,[1,,SIXBIT /ABCDEFGH/]") == [
        xwd(0o200040, 0o101), xwd(1, 0o444546), 0o475000_000000,
    ]  # fmt: skip
    program = asm("FOO: RADIX 10.\nSIXBIT /ABCDEFGH/\nBAR: 0\n")
    assert program.symbols["FOO"] == 0o100 and program.symbols["BAR"] == 0o102
    assert program.words[0o101] == 0o475000_000000  # read back in octal under RADIX 10.


def test_multi_word_text_is_not_a_value_outside_a_statement() -> None:
    assert "used as a value" in errors("<ASCII /ABCDEFGH/>")[0]
    assert "used as a value" in errors("FOO=SIXBIT /ABCDEFGH/")[0]
    assert "used as a value" in errors("IFN SIXBIT /ABCDEFGH/,[1]")[0]


def test_quote_at_the_end_of_a_line_is_cr() -> None:
    # MIDAS takes the character after " whatever it is; a line ends with CR LF, so the
    # value is CR (15) and the LF still ends the statement.
    for eol in ("\n", "\r\n"):
        assert words(eol.join(['MOVEI 1,"', "2", "MOVEI 3,^", ""])) == [
            xwd(0o201040, 0o15), 2, xwd(0o201140, 0o15),
        ]  # fmt: skip
    assert "missing character after '" in errors("MOVEI 1,'\n")[0]


def test_first_and_nth_word() -> None:
    assert word("MOVE 1,.1STWD ASCII /ABCDEA/") == xwd(0o200040, 0) + (ABCDE & 0o777777)
    assert word("<.NTHWD 2,ASCII /ABCDEA/>") == A_WORD


def test_squoze() -> None:
    # A = 11 * 40^5 = 010310,,700000; BEG = 011346,,105000 (reference 2.4)
    assert word("SQUOZE 0,A") == 0o010310_700000
    assert word("SQUOZE 0,BEG") == 0o011346_105000
    # The code divided by 4 goes into the top four bits: 10/4 = 2 -> 4.7 (local).
    assert word("SQUOZE 10,BEG") == 0o111346_105000
    # .RSQZ right-justifies: BEG = 12*40^2 + 15*40 + 17 = 0o23427
    assert word(".RSQZ 0,BEG") == 12 * 1600 + 15 * 40 + 17


def test_xwd_and_length() -> None:
    assert word("XWD 1,2") == xwd(1, 2)
    assert word("XWD -1,FOO\nFOO=5") == xwd(0o777777, 5)
    assert word(".LENGTH /HELLO/") == 5
    assert word(".LENGTH ,A\nB,") == 4  # CRLF counts two characters


def test_byte_mode() -> None:
    # The manual's example: 12., 6, 12., 6 bit bytes make 222233,,111144.
    assert words(".BYTE 12.,6\n2222\n33\n1111\n44\n.BYTE\n") == [xwd(0o222233, 0o111144)]
    # A partial word is completed by .BYTE with no arguments.
    assert words(".BYTE 18.\n1\n.BYTE\n5") == [xwd(1, 0), 5]
    # Negative sizes leave zero bits.
    assert words(".BYTE 6,-6\n77\n77\n77\n.BYTE") == [0o770077_007700]


def test_byte_mode_in_a_grouping_is_a_value() -> None:
    # <.BYTE 7 ? ^M ? ^J> is a CRLF in ASCII (the manual).
    assert word("<.BYTE 7 ? ^M ? ^J>") == 0o064240_000000


def test_byte_mode_dot_is_a_byte_pointer() -> None:
    # Before the first byte . is 440700,,100: ILDB of it gets byte 0 of word 100.
    # After one 7-bit byte it is 350700,,100.
    assert words(".BYTE 7\nX=.\n1\nY=.\n.BYTE\nX\nY") == [
        1 << 29,
        xwd(0o440700, 0o100),
        xwd(0o350700, 0o100),
    ]


def test_byte_functions() -> None:
    assert word(".BP 7770") == 0o031100_000000  # the manual's example
    assert word(".BP 7770,FOO\nFOO=100") == xwd(0o031100, 0o100)
    assert word(".BM 030600") == 0o770  # the manual
    assert word(".LDB 030600,1234") == 0o23  # the manual
    assert word(".DPB 11,030600,4444") == 0o4114  # the manual
    assert word(".DPB 0,30300,-1,") == xwd(0o777777, 0o777707)  # the manual
    assert word(".IBP <440700,,>") == xwd(0o350700, 0)  # the manual
    assert word(".IBP <010700,,100>") == xwd(0o350700, 0o101)
    assert word(".LZ 1") == 35
    assert word(".TZ SETZ") == 35  # the manual
    assert word(".LZ SETZ") == 0
    assert word(".TZ 0") == 36


def test_op_runs_an_instruction() -> None:
    assert word(".OP SUB,5,2") == 3  # the manual's example
    assert words("X=.OP SUBM,5,2\nX\n.AVAL2") == [5, 3]  # the manual: returns 5, .AVAL2 = 3
    # The instruction is one field: <...> lets it hold an address (the immediate value).
    assert word(".OP ADDI,5,0") == 5
    assert word(".OP <ADDI 3>,5,0") == 0o10
    assert word(".OP <MOVNI 3>,0,0") == 0o777777_777775
    assert word(".OP HRLZ,0,123") == xwd(0o123, 0)
    assert word(".OP <LSH 3>,3,0") == 0o30
    assert word(".OP <ASH -1>,-4,0") == 0o777777_777776
    assert word(".OP IMUL,6,7") == 0o52
    assert words(".OP <CAIE 5>,4,0\n.ASKIP") == [4, 0]
    assert words(".OP <CAIE 5>,5,0\n.ASKIP") == [5, 0o777777_777777]
    assert word(".OP FMP,2.0,3.0") == 0o203_600000000  # 6.0 = 0.75 * 2^3
    assert word(".OP <FSC 1>,1.0,0") == 0o202_400000000  # 2.0
    assert "cannot execute" in errors(".OP PUSHJ,0,0")[0]


def test_op_operands_may_be_separated_by_blanks() -> None:
    # MIDAS reads each operand with the field reader, which a blank ends.
    assert word(".OP SUB 5 2") == 3
    assert word(".OP ADD,3 4") == 7
    assert word(".OP IMUL  6 , 7") == 0o52
    assert words("X=.OP SUBM 5 2\nX\n.AVAL2") == [5, 3]
    assert "three operands" in errors(".OP ADD 3")[0]


def test_a_text_never_closed_is_named_where_it_opens() -> None:
    """It used to be reported at the end of the input (a line after the last one), with
    the missing END; the opening place was never named."""
    from midas import assemble

    program = assemble("A=1\nMSG: ASCIZ /HELLO, WORLD\nX: 0\nEND\n", filename="t.mid")
    assert [str(e) for e in program.errors] == [
        "t.mid:2:12: ASCIZ: the text opened with '/' is never closed (the input ended)",
        "t.mid:5:1: no END statement (the assembly ended at the end of the file)",
    ]
