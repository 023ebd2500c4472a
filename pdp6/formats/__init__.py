"""The file formats: how the machine's words and state live in host files.

What belongs here: reading and writing what a PDP-6 program or the machine leaves on
the host's disk, and nothing that talks to a person.  ``wordfile`` (36-bit words in
byte files), ``loader`` (SBLK and RIM binaries, symbols, the line map ``midas``
writes), ``checksum`` (SBLK block checksums), ``readin`` (paper tape frames and the
read-in procedure), ``snapshot`` (the whole machine saved and restored), ``sourcemap``
(addresses to source lines) and ``hostfiles`` (bounded reads, writability checked
before a run).  A new binary or tape format goes here.

These modules may use the machine's core (:mod:`pdp6`'s top level, ``cpu``,
``devices``) and each other, never :mod:`pdp6.host`; the core never imports them
(``tests/test_layers.py``).
"""
