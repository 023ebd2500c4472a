"""``python -m midas`` runs the ``midas`` command."""

from .cli import main

main()
