"""The command line: one module per command group, on top of every other layer.

:mod:`~adjudicator.cli.group` is the click group and its shared plumbing (console,
exit statuses, progress); :mod:`~adjudicator.cli.commands` the record commands (check,
replay, legal, explain, variants); :mod:`~adjudicator.cli.records` samples and
simulate; :mod:`~adjudicator.cli.web` serve; :mod:`~adjudicator.cli.conformance`
the conformance kit.
"""

from adjudicator.cli.commands import main

__all__ = ["main"]
