"""``python -m cardroom`` runs the command line."""

from cardroom.cli.main import main

main()
