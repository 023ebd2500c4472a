"""Saving and restoring the whole machine: core, processor, APR, PI and device registers.

A snapshot file is versioned and checked, so that a corrupt or foreign file is refused
with a clear message and the running machine is left exactly as it was::

    PDP6SNAP 1\\n                   magic and format version
    <sha256 of the payload, hex>\\n
    <payload: zlib-compressed JSON>

The JSON holds the core size, the processor state vector, core as little-endian 64-bit
words (base64), and each device's registers.  A device takes part through its register
table (``Device.registers``, which ``show devices`` and ``examine`` read too); the host
side (the terminal, the files a tape came from) is not machine state and is not saved.
:func:`read_snapshot` checks everything before :func:`restore` changes anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..cpu import state as S
from ..iobus import Device
from ..machine import Machine
from ..memory import ADDRESS_SPACE
from ..word import MASK36
from .hostfiles import read_input
from .loader import SNAPSHOT_MAGIC

MAGIC = SNAPSHOT_MAGIC
VERSION = 1


class SnapshotError(ValueError):
    """A snapshot that cannot be written or restored; the message names the file."""


@dataclass
class Snapshot:
    """A checked snapshot, ready to restore."""

    core_words: int
    state: list[int]
    memory: np.ndarray
    devices: dict[str, dict[str, Any]]
    source: str = "snapshot"  # the file it came from, for messages


def _encode_field(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": base64.b64encode(bytes(value)).decode("ascii")}
    return value


def _device_fields(device: Device) -> tuple[str, ...] | None:
    return tuple(r.attr for r in device.registers) or None


def unsaved_devices(machine: Machine) -> list[str]:
    """Names of attached devices whose registers a snapshot cannot hold."""
    return [d.name for d in machine.bus.devices.values() if _device_fields(d) is None]


def save(machine: Machine, path: str | Path) -> None:
    """Write ``machine``'s state to ``path`` (see the module docstring for the format)."""
    machine.bus.service_due()  # what is due by now, as before the next instruction
    devices = {}
    for dev in machine.bus.devices.values():
        fields = _device_fields(dev)
        if fields is not None:
            devices[dev.name] = {
                "code": dev.code,
                "fields": {f: _encode_field(getattr(dev, f)) for f in fields},
            }
    memory = np.asarray(machine._mem, dtype="<i8").tobytes()
    doc = {
        "core_words": machine.core_words,
        "state": [int(x) for x in machine._st],
        "memory": base64.b64encode(memory).decode("ascii"),
        "devices": devices,
    }
    payload = zlib.compress(json.dumps(doc).encode("ascii"), 6)
    digest = hashlib.sha256(payload).hexdigest().encode("ascii")
    data = MAGIC + b" %d\n" % VERSION + digest + b"\n" + payload
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise SnapshotError(f"cannot write snapshot {path}: {exc.strerror}") from None


def read_snapshot(path: str | Path) -> Snapshot:
    """Read and check a snapshot file; raise :class:`SnapshotError` saying what is wrong."""
    try:
        data = read_input(path)
    except OSError as exc:
        raise SnapshotError(f"cannot read snapshot {path}: {exc.strerror}") from None
    if not data.startswith(MAGIC + b" "):
        raise SnapshotError(f"{path} is not a PDP-6 snapshot (it does not start with PDP6SNAP)")
    first, _, rest = data.partition(b"\n")
    version = first[len(MAGIC) + 1 :].decode("ascii", "replace").strip()
    if version != str(VERSION):
        raise SnapshotError(
            f"{path} is a version {version} snapshot; this pdp6 reads version {VERSION}"
        )
    digest, _, payload = rest.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode("ascii") != digest:
        raise SnapshotError(f"{path} is corrupt: its checksum does not match its contents")
    try:
        doc = json.loads(zlib.decompress(payload))
        return _checked(doc, str(path))
    except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SnapshotError(f"{path} is corrupt: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"{path} is corrupt: {exc}") from None


def _checked(doc: dict[str, Any], source: str) -> Snapshot:
    """A :class:`Snapshot` from the decoded JSON, every field checked."""
    core_words = doc["core_words"]
    if not isinstance(core_words, int) or not 16 < core_words <= ADDRESS_SPACE:
        raise ValueError(f"bad core size {core_words!r}")
    state = doc["state"]
    if (
        not isinstance(state, list)
        or len(state) != S.SIZE
        or not all(isinstance(x, int) and 0 <= x < 1 << 63 for x in state)
    ):
        raise ValueError("bad processor state")
    memory = np.frombuffer(base64.b64decode(doc["memory"], validate=True), dtype="<i8")
    if len(memory) != ADDRESS_SPACE:
        raise ValueError(f"core holds {len(memory)} words, not {ADDRESS_SPACE}")
    if ((memory < 0) | (memory > MASK36)).any():
        raise ValueError("core holds a value that is not a 36-bit word")
    devices = doc["devices"]
    if not isinstance(devices, dict):
        raise ValueError("bad device list")
    for name, entry in devices.items():
        if not isinstance(entry.get("code"), int) or not isinstance(entry.get("fields"), dict):
            raise ValueError(f"bad registers for device {name}")
    return Snapshot(core_words, state, memory.astype(np.int64), devices, source)


def _decoded_field(device: Device, name: str, value: Any) -> Any:
    """``value`` for ``device.name``, if it has the type the register holds now."""
    current = getattr(device, name, None)
    if isinstance(current, (bytes, bytearray)):
        if not (isinstance(value, dict) and isinstance(value.get("bytes"), str)):
            raise ValueError(f"{device.name}.{name} should hold bytes")
        raw = base64.b64decode(value["bytes"], validate=True)
        reg = device.register(name)
        if reg is not None and reg.check is not None:
            reg.check(raw)
        return bytearray(raw) if isinstance(current, bytearray) else raw
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{device.name}.{name} should be true or false")
        return value
    if isinstance(current, int) or current is None:
        if not (value is None or (isinstance(value, int) and not isinstance(value, bool))):
            raise ValueError(f"{device.name}.{name} should be a number")
        reg = device.register(name)
        if value is not None and reg is not None and not reg.fits(value):
            raise ValueError(f"{device.name}.{name} holds {value:o}: wider than {reg.bits} bits")
        return value
    raise ValueError(f"{device.name}.{name} cannot be restored")


def restore(machine: Machine, snap: Snapshot) -> None:
    """Put ``snap`` into ``machine``.  Everything is checked against the machine first
    (core size, attached devices, register types); on any mismatch nothing changes."""
    where = snap.source
    if snap.core_words != machine.core_words:
        raise SnapshotError(
            f"{where} has {snap.core_words // 1024}K words of core; this machine has "
            f"{machine.core_words // 1024}K"
        )
    updates: list[tuple[Device, dict[str, Any]]] = []
    for name, entry in sorted(snap.devices.items(), key=lambda item: item[1]["code"]):
        dev = machine.bus.get(name)
        if dev is None or dev.code != entry["code"]:
            raise SnapshotError(
                f"{where} has device {name} ({entry['code']:o}), which this machine does not"
                " have attached"
            )
        fields = _device_fields(dev) or ()
        unknown = set(entry["fields"]) - set(fields)
        if unknown:
            raise SnapshotError(f"{where}: {name} has no register {sorted(unknown)[0]}")
        try:
            values = {f: _decoded_field(dev, f, v) for f, v in entry["fields"].items()}
        except ValueError as exc:
            raise SnapshotError(f"{where} is corrupt: {exc}") from None
        updates.append((dev, values))
    # Checked: from here on nothing can fail.
    if isinstance(machine._mem, np.ndarray):
        machine._mem[:] = snap.memory
        machine._st[:] = np.asarray(snap.state, dtype=np.int64)
    else:
        machine._mem[:] = snap.memory.tolist()
        machine._st[:] = list(snap.state)
    for dev, values in updates:
        for f, v in values.items():
            setattr(dev, f, v)
        dev.registers_changed()
        machine.bus.publish(dev)
    machine.bus.refresh()
