"""Paper tape: reader 104 (Type 760, 400 frames/s) and punch 100 (Type 761, 63.3 frames/s).

Reference section 2.4 [AAP newemu/pt.c].  CONO and CONI share one layout: 040 binary
mode, 020 busy, 010 done flag, 7 PIA; the reader's CONI also shows 400 (motor on).
CONO first clears mode, busy, flag and PIA and then sets what it names.  A tape on the
host is a file of frames, one byte each (bit 0200 is hole 8).

Reader, ASCII mode: every frame is read, leader included.  Binary mode: six frames that
have hole 8 make one 36-bit word, first frame highest; frames without hole 8 are skipped.
Setting busy clears the buffer and starts reading; DATAI clears the flag and reads on.
Punch: one frame per DATAO: the low 8 bits in ASCII mode, (data & 77) | 200 in binary.
The punch's motor takes a second to come up to speed and stops after five idle seconds;
while it runs, the reluctance pickup offers a punch cycle every 15.8 ms, and a frame is
done at the first pickup after it was given (aap ``cycle_ptp``).
"""

from __future__ import annotations

from pathlib import Path

from ..iobus import NEVER, Device, Reg

READER_FRAME_NS = 2_500_000  # 400 frames a second
PUNCH_FRAME_NS = 15_797_788  # 63.3 frames a second
PUNCH_MOTOR_START_NS = 1_000_000_000  # aap: the motor is up to speed a second after a go
PUNCH_MOTOR_IDLE_NS = 5_000_000_000  # ... and stops after five seconds without one


class _TapeDevice(Device):
    frame_ns = READER_FRAME_NS
    registers: tuple[Reg, ...] = (
        Reg("binary", 1), Reg("busy", 1), Reg("flag", 1), Reg("pia", 3), Reg("done_at"),
    )  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.binary = False
        self.busy = False
        self.flag = False
        self.pia = 0
        self.done_at = NEVER

    def cono(self, value: int) -> None:
        self.binary = bool(value & 0o40)
        self.busy = bool(value & 0o20)
        self.flag = bool(value & 0o10)
        self.pia = value & 7

    def _status(self) -> int:
        return (
            (0o40 if self.binary else 0)
            | (0o20 if self.busy else 0)
            | (0o10 if self.flag else 0)
            | self.pia
        )

    def request(self) -> int:
        return self.pia if self.flag else 0

    def reset(self) -> None:
        self.binary = self.busy = self.flag = False
        self.pia = 0
        self.done_at = NEVER

    def next_event(self) -> int:
        return self.done_at


class PaperTapeReader(_TapeDevice):
    """Device 104.  ``attach(path_or_bytes)`` mounts a tape; ``fast`` reads at 10 us/frame."""

    code = 0o104
    name = "PTR"
    registers = (
        *_TapeDevice.registers, Reg("tape", shown=False), Reg("position"), Reg("buffer", 36),
        Reg("frames_in_word", 3),
    )  # fmt: skip

    def __init__(self, fast: bool = False) -> None:
        super().__init__()
        self.tape = b""
        self.position = 0
        self.buffer = 0
        self.frames_in_word = 0
        self.frame_ns = 10_000 if fast else READER_FRAME_NS

    def attach(self, tape: str | Path | bytes) -> None:
        """Mount a tape: a file of frames (one byte each) or the frames themselves."""
        self.tape = bytes(tape) if isinstance(tape, (bytes, bytearray)) else Path(tape).read_bytes()
        self.position = 0

    @property
    def remaining(self) -> int:
        return len(self.tape) - self.position

    def cono(self, value: int) -> None:
        super().cono(value)
        if self.busy:
            self._start()

    def _start(self) -> None:
        self.buffer = 0
        self.frames_in_word = 0
        self.done_at = self.now + self.frame_ns if self.position < len(self.tape) else NEVER

    def coni(self) -> int:
        return self._status() | (0o400 if self.busy else 0)

    def data_in(self) -> int:
        return self.buffer

    def on_datai(self) -> None:
        self.flag = False
        self.busy = True
        self._start()

    def service(self, now: int) -> None:
        """A frame passes the read head."""
        self.done_at = NEVER
        if self.position >= len(self.tape):
            return  # out of tape: the reader stays busy, no flag
        frame = self.tape[self.position]
        self.position += 1
        if not self.binary:
            self.buffer = frame
            self._word_done()
            return
        if frame & 0o200:
            self.buffer = ((self.buffer << 6) | (frame & 0o77)) & 0o777777777777
            self.frames_in_word += 1
            if self.frames_in_word == 6:
                self._word_done()
                return
        if self.position < len(self.tape):
            self.done_at = now + self.frame_ns

    def _word_done(self) -> None:
        self.busy = False
        self.flag = True


class PaperTapePunch(_TapeDevice):
    """Device 100.  Punched frames accumulate in ``punched`` (save with ``write``)."""

    code = 0o100
    name = "PTP"
    registers = (
        *_TapeDevice.registers, Reg("punched", shown=False), Reg("motor_up_at"),
        Reg("motor_off_at"),
    )  # fmt: skip

    def __init__(self, fast: bool = False) -> None:
        super().__init__()
        self.punched = bytearray()
        self.frame_ns = 10_000 if fast else PUNCH_FRAME_NS
        self.motor_start_ns = 0 if fast else PUNCH_MOTOR_START_NS
        self.motor_up_at = NEVER  # when the running motor came (or comes) up to speed
        self.motor_off_at = 0  # when it stops, unless given more work first

    def coni(self) -> int:
        return self._status()

    def cono(self, value: int) -> None:
        super().cono(value)
        if self.busy:
            self._go()
        else:
            self.done_at = NEVER  # no punch cycle to wait for

    def datao(self, word: int) -> None:
        self.punched.append((word & 0o77) | 0o200 if self.binary else word & 0o377)
        self.flag = False
        self.busy = True
        self._go()

    def _go(self) -> None:
        """Busy: start the motor if it is off, and finish at the next pickup."""
        now = self.now
        if self.motor_up_at == NEVER or now >= self.motor_off_at:
            self.motor_up_at = now + self.motor_start_ns
        self.motor_off_at = max(now, self.motor_up_at) + PUNCH_MOTOR_IDLE_NS
        cycles = max(0, now - self.motor_up_at) // self.frame_ns + 1
        self.done_at = self.motor_up_at + cycles * self.frame_ns

    def service(self, now: int) -> None:
        self.done_at = NEVER
        self.busy = False
        self.flag = True
        self.motor_off_at = now + PUNCH_MOTOR_IDLE_NS

    def write(self, path: str | Path) -> None:
        Path(path).write_bytes(bytes(self.punched))
