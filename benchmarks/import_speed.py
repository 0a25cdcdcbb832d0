"""``import goat-events`` + check of N logs against ``check`` of the same games as records.

    python benchmarks/import_speed.py [--games 2000] [--players 4] [--seed 0] [--repeat 3] [--parts]
    python benchmarks/import_speed.py --write-log OUT.json [--players 3] [--seed 0]

The games are the project's own: ``simulate`` for the goat preset under the app's rules
(no high trump, no restriction #2), each written out in the event shape of the
tjwilson90/goat spectator stream by the small writer below (joins, ``start``, every draw,
``playCard``/``playTop``/``slough``, ``revealTrump``, the dreck, ``playRun``/``pickUp``).
Three ways run in this one process, turn about, timed in CPU time, each through the
commands' own code on a JSON Lines file of the games: ``check`` of the records,
``check --from goat-events`` of the logs (which reads each verdict off the import's
own replay), and ``import`` followed by a check of each record from scratch (what
``check`` of the files ``import`` wrote costs).  The best of ``--repeat`` runs of each
is compared (issue 40's goal: ``check --from`` within 1.3× of ``check``).  ``--parts``
also times each part of the two alone, as a share of the check: where the time goes.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import best_of  # noqa: E402

from adjudicator import bulk, engine, importers  # noqa: E402
from adjudicator.bulk import Found, record_text  # noqa: E402
from adjudicator.bulk.run import check_paths  # noqa: E402
from adjudicator.cards import card_code, rank, suit  # noqa: E402
from adjudicator.engine.state import PHASE_ONE  # noqa: E402
from adjudicator.importers import ImportOptions  # noqa: E402
from adjudicator.importers.goat_events import convert_replayed, rule_options  # noqa: E402
from adjudicator.play import simulate  # noqa: E402
from adjudicator.play.adjudicate import (  # noqa: E402
    adjudicate_replayed,
    document_from_text,
    document_from_value,
)
from adjudicator.play.table import Table  # noqa: E402
from adjudicator.record import Game, load_record  # noqa: E402
from adjudicator.record.build import loads_objects  # noqa: E402
from adjudicator.rules.options import RuleOptions  # noqa: E402
from adjudicator.rules.presets import find_variant  # noqa: E402


def app_games(players: int, seed: int, count: int, decks: int = 1) -> list[dict[str, Any]]:
    """``count`` random legal goat games played under the app's rules, as records, each
    table turned so that the first leader sits in seat 0 (the app's)."""
    base = find_variant("goat").options_for(players).model_dump()
    options = RuleOptions.model_validate({**base, **rule_options(decks, "app")})
    games = []
    for index in range(count):
        record, _game = simulate.random_game(
            "goat", players, simulate.game_rng(seed, index), options=options
        )
        record["options"] = rule_options(decks, "app")
        seat = record["players"].index(record["first_leader"])
        record["players"] = record["players"][seat:] + record["players"][:seat]
        record.setdefault("meta", {}).update({"seed": seed, "game": index})
        games.append(record)
    return games


def low(card: int, trump: int) -> bool:
    """A dreck card: a 2 to 5, or the six of trumps."""
    return rank(card) <= 5 or (rank(card) == 6 and suit(card) == trump)


def events_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record's game as the app's spectator would have received it."""
    table = Table.from_game(load_record({**record, "actions": []}))
    state = table.state
    names = table.players
    events: list[dict[str, Any]] = [{"type": "join", "userId": name} for name in names]
    events.append({"type": "start", "numDecks": table.game.options.decks})
    for k in range(3):
        for p in range(len(names)):
            events.append({"type": "draw", "player": p, "card": card_code(state.hands[p][k])})
    revealed = False
    for written in record["actions"]:
        action = table.parse(written)
        p = action.player
        stock = list(state.stock)
        phase = state.phase
        if action.act == "deal":
            for seat, cards in action.to:
                events.append(
                    {"type": "receiveDreck", "player": seat, "dreck": [card_code(c) for c in cards]}
                )
        elif action.act == "dare":
            top = state.stock[-1]
            events.append({"type": "playTop", "card": card_code(top)})
        elif action.act == "sluff":
            for card in action.cards:
                events.append({"type": "slough", "player": p, "card": card_code(card)})
        elif action.act == "play" and phase == PHASE_ONE:
            events.append({"type": "playCard", "card": card_code(action.cards[0])})
        elif action.act == "play":
            cards = sorted(action.cards)
            events.append(
                {"type": "playRun", "lo": card_code(cards[0]), "hi": card_code(cards[-1])}
            )
        elif action.act == "pick":
            events.append({"type": "pickUp"})
        table.push(action)
        if phase == PHASE_ONE and action.act in ("play", "sluff"):
            for card in reversed(stock[len(state.stock) :]):  # what the player drew
                events.append({"type": "draw", "player": p, "card": card_code(card)})
        if not revealed and (state.phase != PHASE_ONE or state.deal is not None):
            revealed = True
            trump = state.indicator
            events.append({"type": "revealTrump", "trump": card_code(trump)})
            if state.deal is not None:
                for seat, hand in enumerate(state.hands):
                    dreck = [card_code(c) for c in hand if low(c, suit(trump))]
                    if dreck:
                        events.append({"type": "offerDreck", "player": seat, "dreck": dreck})
    game_id = f"{record['meta'].get('seed', 0)}-{record['meta'].get('game', 0)}"
    return {"type": "replay", "gameId": game_id, "events": events}


def main() -> None:
    """Time both sides and print them with their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--decks", type=int, default=1)
    parser.add_argument("--write-log", default=None, metavar="OUT.json")
    parser.add_argument(
        "--parts", action="store_true", help="also time each part of both ways on their own"
    )
    args = parser.parse_args()
    if args.write_log:
        (record,) = app_games(args.players, args.seed, 1, args.decks)
        Path(args.write_log).write_text(json.dumps(events_of(record), indent=1) + "\n")
        return
    games = app_games(args.players, args.seed, args.games, args.decks)
    actions = sum(len(record["actions"]) for record in games)
    print(f"{len(games)} games of goat at {args.players} players, {actions:,} actions")
    with tempfile.TemporaryDirectory() as folder:
        records = Path(folder, "records.jsonl")
        records.write_text("".join(json.dumps(record) + "\n" for record in games))
        logs = Path(folder, "logs.jsonl")
        logs.write_text("".join(json.dumps(events_of(record)) + "\n" for record in games))
        gc.freeze()  # the games made here are no command's: no collection goes through them
        times = timed(args.repeat, str(records), str(logs))
        if args.parts:
            parts(args.repeat, records, logs, times["check"])
    check, check_from, two = times["check"], times["check --from"], times["import, check"]
    print(f"check of the records:             {check:7.2f} s CPU")
    print(f"check --from goat-events:         {check_from:7.2f} s CPU")
    print(f"import, then check the records:   {two:7.2f} s CPU")
    print(f"ratio: {check_from / check:.2f}× (goal: within 1.3×)")
    print(f"import, then check: {two / check:.2f}×")


def timed(repeat: int, records: str, logs: str) -> dict[str, float]:
    """The best CPU time of each way, the ways run turn about ``repeat`` times.

    ``check`` and ``check --from`` are the commands' own path (:func:`check_paths`, one
    process, every verdict made); ``import, then check`` converts each game as
    ``import`` does and checks its record's text from scratch, as ``check`` of the
    files ``import`` wrote would."""
    options = ImportOptions()

    def check_records() -> None:
        for checked in check_paths([records], Found()):
            assert checked.status == "legal", checked.error

    def check_from() -> None:
        for checked in check_paths([logs], Found(), importing=("goat-events", options)):
            assert checked.status == "legal", checked.error

    def import_then_check() -> None:
        for game in importers.read("goat-events", logs, options):
            assert game.record is not None, game.error
            checked = bulk.check_source(bulk.Source(game.name, text=record_text(game.record)))
            assert checked.status == "legal", checked.error

    ways = {"check": check_records, "check --from": check_from, "import, check": import_then_check}
    best = dict.fromkeys(ways, float("inf"))
    for _turn in range(repeat):
        for name, way in ways.items():
            best[name] = min(best[name], best_of(1, way))
    return best


def parts(repeat: int, records: Path, logs: Path, check: float) -> None:
    """Each part of the two ways timed alone (best of ``repeat``), as a share of the
    check of the records: where the time of ``check --from`` goes."""
    options = ImportOptions()
    record_lines = records.read_text().splitlines()
    log_lines = logs.read_text().splitlines()
    messages = [loads_objects(line) for line in log_lines]
    converted = [convert_replayed(message, options)[0] for message in messages]
    games = [document_from_value(record) for record in converted]
    gc.freeze()  # nor through the inputs of the parts, which a command holds one at a time

    def engine_replay() -> None:  # the rules' own work: check and apply every action
        for game in games:
            assert isinstance(game, Game)
            state = Table.from_game(game).state
            state.telling = False
            for action in game.actions:
                engine.check(state, action)
                engine.apply(state, action)

    def conclude() -> None:
        replays = [convert_replayed(message, options)[1] for message in messages]
        start = time.process_time()
        for game, replayed in zip(games, replays, strict=True):
            assert isinstance(game, Game) and replayed is not None
            adjudicate_replayed(game, replayed)
        concluded.append(time.process_time() - start)

    concluded: list[float] = []
    ways: dict[str, Callable[[], Any]] = {
        "check: read and validate the records": lambda: list(map(document_from_text, record_lines)),
        "both: the engine's replay (check and apply every action)": engine_replay,
        "--from: read the logs (JSON, no key twice)": lambda: list(map(loads_objects, log_lines)),
        "--from: convert (first pass, table, replay)": lambda: [
            convert_replayed(message, options) for message in messages
        ],
        "--from: read and validate the records (as their text)": lambda: list(
            map(document_from_value, converted)
        ),
    }
    print(f"parts, as shares of the check of the records ({check:.2f} s CPU):")
    for name, run in ways.items():
        best = min(best_of(1, run) for _turn in range(repeat))
        print(f"  {name:58s} {best:6.2f} s  {best / check:5.2f}")
    for _turn in range(repeat):
        conclude()
    best = min(concluded)
    print(
        f"  {'--from: the verdict concluded on the table':58s} {best:6.2f} s  {best / check:5.2f}"
    )


if __name__ == "__main__":
    main()
