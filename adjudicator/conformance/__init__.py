"""The conformance kit: test vectors, perft counts and a harness for outside engines.

Authors of apps and bots check their engine against the adjudicator position by
position, the way chess engine authors use perft counts and EPD suites:

- :mod:`~adjudicator.conformance.vectors` samples positions from seeded games,
  each with every legal action and a few near misses with the rule refusing them;
- :mod:`~adjudicator.conformance.perft` counts the legal action sequences from a
  position, a number any two faithful engines agree on;
- :mod:`~adjudicator.conformance.harness` drives an outside engine over the
  vectors and reports where its lists differ, grouped by rule.

The protocol is written down in ``docs/conformance.md``.
"""
