"""``python -m machack`` is the ``machack`` command."""

from .cli import main

main()
