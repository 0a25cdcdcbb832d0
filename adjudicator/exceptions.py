"""The one base of every error the package raises: :class:`AdjudicatorError`.

A leaf (it imports nothing), so that every layer, the language layer included, can
derive its errors from it.
"""

from __future__ import annotations


class AdjudicatorError(Exception):
    """Every error the package raises derives from this one: ``except AdjudicatorError``
    catches what the adjudicator refuses, and nothing of Python's own.  A caller's misuse
    (a wrong type, a seat not at the table) is Python's ``TypeError`` or ``ValueError``."""
