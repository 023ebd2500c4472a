"""A child process that runs one function per input, for the fuzz tests.

A hang inside one call (a huge power computed in C, an endless loop) cannot be interrupted
from Python in the same process, so the fuzz tests run the code under test here: a call
that does not return in time is a failure that shows the input, and the child is killed
instead of the test run hanging.  An exception in the child fails the test with its
traceback.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

_CONTEXT = multiprocessing.get_context("spawn")  # no fork of a process with threads


def _serve(conn: Connection, func: Callable[[Any], Any]) -> None:
    while True:
        arg = conn.recv()
        try:
            conn.send((True, func(arg)))
        except BaseException:  # noqa: BLE001 - every failure goes back to the test
            conn.send((False, traceback.format_exc()))


class Worker:
    """Calls ``func`` (a module-level function: it is sent to a fresh interpreter) in a
    child process; use as a context manager so the child is always stopped."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.conn: Connection | None = None
        self.process: Any = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _start(self) -> Connection:
        if self.conn is None:
            self.conn, child = _CONTEXT.Pipe()
            self.process = _CONTEXT.Process(target=_serve, args=(child, self.func), daemon=True)
            self.process.start()
            child.close()
        return self.conn

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join()
        self.conn = self.process = None

    def __call__(self, arg: Any, timeout: float) -> Any:
        """``func(arg)`` in the child; AssertionError if it raised or took too long."""
        conn = self._start()
        conn.send(arg)
        if not conn.poll(timeout):
            self.stop()
            raise AssertionError(f"no answer within {timeout} s (a hang?) for {arg!r:.2000}")
        try:
            ok, value = conn.recv()
        except EOFError:
            self.stop()
            raise AssertionError(f"the child process died for {arg!r:.2000}") from None
        if not ok:
            raise AssertionError(f"raised for {arg!r:.2000}:\n{value}")
        return value
