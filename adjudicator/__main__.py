"""``python -m adjudicator``: the same command line as ``adjudicator``."""

from adjudicator.cli.main import main

main()
