"""`python -m orchestrator` is the `skillweave` command."""

from orchestrator.cli import main

main()
