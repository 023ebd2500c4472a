"""The benchmark's sources and report (the speed itself is measured by ``midas bench``,
not asserted: a test cannot know how busy the machine is)."""

from midas import assemble
from midas.bench import generate, generate_macro_heavy, run_benchmark


def test_generated_source_is_large_and_mixed() -> None:
    source = generate(10000)
    assert source.count("\n") >= 10000
    assert "[" in source and "REPEAT" in source and "IRP" in source and "PUSHAC" in source


def test_macro_heavy_source_is_mostly_expansion() -> None:
    source = generate_macro_heavy(1000)
    assert 1000 <= source.count("\n") < 1100
    for construct in ("REPEAT", "IRPC", "IRPS", "IRP ", "CONC", "\\.RPCNT", "\\L"):
        assert construct in source, construct
    program = assemble(source, "macro.mid")
    assert not program.errors and not program.warnings
    # Several words per source line, most of them from expansions.
    assert len(program.words) > 2.5 * source.count("\n")


def test_report_names_both_cases() -> None:
    report = run_benchmark(400, 1)
    assert report.startswith("plain: ") and "\nmacro-heavy: " in report
