"""``python -m adjudicator``: the same command line as ``adjudicator``."""

from adjudicator.cli.commands import main

main()
