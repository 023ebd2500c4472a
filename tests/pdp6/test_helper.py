"""The translator's helper process: what it answers, and machines that use it.

The helper specializes instruction words and compiles blocks in a second process, so
the python engine goes on interpreting meanwhile.  What runs translated then depends on
the host's timing, never what the program does: every run here is checked against the
interpreter to the bit.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pdp6 import Machine
from pdp6.cpu import helper, translate
from pdp6.cpu.optable import build
from pdp6.host.bench import build_mix

from .conftest import ins
from .test_translate import START, load, state

LOOP = [ins("MOVEI", 1, 0), ins("ADDI", 1, 3), ins("SOJG", 2, START + 1), ins("JRST", 4, 0)]


@pytest.fixture
def aid() -> helper.Helper:
    """The process's helper (the tests turn it off for every other test)."""
    running = helper.shared()
    assert running is not None, "the helper process did not start"
    return running


def with_helper(m: Machine) -> Machine:
    m._run.use_helper = True
    return m


def test_the_helper_specializes_as_the_engine_does(aid: helper.Helper) -> None:
    optab = tuple(int(x) for x in build())
    local = translate.Translator(1 << 18, optab, number=99)
    words = [(w, START + k) for k, w in enumerate(LOOP)]
    aid.ask(("key", 99, 1 << 18, optab), answered=False)
    aid.ask(("ins", 99, words))
    (answer,) = aid.wait()
    assert answer[0] == "ins" and answer[1] == 99
    named: list[str] = []
    for (ir, pc), (ir2, pc2, entry, refused, texts) in zip(words, answer[2], strict=True):
        assert (ir, pc) == (ir2, pc2) and refused is None
        mine = local.specialized(ir, pc)
        assert mine is not None and entry is not None
        # The same code, but for the names: the helper's are its own ("_h" and a number),
        # so a block that strings its code and the engine's together never mixes them.
        assert [unnamed(line) for line in entry.lines] == [unnamed(line) for line in mine.lines]
        assert not any(re.search(r"_\d", line) for line in entry.lines)
        named.extend(line for line in entry.lines if "_h" in line)
        assert (entry.time, entry.spent, entry.taken) == (mine.time, mine.spent, mine.taken)
        theirs = sorted(unnamed(text) for text in texts.values())
        assert theirs == sorted(unnamed(text) for text in
                                local.residual_texts(mine.effects.residuals).values())  # fmt: skip
        assert unnamed(entry.nxt) == unnamed(mine.nxt)
    assert named  # (ADDI's carries, SOJG's count)


def unnamed(text: str) -> str:
    return re.sub(r"_h?\d+\b", "_N", text)


def test_the_helper_compiles_a_block(aid: helper.Helper) -> None:
    aid.ask(("code", "tag", "def _block():\n    return 7\n", "<test>"))
    (answer,) = aid.wait()
    assert answer[:2] == ("code", "tag")
    namespace: dict[str, object] = {}
    exec(__import__("marshal").loads(answer[2]), namespace)  # noqa: S102
    assert namespace["_block"]() == 7  # type: ignore[operator]


def test_a_machine_using_the_helper_runs_as_the_interpreter(aid: helper.Helper) -> None:
    start, words = build_mix(30)
    runs = []
    for engine in ("python", "interpreter"):
        m = Machine(engine=engine)
        if engine == "python":
            with_helper(m)
        for a, w in words.items():
            m.memory[a] = w
        m.pc = start
        # In slices, so the engine looks for the helper's answers between them.
        stops = [m.run(max_instructions=20_000)]
        while stops[-1].reason == "limit":
            stops.append(m.run(max_instructions=20_000))
        runs.append((stops, m.pc, m.elapsed_ns, list(m.memory[0:0o22000])))
    assert runs[0] == runs[1]


def test_blocks_the_helper_made_run_translated(aid: helper.Helper) -> None:
    fast = with_helper(load("python", LOOP, acs={2: 1_000_000}))
    ref = load("interpreter", LOOP, acs={2: 1_000_000})
    first = fast.run(max_instructions=50_000)
    fast._run.settle()  # everything asked so far is answered
    fast._run.slow_steps = 0
    second = fast.run(max_instructions=50_000)
    ref.run(max_instructions=50_000)
    assert state(fast, second) == state(ref, ref.run(max_instructions=50_000))
    assert first.reason == second.reason == "limit"
    assert START + 1 in fast._run.blocks or START + 2 in fast._run.blocks
    assert fast._run.slow_steps < 1000  # the loop ran in the helper's block


def test_without_a_helper_the_engine_translates_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helper, "_helper", [None])  # as if it could not start
    fast = with_helper(load("python", LOOP, acs={2: 10_000}))
    ref = load("interpreter", LOOP, acs={2: 10_000})
    assert state(fast, fast.run(max_instructions=100_000)) == state(
        ref, ref.run(max_instructions=100_000)
    )
    assert fast._run.blocks  # translated in process


def test_a_helper_that_dies_leaves_the_machine_running(monkeypatch: pytest.MonkeyPatch) -> None:
    dying = helper.Helper()
    monkeypatch.setattr(helper, "_helper", [dying])
    dying.ask(("code", "tag", "x = 1\n", "<test>"))
    assert dying.wait()  # it has answered: engines now leave translating to it
    dying.process.kill()
    dying.process.wait()
    loop = [*LOOP[:1], ins("ADDI", 1, 5), *LOOP[2:]]  # no block of it anywhere yet
    fast = with_helper(load("python", loop, acs={2: 100_000}))
    ref = load("interpreter", loop, acs={2: 100_000})
    assert state(fast, fast.run(max_instructions=100_000)) == state(
        ref, ref.run(max_instructions=100_000)
    )
    assert helper.running() is None  # noticed, and not used again
    assert fast._run.blocks  # translated in process instead


def test_the_helper_is_wanted_only_with_a_second_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(helper.ENV, "1")
    monkeypatch.setattr(helper, "cores", lambda: 1)
    assert not helper.wanted()
    monkeypatch.setattr(helper, "cores", lambda: 2)
    assert helper.wanted()
    monkeypatch.setenv(helper.ENV, "0")
    assert not helper.wanted()


def test_the_helper_ends_with_its_input() -> None:
    # A plain subprocess: it never imports the user's script, and ends quietly when the
    # engine's process closes the pipe.
    proc = subprocess.run([sys.executable, "-m", "pdp6.cpu.helpermain"], input=b"",
                          capture_output=True, timeout=60)  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == b""


def test_mac_hacks_search_with_the_helper_is_the_interpreters(aid: helper.Helper) -> None:
    # A real program's branchy code, in slices (as a game runs): blocks grown from the
    # helper's instructions and the engine's own, compiled there, give the same move in
    # the same instructions and emulated time.
    from machack.bench_engines import SEARCH_FEN
    from machack.session import Session

    replies = []
    for engine in ("python", "interpreter"):
        session = Session(engine=engine)
        if engine == "python":
            with_helper(session.machine)
        session.setup(SEARCH_FEN)
        session.command("SETD 2")
        replies.append([session.command("GO") for _ in range(2)])
        if engine == "python":
            assert session.machine._run.blocks  # some of it ran translated
    assert [(r.text, r.instructions, r.emulated_us) for r in replies[0]] == [
        (r.text, r.instructions, r.emulated_us) for r in replies[1]
    ]
