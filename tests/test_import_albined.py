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


def play_out(db: AppDb, gid: str, record: dict[str, Any], seed: int, limit: int = 3000) -> str:
    """Play the imported start on by the rules of the record, writing each action as the
    app's move row (P, C, R, U, and T when a trick is cleared); returns the loser's id."""
    table = Table.from_game(load_record(record))
    rng = random.Random(seed)
    names = table.players
    for _ in range(limit):
        if table.finished:
            break
        before = table.view()
        forms = [f for f in table.legal_forms() if isinstance(f, str)]
        sluffs = [f for f in forms if " sluff " in f and before.decided is None]
        plays = [f for f in forms if " sluff " not in f]
        picks = [f for f in plays if f.endswith(" pick")]
        others = [f for f in plays if f not in picks] or picks
        pool = sluffs if sluffs and rng.random() < 0.2 else others
        if picks and rng.random() < 0.1:
            pool = picks
        form = rng.choice(pool)
        who, act, *cards = form.split()
        if act != "sluff" and before.decided is not None:
            db.move(gid, IDS[names[before.decided]], "T")  # the app clears the decided trick
        table.push(form)
        after = table.view()
        if act == "dare":
            cards = [card_code(after.trick[-1][1][0])]
        db.move(gid, IDS[who], {"play": "P", "dare": "C", "sluff": "R", "pick": "U"}[act], cards)
        if after.phase == 2 and act == "play" and before.trick and not after.trick:
            db.move(gid, IDS[who], "T")
    assert table.finished
    outcome = table.outcome
    assert outcome is not None and outcome.loser is not None
    return IDS[outcome.loser]


# --- the deal and a whole game ----------------------------------------------------------


def test_the_deal_is_the_apps_and_a_finished_game_is_legal_with_its_loser(db: AppDb) -> None:
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

    loser = play_out(db, "g1", record, seed=1)
    db.loser("g1", loser)
    db.conn.commit()
    [done] = imported(db.path)
    assert done.record is not None
    said = verdict(done.record)
    assert (said.status, said.finished, said.error) == ("legal", True, None)
    assert said.loser == done.record["result"]["loser"] == PROFILES[loser].replace(" ", "_")
    acts = {a["act"] for a in done.record["actions"]}
    assert acts == {"play", "dare", "sluff", "pick"}  # chances and sprinkles too
    meta = done.record["meta"]
    assert meta["event"] == "Fredag"
    moves = meta["_source"]["moves"]
    assert [m["move_type"] for m in moves[:3]] == ["S", "A", "A"]
    assert any(m["move_type"] == "T" for m in moves)  # kept, though no action
    assert all("action" in m for m in moves if m["move_type"] in "PUCR")


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
    deck = shuffled(7)
    db.game("g1", deck, ["p-anna", "p-bo", "p-cai"])
    db.move("g1", "p-anna", "S")
    db.move("g1", "p-cai", "A")
    db.move("g1", "p-bo", "A")
    db.conn.commit()
    [start] = imported(db.path)
    assert start.record is not None
    play_out(db, "g1", start.record, seed=1)
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
    assert one.record["meta"]["_source"]["left"] == {"seq": left, "player": "Cai"}
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
    assert verdict(one.record).status == "legal"
    [wrong] = imported(db.path, names=("Eva",))
    assert wrong.error == "games#g5: the game has 2 players; --names gives 1"


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


def app_phase_one(deck: list[int], seats: list[str]) -> tuple[list[tuple[str, int]], str, str, str]:
    """Phase one played as gameLogic.ts plays it, each player playing their lowest card:
    the moves (player, card code), how phase one ended ('cleared': a trick was cleared
    with the deck empty and a hand empty; 'tie': a tie then, the tied players holding
    cards; 'tie, empty': a tied player without), the last trick's winner and the trump
    card's drawer (drawReplacements keeps it apart)."""
    stack = list(deck)
    hands = {p: [stack.pop() for _ in range(3)] for p in seats}  # applyStartGame
    moves: list[tuple[str, int]] = []
    holder = ""
    leader = 0
    while True:
        contenders = seats[leader:] + seats[:leader]
        while True:
            plays = []
            for p in contenders:
                played = min(hands[p], key=lambda c: c % 13)
                hands[p].remove(played)
                moves.append((p, played))
                plays.append((p, played % 13))
                if stack:
                    drawn = stack.pop()
                    if stack:
                        hands[p].append(drawn)
                    else:
                        holder = p  # the trump card, held apart until phase two
            top = max(v for _, v in plays)
            tied = [p for p, v in plays if v == top]
            if len(tied) == 1:
                winner = tied[0]
                break
            if not stack and any(not hands[p] for p in seats):
                return moves, "tie" if all(hands[p] for p in tied) else "tie, empty", "", holder
            contenders = tied
        if not stack and any(not hands[p] for p in seats):  # applyClearTrick
            return moves, "cleared", winner, holder
        leader = seats.index(winner)


def test_phase_two_begins_when_a_trick_is_cleared_with_a_hand_empty(db: AppDb) -> None:
    """The app: a trick cleared with the deck empty and some hand empty ends phase one at
    once, and the trump card's drawer leads phase two, though the winner holds cards
    (`phase_one_end: all_hold`; under `no_card` the winner would lead another trick)."""
    seats = ["p-anna", "p-bo", "p-cai"]
    for seed in range(200):
        deck = shuffled(seed)
        moves, how, winner, holder = app_phase_one(deck, seats)
        if how == "cleared" and winner != holder:
            break
    else:
        raise AssertionError("no deck of 200 ends phase one so")
    db.game("g8", deck, seats)
    db.move("g8", "p-anna", "S")
    db.move("g8", "p-bo", "A")
    db.move("g8", "p-cai", "A")
    for pid, played in moves:
        db.move("g8", pid, "P", [card(played)])
    db.move("g8", holder, "P", [card(deck[0])])  # the trump card, now in the drawer's hand
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    said = verdict(one.record)
    assert (said.status, said.applied, said.finished) == ("legal", len(moves) + 1, False)


def test_a_tie_the_app_ends_phase_one_at_is_reported_by_the_rules(db: AppDb) -> None:
    """What a record cannot say (docs/importers.md): the app ends phase one at a tie when
    the deck is empty and any hand is, though the tied players hold cards; the rules
    (`all_hold`) have the tie played off, so the drawer's phase-two lead is out of turn."""
    seats = ["p-anna", "p-bo", "p-cai"]
    for seed in range(400):
        deck = shuffled(seed)
        moves, how, _winner, holder = app_phase_one(deck, seats)
        if how == "tie":
            break
    else:
        raise AssertionError("no deck of 400 ends phase one so")
    db.game("g9", deck, seats)
    db.move("g9", "p-anna", "S")
    db.move("g9", "p-bo", "A")
    db.move("g9", "p-cai", "A")
    for pid, played in moves:
        db.move("g9", pid, "P", [card(played)])
    db.move("g9", holder, "P", [card(deck[0])])
    db.conn.commit()
    [one] = imported(db.path)
    assert one.record is not None
    said = verdict(one.record)
    assert said.status == "illegal" and said.violations[0].index == len(moves)
