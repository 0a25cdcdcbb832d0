"""A test-only "outside engine" for ``adjudicator conform``, built on the adjudicator itself.

It speaks the protocol of docs/conformance.md: one JSON position per line on
standard input, one JSON list of legal actions per line on standard output.
``--break`` makes it wrong on purpose, the way real engines are:

- ``drop-picks``: never offers a pick (the harness must say "too strict: pick");
- ``any-sluff``: whoever may sluff may sluff any card they hold (too lenient);
- ``garbage``, ``silent``, ``exit``: a line that is no list, no answer at all, an exit.

``--with-unseen`` (not a mistake) also lists the actions naming a card nobody has seen
that would be legal if a hidden card were that one: the harness must not hold them
against the engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from adjudicator import engine, record
from adjudicator.actions import Action
from adjudicator.play import legal, listing
from adjudicator.record import Game


def legal_now(position: dict, broken: str | None, with_unseen: bool = False) -> list:
    """The legal actions at the end of the position's record, broken as asked."""
    document = record.load(position["record"])
    game = document if isinstance(document, Game) else document.games[-1]
    state = legal.position(game).state
    actions = engine.legal_actions(state)
    if with_unseen:
        actions = actions + [a for a, _ in engine.unseen_actions(state)]
    if broken == "drop-picks":
        actions = [a for a in actions if a.act != "pick"]
    elif broken == "any-sluff":
        sluffers = sorted({a.player for a in actions if a.act == "sluff"})
        actions = actions + [Action(p, "sluff", (c,)) for p in sluffers for c in state.hands[p]]
    return listing.forms(actions, game.players)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--break",
        dest="broken",
        choices=("drop-picks", "any-sluff", "garbage", "silent", "exit"),
        default=None,
    )
    parser.add_argument("--with-unseen", action="store_true")
    args = parser.parse_args()
    broken = args.broken
    for number, text in enumerate(sys.stdin):
        position = json.loads(text)
        if broken == "garbage" and number == 1:
            print("this is no JSON", flush=True)
            continue
        if broken == "silent" and number == 1:
            time.sleep(30)
        if broken == "exit" and number == 1:
            print("giving up", file=sys.stderr)
            sys.exit(3)
        listed = legal_now(position, broken, args.with_unseen)
        print(json.dumps(listed, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
