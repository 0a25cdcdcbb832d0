"""The albined-db importer: the web app albined/skitgubbe's SQLite file as records.

Each test writes a small database in the app's schema (as packages/server/src/schema.ts
creates it) with hand-made games; nothing of the app's data is copied.  Every record is
judged by the project's own check, and the file is never written.
"""

from __future__ import annotations

import json
import random
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator import load_record, service
from adjudicator.cards import card_code
from adjudicator.i18n import speaking
from adjudicator.importers import albined_db
from adjudicator.importers.base import Imported, ImportOptions
from adjudicator.play.table import Table

SCHEMA = """
CREATE TABLE migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
    applied_at TEXT DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE profiles (id TEXT PRIMARY KEY, name TEXT NOT NULL, color TEXT NOT NULL,
    created_at TEXT DEFAULT CURRENT_TIMESTAMP, avatar_config TEXT, avatar_image TEXT);
CREATE TABLE games (id TEXT PRIMARY KEY, name TEXT, status TEXT NOT NULL DEFAULT 'waiting',
    active_player_id TEXT, initial_deck TEXT, created_at TEXT DEFAULT CURRENT_TIMESTAMP,
    updated_at TEXT DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE game_players (game_id TEXT NOT NULL, profile_id TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT 'player', is_ready INTEGER DEFAULT 0,
    invite_status TEXT NOT NULL DEFAULT 'pending', turn_order INTEGER DEFAULT 0,
    is_archived INTEGER DEFAULT 0, PRIMARY KEY (game_id, profile_id));
CREATE TABLE game_moves (id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL,
    seq INTEGER NOT NULL, player_id TEXT NOT NULL, move_type TEXT NOT NULL, cards TEXT,
    created_at TEXT DEFAULT CURRENT_TIMESTAMP, UNIQUE (game_id, seq));
CREATE TABLE game_player_results (game_id TEXT NOT NULL, profile_id TEXT NOT NULL,
    is_skitgubbe INTEGER DEFAULT 0, is_sweetgubbe INTEGER DEFAULT 0,
    is_trumfman INTEGER DEFAULT 0, is_constipated INTEGER DEFAULT 0,
    is_mega_constipated INTEGER DEFAULT 0, finished_at TEXT DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (game_id, profile_id));
"""
"""The app's tables as schema.ts writes them (the columns this importer reads and others)."""

PROFILES = {"p-anna": "Anna", "p-bo": "Bo Ek", "p-cai": "Cai", "p-dag": "Dag"}
SUITS = "SHDC"
RANKS = "23456789TJQKA"


def code(card: str) -> int:
    """The app's number for a record card (cardCodec.ts: suit * 13 + value)."""
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def card(number: int) -> str:
    return RANKS[number % 13] + SUITS[number // 13]


def shuffled(seed: int) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


class AppDb:
    """A database file of the app, written by the test as the app writes it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn = sqlite3.connect(path)
        self.conn.execute("PRAGMA journal_mode = WAL")  # as schema.ts sets it
        self.conn.executescript(SCHEMA)
        self.conn.executemany(
            "INSERT INTO profiles (id, name, color) VALUES (?, ?, '#fff')", list(PROFILES.items())
        )
        self.seq: dict[str, int] = {}

    def game(
        self, gid: str, deck: list[int] | str | None, seats: list[str], name: str = ""
    ) -> None:
        """A game created as db.ts's createGame does: the host accepted, the others invited."""
        text = deck if isinstance(deck, str) or deck is None else ",".join(map(str, deck))
        self.conn.execute(
            "INSERT INTO games (id, name, status, active_player_id, initial_deck)"
            " VALUES (?, ?, 'playing', ?, ?)",
            (gid, name or None, seats[0], text),
        )
        for turn, pid in enumerate(seats):
            host = turn == 0
            self.conn.execute(
                "INSERT INTO game_players (game_id, profile_id, role, is_ready, invite_status,"
                " turn_order) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    gid,
                    pid,
                    "host" if host else "player",
                    int(host),
                    "accepted" if host else "pending",
                    turn,
                ),
            )
        self.seq[gid] = 0

    def move(self, gid: str, pid: str, kind: str, cards: list[str] | None = None) -> int:
        seq = self.seq[gid]
        text = ",".join(str(code(c)) for c in cards) if cards else None
        self.conn.execute(
            "INSERT INTO game_moves (game_id, seq, player_id, move_type, cards)"
            " VALUES (?, ?, ?, ?, ?)",
            (gid, seq, pid, kind, text),
        )
        self.seq[gid] = seq + 1
        if kind == "A":
            self.conn.execute(
                "UPDATE game_players SET invite_status = 'accepted'"
                " WHERE game_id = ? AND profile_id = ?",
                (gid, pid),
            )
        return seq

    def loser(self, gid: str, pid: str) -> None:
        self.conn.execute(
            "INSERT INTO game_player_results (game_id, profile_id, is_skitgubbe) VALUES (?, ?, 1)",
            (gid, pid),
        )

    def close(self) -> None:
        self.conn.commit()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()


@pytest.fixture
def db(tmp_path: Path) -> Iterator[AppDb]:
    made = AppDb(tmp_path / "skitgubbe.db")
    yield made
    made.conn.close()


def imported(path: Path, **options: Any) -> list[Imported]:
    return list(albined_db.read(str(path), ImportOptions(**options)))


def verdict(record: dict[str, Any]) -> Any:
    return service.check_text(json.dumps(record))


IDS = {name.replace(" ", "_"): pid for pid, name in PROFILES.items()}


class AppGame:
    """A game as albined/skitgubbe's gameLogic.ts and rules.ts play it, in brief, for the
    tests: every move the app would log (player id, move type, card codes), made by a
    seeded player who plays low, sometimes chances or sprinkles, and in phase two plays
    the lowest play that beats (a run now and then) or picks up the oldest play."""

    def __init__(self, deck: list[int], seats: list[str], seed: int) -> None:
        self.deck = deck
        self.seats = seats
        self.rng = random.Random(seed)
        self.stack = list(deck)
        self.hands = {p: [self.stack.pop() for _ in range(3)] for p in seats}  # S, A, A
        self.piles: dict[str, list[int]] = {p: [] for p in seats}
        self.moves: list[tuple[str, str, list[int]]] = []
        self.holder = ""
        self.winner = ""
        self.loser = ""
        self.fewest = 0
        self.touching = False
        self.gone = False

    def _draw(self, p: str, count: int) -> None:  # drawReplacements
        for _ in range(count):
            if not self.stack:
                return
            drawn = self.stack.pop()
            if self.stack:
                self.hands[p].append(drawn)
            else:
                self.holder = p  # the trump card, held apart until phase two

    def _short(self) -> bool:
        return not self.stack and any(not self.hands[p] for p in self.seats)

    def phase_one(self) -> str:
        """How phase one ends: 'cleared' (a trick cleared with the deck empty and a hand
        empty), 'tie' (a tie then, the tied players holding cards), 'tie, empty' (a tied
        player without)."""
        rng, hands = self.rng, self.hands
        leader = 0
        while True:
            table: list[tuple[str, list[int]]] = []
            contenders = self.seats[leader:] + self.seats[:leader]
            while True:
                start = len(table)
                for i, p in enumerate(contenders):
                    if len(self.stack) >= 2 and rng.random() < 0.15:  # chance
                        top = self.stack.pop()
                        self.moves.append((p, "C", [top]))
                        table.append((p, [top]))
                    else:
                        low = min(c % 13 for c in hands[p])
                        cards = [c for c in hands[p] if c % 13 == low]
                        cards = cards[: rng.randint(1, len(cards))]
                        for c in cards:
                            hands[p].remove(c)
                        self.moves.append((p, "P", cards))
                        table.append((p, list(cards)))
                        self._draw(p, len(cards))
                    if i < len(contenders) - 1:  # the round goes on: sprinkles are open
                        self._sprinkle(table)
                plays = [(p, batch[0] % 13) for p, batch in table[start:]]
                high = max(v for _, v in plays)
                tied = [p for p, v in plays if v == high]
                if len(tied) == 1:
                    winner = tied[0]
                    break
                if self._short():  # distributeTablePileBack, transitionToPhase2
                    for p, batch in table:
                        self.piles[p] += batch
                    return "tie" if all(hands[p] for p in tied) else "tie, empty"
                contenders = tied
            for _, batch in table:
                self.piles[winner] += batch
            self.moves.append((winner, "T", []))
            self.winner = winner
            if self._short():
                return "cleared"
            leader = self.seats.index(winner)

    def _sprinkle(self, table: list[tuple[str, list[int]]]) -> None:
        """A player who has played to the trick adds cards of their latest play's rank."""
        for p in self.seats:
            latest = [batch for q, batch in table if q == p]
            if not latest or self.rng.random() < 0.5:
                continue
            more = [c for c in self.hands[p] if c % 13 == latest[-1][0] % 13]
            if more:
                for c in more:
                    self.hands[p].remove(c)
                first = next(
                    batch for q, batch in table if q == p and batch[0] % 13 == more[0] % 13
                )
                first += more
                self.moves.append((p, "R", more))
                self._draw(p, len(more))

    def phase_two(self, limit: int = 4000) -> bool:
        """Phase two to its end; False if it went on past ``limit`` moves."""
        rng, hands, seats = self.rng, self.hands, self.seats
        for p in seats:
            hands[p] += self.piles[p]
        hands[self.holder].append(self.deck[0])
        self.fewest = min(len(hands[p]) for p in seats)
        trump = self.deck[0] // 13
        done = {p for p in seats if not hands[p]}
        active = seats.index(self.holder)
        table: list[tuple[str, list[int]]] = []
        for _ in range(limit):
            left = [p for p in seats if p not in done]
            if len(left) <= 1:
                self.loser = left[0] if left else ""
                return True
            p = seats[active]
            legal = self._legal(hands[p], table, trump)
            if legal and (not table or rng.random() > 0.1):
                play = (
                    rng.choice(legal) if rng.random() < 0.3 else min(legal, key=lambda a: a[0] % 13)
                )
                for c in play:
                    hands[p].remove(c)
                table.append((p, play))
                self.moves.append((p, "P", play))
                if not hands[p]:
                    done.add(p)
                    if len([q for q in seats if q not in done]) == 1:
                        continue
                count = len([q for q in seats if q not in done or any(o == q for o, _ in table)])
                if len(table) == count:
                    self.moves.append((p, "T", []))
                    table = []
                    if p not in done:
                        continue
            else:
                owner, oldest = table.pop(0)
                if owner in done:
                    self.gone = True  # trickParticipantCount drops: a record cannot say it
                if table and table[0][1][0] == oldest[-1] + 1 and table[0][1][0] % 13:
                    self.touching = True  # 'joined' would take the next play's card too
                hands[p] += oldest
                self.moves.append((p, "U", []))
            active = self._next(active, done)
        return False

    def _next(self, active: int, done: set[str]) -> int:
        n = len(self.seats)
        step = (active + 1) % n
        while self.seats[step] in done:
            step = (step + 1) % n
        return step

    @staticmethod
    def _legal(hand: list[int], table: list[tuple[str, list[int]]], trump: int) -> list[list[int]]:
        """getLegalPlays: single cards and runs of a suit that beat the top card."""

        def beats(play: list[int]) -> bool:
            if not table:
                return True
            top = table[-1][1][-1]
            low = play[0]
            if top // 13 == trump:
                return low // 13 == trump and low % 13 > top % 13
            return low // 13 == trump or (low // 13 == top // 13 and low % 13 > top % 13)

        plays = [[c] for c in sorted(hand)]
        for suit in range(4):
            ranks = sorted(c for c in hand if c // 13 == suit)
            for i in range(len(ranks)):
                for j in range(i + 1, len(ranks)):
                    run = ranks[i : j + 1]
                    if run[-1] - run[0] == j - i:
                        plays.append(run)
        return [play for play in plays if beats(play)]

    def write(self, db: AppDb, gid: str) -> None:
        db.game(gid, self.deck, self.seats, name="Fredag")
        db.move(gid, self.seats[0], "S")
        for p in self.seats[1:]:
            db.move(gid, p, "A")
        for p, kind, cards in self.moves:
            db.move(gid, p, kind, [card(c) for c in cards] or None)
        if self.loser:
            db.loser(gid, self.loser)


def app_game(seats: list[str], want: set[str]) -> AppGame:
    """The first seeded app game that ends phase one by a cleared trick, finishes with no
    pick-up of a play by a player gone out (docs/importers.md: what a record cannot say),
    and has
    moves of every type in ``want`` (and a run, with 'run'; a phase-two hand of fewer than
    five cards, with 'short'; a pick-up of a play the next play touches, with 'touching')."""
    for seed in range(1000):
        game = AppGame(shuffled(seed), seats, seed)
        if game.phase_one() != "cleared" or not game.phase_two() or game.gone:
            continue
        kinds = {kind for _, kind, _ in game.moves}
        if any(
            kind == "P" and len(c) > 1 and c[0] // 13 == c[-1] // 13 and c[0] % 13 != c[-1] % 13
            for _, kind, c in game.moves
        ):
            kinds.add("run")
        if game.touching:
            kinds.add("touching")
        if game.fewest < 5:
            kinds.add("short")  # a hand Helmfrid's text would give low cards to
        if want <= kinds:
            return game
    raise AssertionError(f"no seed of 1000 plays a game with {sorted(want)}")


# --- the deal and a whole game ----------------------------------------------------------


def test_the_deal_is_the_apps(db: AppDb) -> None:
    """The host takes the deck's last three cards at the start (applyStartGame), each
    invitee the next three when accepting (applyJoin), in the order they accept: here Cai
    before Bo.  Draws come from the deck's end, so its first card is the trump card."""
    deck = shuffled(7)
    db.game("g1", deck, ["p-anna", "p-bo", "p-cai"], name="Fredag")
    db.move("g1", "p-anna", "S")
    db.move("g1", "p-cai", "A")
    db.move("g1", "p-bo", "A")
    db.conn.commit()
    [first] = imported(db.path)
    assert first.error is None and first.record is not None
    record = first.record
    assert record["players"] == ["Anna", "Bo_Ek", "Cai"]  # a name's space becomes '_'
    assert record["dealer"] == "Cai"  # so Anna, at turn order 0, leads
    table = Table.from_game(load_record(record))
    hands = {
        name: sorted(card_code(c) for c in hand)
        for name, hand in zip(table.players, table.view().hands, strict=True)
    }
    assert hands == {
        "Anna": sorted(card(n) for n in deck[-3:]),
        "Cai": sorted(card(n) for n in deck[-6:-3]),
        "Bo_Ek": sorted(card(n) for n in deck[-9:-6]),
    }
    stock = record["deck"].split()[9:]
    assert stock[0] == card(deck[-10]) and stock[-1] == card(deck[0])
    assert record["options"] == albined_db.APP_OPTIONS


def test_finished_games_of_the_app_are_legal_and_their_losers_the_apps(db: AppDb) -> None:
    """Whole games as the app plays them (chances, sprinkles, ties, runs, pick-ups, the
    trick clearings), two in one file: each record is legal, finished, and its loser is
    the app's.  The first has a pick-up whose oldest play the next play touches (a joined
    pick would take both), the second a phase-two hand of fewer than five cards (the text's
    low cards would be due)."""
    seats = ["p-anna", "p-bo", "p-cai"]
    games = [
        app_game(seats, {"C", "R", "U", "T", "run", "touching"}),
        app_game(seats, {"short"}),
    ]
    for i, game in enumerate(games):
        game.write(db, f"g{i}")
    db.conn.commit()
    out = imported(db.path)
    assert [i.name for i in out] == [f"{db.path}#g0", f"{db.path}#g1"]
    for game, done in zip(games, out, strict=True):
        assert done.record is not None
        said = verdict(done.record)
        assert (said.status, said.finished, said.error) == ("legal", True, None)
        assert (
            said.loser == done.record["result"]["loser"] == PROFILES[game.loser].replace(" ", "_")
        )
    games[0].write(db, "g2")  # the same game, the app's claim naming another loser
    other = next(p for p in seats if p != games[0].loser)
    db.conn.execute("UPDATE game_player_results SET profile_id = ? WHERE game_id = 'g2'", (other,))
    db.conn.commit()
    [claimed] = imported(db.path, game="g2")
    assert claimed.record is not None
    wrong = verdict(claimed.record)
    assert (wrong.status, wrong.violations[0].rule) == ("illegal", "result.loser")
    first = out[0].record
    assert first is not None
    assert {a["act"] for a in first["actions"]} == {"play", "dare", "sluff", "pick"}
    meta = first["meta"]
    assert meta["event"] == "Fredag"
    moves = meta["_source"]["moves"]
    assert [m["move_type"] for m in moves[:3]] == ["S", "A", "A"]
    assert [m["seq"] for m in moves] == list(range(len(games[0].moves) + 3))  # every row kept
    assert all(("action" in m) == (m["move_type"] in "PUCR") for m in moves)


def test_an_invitee_accepting_after_a_play_gets_the_cards_then_at_the_deck_end(db: AppDb) -> None:
    """Anna plays and draws before Bo accepts: her draw is the deck's 4th card from the end,
    Bo's hand the three before it; the record deals them so and the check agrees."""
    deck = shuffled(11)
    db.game("g2", deck, ["p-anna", "p-bo"])
    db.move("g2", "p-anna", "S")
    led = card(deck[-1])
    db.move("g2", "p-anna", "P", [led])
    db.move("g2", "p-bo", "A")
    db.move("g2", "p-bo", "P", [card(deck[-5])])
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    table = Table.from_game(load_record(one.record))
    assert sorted(map(card_code, table.view().hands[1])) == sorted(card(n) for n in deck[-7:-4])
    table.push(f"Anna play {led}")
    assert card(deck[-4]) in {card_code(c) for c in table.view().hands[0]}
    said = verdict(one.record)
    assert said.status == "legal" and said.applied == 2


# --- what the check finds --------------------------------------------------------------


def test_an_illegal_move_is_found_by_the_check(db: AppDb) -> None:
    deck = shuffled(5)
    db.game("g3", deck, ["p-anna", "p-bo"])
    db.move("g3", "p-anna", "S")
    db.move("g3", "p-bo", "A")
    db.move("g3", "p-bo", "P", [card(deck[-4])])  # Bo plays, but Anna leads
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    said = verdict(one.record)
    assert said.status == "illegal"
    assert (said.violations[0].index, said.violations[0].rule) == (0, "turn.order")


def test_text_rules_name_where_the_app_departs(db: AppDb) -> None:
    """Under the text's letter (helmfrid as written: sluffing once the trick is decided),
    the app's first sprinkle, made before the trick was decided, is the violation."""
    game = app_game(["p-anna", "p-bo", "p-cai"], {"R"})
    game.write(db, "g1")
    db.conn.commit()
    [text] = imported(db.path, rules="text")
    assert text.record is not None and text.record["options"] == {}
    said = verdict(text.record)
    first_sprinkle = next(i for i, a in enumerate(text.record["actions"]) if a["act"] == "sluff")
    assert said.status == "illegal"
    assert (said.violations[0].rule, said.violations[0].index) == (
        "phase1.sluff.window",
        first_sprinkle,
    )


# --- broken games, several games, the file ----------------------------------------------


def test_broken_games_are_one_line_each_and_the_rest_go_on(db: AppDb) -> None:
    good = shuffled(1)
    db.game("a1", good, ["p-anna", "p-bo"])
    db.move("a1", "p-anna", "S")
    db.move("a1", "p-bo", "A")
    db.game("b2", ",".join(map(str, good[:51])) + ",77", ["p-anna", "p-bo"])
    db.move("b2", "p-anna", "S")
    db.game("c3", good, ["p-anna", "p-bo"])
    db.move("c3", "p-anna", "S")
    db.move("c3", "p-bo", "A")
    db.move("c3", "p-dag", "P", ["2H"])
    db.game("d4", good, ["p-anna", "p-bo"])
    db.move("d4", "p-anna", "S")
    db.move("d4", "p-bo", "A")
    db.conn.execute(
        "INSERT INTO game_moves (game_id, seq, player_id, move_type, cards)"
        " VALUES ('d4', 2, 'p-anna', 'P', '12,x')"
    )
    db.game("e5", good[:40], ["p-anna", "p-bo"])
    db.move("e5", "p-anna", "S")
    db.game("f6", good, ["p-anna", "p-bo"])
    db.conn.commit()
    out = imported(db.path)
    assert [i.name.rsplit("#", 1)[1] for i in out] == ["a1", "b2", "c3", "d4", "e5", "f6"]
    assert out[0].record is not None and out[0].error is None
    assert [i.error for i in out[1:]] == [
        "games#b2: initial_deck: '77' is no card code (0 to 51)",
        "games#c3 game_moves seq 2: 'p-dag' is not a player of this game",
        "games#d4 game_moves seq 2: cards: 'x' is no card code (0 to 51)",
        "games#e5: initial_deck: has 40 cards, not 52",
        "games#f6: the game was never started (no S move)",
    ]
    assert all(i.record is None for i in out[1:])


def test_one_game_by_id(db: AppDb) -> None:
    for gid in ("a1", "b2"):
        db.game(gid, shuffled(2), ["p-anna", "p-cai"])
        db.move(gid, "p-anna", "S")
        db.move(gid, "p-cai", "A")
    db.conn.commit()
    [only] = imported(db.path, game="b2")
    assert only.name == f"{db.path}#b2" and only.record is not None
    [none] = imported(db.path, game="zz")
    assert none.error == f"{db.path}: has no game 'zz'"


def test_a_player_who_leaves_ends_the_record_there(db: AppDb) -> None:
    deck = shuffled(4)
    db.game("g4", deck, ["p-anna", "p-bo", "p-cai"])
    db.move("g4", "p-anna", "S")
    db.move("g4", "p-bo", "A")
    db.move("g4", "p-cai", "A")
    db.move("g4", "p-anna", "P", [card(deck[-1])])
    left = db.move("g4", "p-cai", "L")
    db.move("g4", "p-bo", "P", [card(deck[-5])])
    db.loser("g4", "p-bo")
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    assert len(one.record["actions"]) == 1 and "result" not in one.record
    source = one.record["meta"]["_source"]
    assert source["left"] == {"seq": left, "player": "Cai"}
    assert [m["seq"] for m in source["moves"]] == list(range(left + 2))  # the rest kept too
    said = verdict(one.record)
    assert (said.status, said.finished) == ("legal", False)


def test_a_declined_invitee_is_no_player_and_unknown_columns_are_kept(db: AppDb) -> None:
    db.conn.execute("ALTER TABLE games ADD COLUMN theme TEXT")
    db.game("g5", shuffled(6), ["p-anna", "p-dag", "p-bo"])
    db.conn.execute("UPDATE games SET theme = 'forest' WHERE id = 'g5'")
    db.move("g5", "p-anna", "S")
    db.move("g5", "p-dag", "L")
    db.move("g5", "p-bo", "A")
    db.conn.commit()
    [one] = imported(db.path, names=("Eva", "Finn"))
    assert one.record is not None
    assert one.record["players"] == ["Eva", "Finn"]
    source = one.record["meta"]["_source"]
    assert source["game"]["theme"] == "forest" and source["game"]["status"] == "playing"
    assert [p["profile_id"] for p in source["players"]] == ["p-anna", "p-dag", "p-bo"]
    assert source["players"][2]["profile_name"] == "Bo Ek"  # the name as the app has it
    assert verdict(one.record).status == "legal"
    [wrong] = imported(db.path, names=("Eva",))
    assert wrong.error == "games#g5: the game has 2 players; --names gives 1"


def test_a_game_one_player_alone_accepted_is_one_line_not_a_record(db: AppDb) -> None:
    # A server's file holds games still waiting for their invitees, and games the app
    # ended when every invitee declined: no game was played, so no record is written
    # (a one-player record would only be invalid by the player count).
    db.game("waiting", shuffled(10), ["p-anna", "p-bo", "p-cai"])
    db.move("waiting", "p-anna", "S")
    db.game("declined", shuffled(11), ["p-bo", "p-dag"])
    db.move("declined", "p-bo", "S")
    db.move("declined", "p-dag", "L")
    db.conn.execute("UPDATE games SET status = 'ended' WHERE id = 'declined'")
    db.conn.commit()
    waiting, declined = imported(db.path)
    assert waiting.record is None and declined.record is None
    assert waiting.error == (
        "games#waiting: only Anna has accepted the invitation (the others declined or "
        "have not answered): no game was played"
    )
    assert declined.error is not None and declined.error.startswith("games#declined: only Bo_Ek ")


def test_two_players_of_one_name_need_names(db: AppDb) -> None:
    db.conn.execute("UPDATE profiles SET name = 'Anna' WHERE id = 'p-dag'")
    db.game("g6", shuffled(8), ["p-anna", "p-dag"])
    db.move("g6", "p-anna", "S")
    db.move("g6", "p-dag", "A")
    db.conn.commit()
    assert imported(db.path)[0].error == "games#g6: two players are called Anna; give --names"
    [named] = imported(db.path, names=("Anna", "Dag"))
    assert named.record is not None and named.record["players"] == ["Anna", "Dag"]


def test_a_file_that_is_not_the_apps_is_one_error(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database\n")
    assert [(i.name, i.error) for i in imported(text)] == [
        (str(text), f"{text}: is not an SQLite database")
    ]
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE games (id TEXT, initial_deck TEXT)")
    conn.close()
    [one] = imported(other)
    assert one.error == f"{other}: has no table game_players (is it albined/skitgubbe's database?)"
    missing = tmp_path / "missing.db"
    assert imported(missing)[0].error == f"{missing}: cannot be read"


def test_the_lines_are_in_the_tables_language(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database\n")
    with speaking("sv"):
        assert imported(text)[0].error == f"{text}: är ingen SQLite-databas"
    with speaking("fi"):
        assert imported(text)[0].error == f"{text}: ei ole SQLite-tietokanta"


def test_a_view_is_not_read(tmp_path: Path) -> None:
    """A 'table' that is a view would run the file's own SQL: it is refused, not read."""
    path = tmp_path / "view.db"
    made = AppDb(path)
    made.conn.executescript("DROP TABLE game_moves; CREATE VIEW game_moves AS SELECT * FROM games;")
    made.close()
    [one] = imported(path)
    assert one.error == f"{path}: has no table game_moves (is it albined/skitgubbe's database?)"


def test_the_file_is_never_written(db: AppDb) -> None:
    deck = shuffled(9)
    db.game("g6", deck, ["p-anna", "p-bo"])
    db.move("g6", "p-anna", "S")
    db.move("g6", "p-bo", "A")
    db.close()
    path = db.path
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    files = sorted(path.parent.iterdir())
    path.chmod(stat.S_IRUSR)  # a file the importer could not write even if it tried
    try:
        out = imported(path)
        assert out[0].record is not None
        assert (path.read_bytes(), path.stat().st_mtime_ns) == before
        assert sorted(path.parent.iterdir()) == files  # no lock or log file beside it
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)


def test_a_write_ahead_log_is_read(db: AppDb) -> None:
    """While the app runs, its last moves may still be in the -wal file: they are read."""
    db.game("g7", shuffled(3), ["p-anna", "p-bo"])
    db.move("g7", "p-anna", "S")
    db.move("g7", "p-bo", "A")
    db.conn.commit()
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.move("g7", "p-anna", "C", [card(shuffled(3)[-7])])
    db.conn.commit()  # in the log, not yet in the database file
    assert Path(f"{db.path}-wal").stat().st_size > 0
    [one] = imported(db.path)
    assert one.record is not None and one.record["actions"][0]["act"] == "dare"
    assert verdict(one.record).status == "legal"


# --- the end of phase one, as the app's code has it --------------------------------------


def phase_one_ending(how: str, other_leader: bool = False) -> AppGame:
    """The first seeded app game whose phase one ends ``how`` (with the trump card's
    drawer other than the last trick's winner, if ``other_leader``)."""
    for seed in range(400):
        game = AppGame(shuffled(seed), ["p-anna", "p-bo", "p-cai"], seed)
        if game.phase_one() == how and not (other_leader and game.winner == game.holder):
            return game
    raise AssertionError(f"no seed of 400 ends phase one by {how}")


def test_phase_two_begins_when_a_trick_is_cleared_with_a_hand_empty(db: AppDb) -> None:
    """The app: a trick cleared with the deck empty and some hand empty ends phase one at
    once, and the trump card's drawer leads phase two, though the winner holds cards
    (`phase_one_end: all_hold`; under `no_card` the winner would lead another trick)."""
    game = phase_one_ending("cleared", other_leader=True)
    game.moves.append((game.holder, "P", [game.deck[0]]))  # the trump card, now in hand
    game.write(db, "g8")
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    said = verdict(one.record)
    assert (said.status, said.applied, said.finished) == (
        "legal",
        len(one.record["actions"]),
        False,
    )


def test_a_tie_the_app_ends_phase_one_at_is_reported_by_the_rules(db: AppDb) -> None:
    """What a record cannot say (docs/importers.md): the app ends phase one at a tie when
    the deck is empty and any hand is, though the tied players hold cards; the rules
    (`all_hold`) have the tie played off, so the drawer's phase-two lead is out of turn."""
    game = phase_one_ending("tie")
    game.moves.append((game.holder, "P", [game.deck[0]]))
    game.write(db, "g9")
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    said = verdict(one.record)
    last = len(one.record["actions"]) - 1
    assert (said.status, said.violations[0].index) == ("illegal", last)
    # out of turn; or, the drawer being due in the tie, the trump card is not yet in hand
    assert said.violations[0].rule in ("turn.order", "play.held")


def test_a_pick_up_of_a_gone_players_play_is_reported_by_the_rules(db: AppDb) -> None:
    """What a record cannot say (docs/importers.md): once a pick-up took the play of a
    player who went out, the app counts one play fewer to the trick than the rules, which
    count the players in when it was led; the check names the first move that parts."""
    seats = ["p-anna", "p-bo", "p-cai"]
    for seed in range(300):
        game = AppGame(shuffled(seed), seats, seed)
        if game.phase_one() != "cleared" or not game.phase_two() or not game.gone:
            continue
        game.write(db, f"s{seed}")
        db.conn.commit()
        [one] = imported(db.path, game=f"s{seed}")
        assert one.record is not None
        said = verdict(one.record)
        if said.status == "illegal":
            break
    else:
        raise AssertionError("no seed of 300 parts from the rules so")
    assert said.violations[0].rule == "turn.order"
    assert one.record["actions"][said.violations[0].index - 1]["act"] == "play"


def test_an_invitee_accepting_with_the_deck_nearly_gone_is_an_error(db: AppDb) -> None:
    deck = shuffled(12)
    db.game("g10", deck, ["p-anna", "p-bo", "p-cai"])
    db.move("g10", "p-anna", "S")
    db.move("g10", "p-bo", "A")
    for i in range(15):  # a log made by hand: 45 cards drawn before Cai accepts
        db.move("g10", "p-anna", "P", [card(deck[i]), card(deck[i + 15]), card(deck[i + 30])])
    seq = db.move("g10", "p-cai", "A")
    db.conn.commit()
    assert imported(db.path)[0].error == (
        f"games#g10 game_moves seq {seq}: Cai accepts with fewer than three cards left in the "
        "deck; a record deals three cards to every player"
    )


# --- import --explain: the app's rule set, as docs/importers.md has it ---------------------


def _explained_options(text: str) -> dict[str, str]:
    """``option: app / text`` lines of ``import --explain`` (the second line names them)."""
    found = {}
    for line in text.splitlines()[2:]:
        if line.startswith("  ") and not line.startswith("      ") and ": " in line:
            option, _sep, values = line.strip().partition(": ")
            found[option] = values
    return found


def test_import_explain_prints_the_apps_rules_and_the_texts() -> None:
    from click.testing import CliRunner

    from adjudicator.cli.commands import main

    # it said "albined-db says nothing more about its rules", though the doc has the table
    result = CliRunner().invoke(main, ["import", "--explain", "albined-db"])
    assert result.exit_code == 0, result.output
    shown = _explained_options(result.stdout)
    assert shown["sluffing"] == "own_rank / once"
    assert shown["phase_one_end"] == "all_hold / no_card"
    assert shown["pick_from"] == "bottom / top"
    # the app's side is what the records are written with, over the preset's
    app, _text = albined_db.rule_sets()
    for option, value in albined_db.APP_OPTIONS.items():
        assert shown[option].split(" / ")[0] == str(value)
        assert app[option] == value


def test_the_docs_table_of_the_apps_rules_is_what_explain_prints() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "importers.md").read_text()
    section = doc[doc.index("### The app's rules") :]
    section = section[: section.index("\n### ", 5)]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`") and cells[0] != "`app` (default)":
            rows[cells[0].strip("`")] = f"{cells[1]} / {cells[2]}"
    shown = _explained_options(albined_db.explain(ImportOptions()))
    assert rows == shown


def test_the_docs_name_the_columns_the_importer_reads() -> None:
    # importers.md named the tables but not the columns one needs to write a file by hand
    doc = (Path(__file__).resolve().parents[2] / "docs" / "importers.md").read_text()
    section = doc[doc.index("### The columns read") :]
    section = section[: section.index("\n### ")]
    needed: dict[str, list[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            table = cells[0].split("`")[1]
            needed[table] = [c for c in cells[1].split("`")[1::2] if not c[0].isdigit()]
    for table, columns in albined_db.TABLES.items():
        assert [c for c in needed[table] if c in columns] == list(columns), table
    assert needed[albined_db.RESULTS] == ["game_id", "profile_id"]
