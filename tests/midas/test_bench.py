"""The speed target: 20,000 source lines a second (slow: run with -m slow)."""

import re

import pytest

from midas.bench import generate, run_benchmark


def test_generated_source_is_large_and_mixed() -> None:
    source = generate(10000)
    assert source.count("\n") >= 10000
    assert "[" in source and "REPEAT" in source and "IRP" in source and "PUSHAC" in source


@pytest.mark.slow
def test_speed() -> None:
    report = run_benchmark(20000, 3)
    print(report)
    per_cpu_second = int(re.search(r"\(([\d,]+) per second", report).group(1).replace(",", ""))
    # Processor time, not wall-clock time: other processes on a shared machine stretch
    # the latter.
    assert per_cpu_second >= 20000, report
