"""adjudicator: the strict rules adjudicator for Skitgubbe and its family.

>>> from adjudicator import load_record, adjudicate
>>> report = adjudicate(load_record("sample_games/pagat_3p_full.json"))
>>> report.status, report.loser
('legal', 'Cai')
"""

# ruff: noqa: E402  (the imports follow the one call that must come before them)
from adjudicator import _startup

_startup.hold()  # first: the imports below take a while, and Ctrl-C may come meanwhile

from adjudicator import _native

_native.choose()  # before any engine module is imported: compiled, or from its sources

from adjudicator._version import __version__
from adjudicator.actions import Action
from adjudicator.cards import Card, card_code, card_text, parse_card
from adjudicator.engine.violations import IllegalActionError, Violation
from adjudicator.exceptions import AdjudicatorError
from adjudicator.play.adjudicate import Report, SessionReport, adjudicate, adjudicate_session
from adjudicator.play.legal import Position, Unreachable, position
from adjudicator.play.table import Outcome, Table
from adjudicator.record import Game, RecordError, Session, load, load_record
from adjudicator.rules import PRESETS, RuleOptions, find_variant
from adjudicator.rules.options import OptionsError

__all__ = [
    "PRESETS",
    "Action",
    "AdjudicatorError",
    "Card",
    "Game",
    "IllegalActionError",
    "OptionsError",
    "Outcome",
    "Position",
    "RecordError",
    "Report",
    "RuleOptions",
    "Session",
    "SessionReport",
    "Table",
    "Unreachable",
    "Violation",
    "__version__",
    "adjudicate",
    "adjudicate_session",
    "card_code",
    "card_text",
    "find_variant",
    "load",
    "load_record",
    "parse_card",
    "position",
]
