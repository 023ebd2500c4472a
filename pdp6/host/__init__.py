"""The host side: the ``pdp6`` command and what a person or a script uses the machine by.

What belongs here: the commands (``cli``, with the ``options`` they share), the
programmer's console and its command table (``console``), the debugger's engine
(``debugger``, with ``memrefs``, which finds what an instruction touches, and ``typein``,
DDT-style words typed in), the driver that runs a machine with its teletype (``runner``),
the terminal adapters (``terminal``), the 340's pictures and window (``render``), the
instruction trace (``trace``), the engine chosen at start-up (``autoengine``) and
``pdp6 bench``.  A new console command goes in ``console``; a new ``pdp6`` subcommand
in ``cli``.

The host may use everything else in :mod:`pdp6`; nothing outside it imports the host
(``tests/test_layers.py``), and no module of :mod:`pdp6` imports ``midas`` or
``machack`` (``pdp6 debug FILE.mid`` runs the ``midas`` command as a separate program).
"""
