"""albined/skitgubbe's SQLite file: every game of the web app as a record.

The app (TypeScript, Bun, SQLite) keeps a game as its shuffled deck
(``games.initial_deck``, card codes ``suit * 13 + value``, suits spades, hearts,
diamonds, clubs, values 2 to ace) and its moves (``game_moves``: ``S`` start, ``P``
play, ``U`` pick up, ``C`` chance, ``R`` sprinkle, ``A`` accept, ``L`` leave, ``T`` a
trick cleared).  Each player takes the last three cards of the deck, the host at the
start and an invitee when accepting; every draw is the deck's last card, so the deck's
first card is the trump card.  The record deals the same hands and draws the same
cards: each player's three cards dealt round the table, then the stock in the order the
app took it.

The file is opened read-only and only read: the four tables are checked to be tables
(a view would run the file's own SQL), and no statement of the file is executed.
docs/importers.md, "albined-db", gives the mapping and what the record cannot say.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from adjudicator.exceptions import AdjudicatorError
from adjudicator.i18n import N_, _, ngettext, number
from adjudicator.importers.base import (
    Imported,
    ImportOptions,
    option_value,
    player_name,
    rules_explained,
)
from adjudicator.record import FORMAT

NAME = "albined-db"
TITLE = N_("albined/skitgubbe: the web app's SQLite file, every game (or --game ID)")

VARIANT = "helmfrid"
APP_OPTIONS: dict[str, object] = {
    "max_players": 17,
    "sluffing": "own_rank",
    "phase_one_end": "all_hold",
    "low_cards": 0,
    "pick_from": "bottom",
    "pick_takes": "play",
}
"""The app's house rules as far as the options say them, over the ``helmfrid`` preset
(read from packages/server/src/gameLogic.ts and packages/shared/src/rules.ts):

- ``max_players`` 17: the app sets no limit; one pack seats 17 (three each and a stock);
- ``sluffing: own_rank``: a sprinkle adds cards of a rank the player has played to the
  trick, after playing, while the trick is undecided (the app's window is narrower than
  ``own_rank``'s; its ranks are wider after a tie's replay: docs/importers.md);
- ``phase_one_end: all_hold``: when a trick is cleared with the deck empty and some hand
  empty, phase two begins at once (``no_card`` would have the winner lead another trick);
- ``low_cards`` 0: no low cards are shared between the phases;
- ``pick_from: bottom``, ``pick_takes: play``: a pick-up takes the oldest play whole.

The rest is the preset's: everybody plays, one to three cards of a rank, dare (chance)
while the stock holds two cards or more, ties replayed by the tied players, the
unfinished trick taken back, the trump drawer leads phase two, runs of two or more,
empty hands out at phase two."""

EXPLAINED: tuple[tuple[str, str], ...] = (
    ("max_players", N_("the app sets no limit; one pack seats 17")),
    ("phase_one", N_("everybody plays to each trick")),
    ("multi_card_plays", N_("one to three cards of one rank")),
    (
        "dare",
        N_("chance while the deck holds two cards or more (handleChance refuses the last card)"),
    ),
    (
        "sluffing",
        N_(
            "a sprinkle is of a rank the player has played to the trick (applySprinkle); "
            "the text sluffs once, after the trick is decided"
        ),
    ),
    ("tie_rule", N_("a tie on the highest rank is played off")),
    ("tie_resolution", N_("by the tied players in their order, the new cards alone deciding")),
    (
        "phase_one_end",
        N_(
            "a trick cleared with the deck empty and a hand empty begins phase two at once "
            "(applyClearTrick); under no_card its winner would lead another trick"
        ),
    ),
    ("unfinished_trick", N_("the unfinished trick is taken back")),
    (
        "low_cards",
        N_("no low cards are shared between the phases; the text deals them to hands under five"),
    ),
    ("phase_two_leader", N_("the trump drawer leads phase two")),
    ("sequences", N_("runs of two or more, beating by their lowest card")),
    (
        "pick_from",
        N_("a pick-up takes the oldest play (applyPickUp); the text picks up from the top"),
    ),
    ("pick_takes", N_("the play whole; the text takes the joined run")),
    ("empty_hand_at_phase_two", N_("players without cards at phase two are out")),
    ("aces_low", N_("aces are high: the app ranks two to ace")),
)
"""Each option ``import --explain albined-db`` prints, and why the app's value is what it
is (docs/importers.md, "The app's rules", has the same table)."""


def rule_sets() -> tuple[dict[str, Any], dict[str, Any]]:
    """The options of ``--rules app`` and ``--rules text``: the preset's with the app's
    house rules over them, and the preset's alone (what ``options: {}`` means)."""
    from adjudicator.rules.presets import find_variant  # the rules, only when explained

    text = find_variant(VARIANT).options.model_dump()
    return {**text, **APP_OPTIONS}, text


def explain(options: ImportOptions) -> str:
    """The two rule sets, option by option, with why: what ``import --explain`` prints."""
    app, text = rule_sets()
    rows = [
        (option, f"{option_value(app[option])} / {option_value(text[option])}", _(why))
        for option, why in EXPLAINED
    ]
    return rules_explained(
        _("The Helmfrid rules (variant helmfrid) with these options:"),
        rows,
        _(
            "Where the app departs from the rules in ways no option says (a tie with the "
            "deck and a hand empty ends phase one at once; sprinkling after a tie's replay; "
            "a phase-two trick after a pick-up took the play of a player gone out; a chance "
            "on the deck's last card), the check names the place by the rules' own words."
        ),
    )


SUITS = "SHDC"
RANKS = "23456789TJQKA"
PACK = 52
HAND = 3

TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id", "initial_deck"),
    "game_players": ("game_id", "profile_id", "turn_order"),
    "game_moves": ("game_id", "seq", "player_id", "move_type", "cards"),
    "profiles": ("id", "name"),
}
"""The tables read and the columns the conversion needs; any other column is kept."""

RESULTS = "game_player_results"
"""The app's verdict per player (optional): ``is_skitgubbe`` becomes the record's claim."""

MOVES = "SPUCRALT"
SQLITE_HEADER = b"SQLite format 3\x00"
WAL = b"\x02\x02"
ROLLBACK = b"\x01\x01"
"""The header's bytes 18 and 19, the file's write and read versions: 2 in WAL mode."""


class Broken(AdjudicatorError):
    """A game (or the file) that cannot be converted: the one line saying where and why."""


def card_code(text: str) -> str:
    """The record's card for the app's code ``suit * 13 + value`` (``'51'`` is ``AC``)."""
    item = text.strip()
    if not item.isdigit() or not 0 <= int(item) < PACK:
        raise Broken(_("{item} is no card code (0 to 51)").format(item=repr(text)))
    suit, value = divmod(int(item), 13)
    return RANKS[value] + SUITS[suit]


def cards_of(text: str | None) -> list[str]:
    """A column of comma-separated card codes as record cards (empty or NULL: none)."""
    if text is None or str(text).strip() == "":
        return []
    return [card_code(item) for item in str(text).split(",")]


def read_deck(text: object) -> list[str]:
    """``initial_deck``: 52 different card codes, the deck's last card on top."""
    if not isinstance(text, str) or not text.strip():
        raise Broken("initial_deck: " + _("is empty"))
    try:
        deck = cards_of(text)
    except Broken as bad:
        raise Broken(f"initial_deck: {bad}") from None
    seen: set[str] = set()
    for card in deck:
        if card in seen:
            raise Broken("initial_deck: " + _("holds {card} twice").format(card=card))
        seen.add(card)
    if len(deck) != PACK:
        count = len(deck)
        said = ngettext("has {count} card, not 52", "has {count} cards, not 52", count)
        raise Broken("initial_deck: " + said.format(count=count))
    return deck


def plain(value: object) -> object:
    """A column's value as JSON holds it (a BLOB as its hex digits)."""
    if isinstance(value, bytes):
        return value.hex()
    return value


class Seat:
    """One row of ``game_players``: who, and where they stand in the app's invitation."""

    def __init__(self, row: Mapping[str, Any], accepted: bool) -> None:
        self.profile = str(row["profile_id"])
        self.name = player_name(row["profile_name"], self.profile)  # no name: its id
        self.row = {k: plain(v) for k, v in row.items() if k != "game_id"}
        self.accepted = accepted
        self.declined = False
        self.hand: list[str] = []


class Game:
    """One game's rows, replayed as the app replays them (gameReplay.ts), into a record."""

    def __init__(self, where: str, row: Mapping[str, Any], seats: list[Seat]) -> None:
        self.where = where
        self.row = row
        self.seats = seats
        self.by_id = {seat.profile: seat for seat in seats}
        self.removed: list[str] = []  # the app's deck order of removal (its last card first)
        self.taken = 0
        self.started = False
        self.actions: list[dict[str, Any]] = []
        self.moves: list[dict[str, Any]] = []
        self.left: dict[str, Any] | None = None

    def deal(self, seat: Seat, at: str) -> None:
        """``seat`` takes the deck's last three cards (applyStartGame, applyJoin)."""
        if len(self.removed) - self.taken < HAND:
            said = _(
                "{name} accepts with fewer than three cards left in the deck; a record "
                "deals three cards to every player"
            )
            raise Broken(f"{at}: " + said.format(name=seat.name))
        seat.hand = self.removed[self.taken : self.taken + HAND]
        del self.removed[self.taken : self.taken + HAND]

    def draw(self, count: int) -> None:
        """Cards leave the deck's end for draws and chances; they stay the stock's order."""
        self.taken = min(len(self.removed), self.taken + count)

    def move(self, row: Mapping[str, Any]) -> bool:
        """One ``game_moves`` row, kept for ``meta._source``; False once the game has gone
        where a record cannot follow (a player left), the row then only kept."""
        seq = row["seq"]
        at = f"{self.where} game_moves seq {seq}"
        kind = str(row["move_type"])
        kept = {k: plain(v) for k, v in row.items() if k != "game_id"}
        self.moves.append(kept)
        if self.left is not None:
            return False  # kept in meta._source, past what the record follows
        if kind not in MOVES or len(kind) != 1:
            said = _("move type {kind} is none of S, P, U, C, R, A, L, T")
            raise Broken(f"{at}: " + said.format(kind=repr(kind)))
        seat = self.by_id.get(str(row["player_id"]))
        if seat is None or seat.declined:
            said = _("{player} is not a player of this game")
            raise Broken(f"{at}: " + said.format(player=repr(row["player_id"])))
        try:
            cards = cards_of(row["cards"])
        except Broken as bad:
            raise Broken(f"{at}: cards: {bad}") from None
        if kind == "T":
            return True
        if kind == "S":
            if self.started:
                raise Broken(f"{at}: " + _("a second start (S)"))
            self.started = True
            for each in self.seats:
                if each.accepted:
                    self.deal(each, at)
            return True
        if kind == "A":
            if not seat.accepted:
                seat.accepted = True
                if self.started:
                    self.deal(seat, at)
            return True
        if kind == "L":
            if self.started and seat.accepted:
                self.left = {"seq": seq, "player": seat.profile}
                return False
            seat.declined = True  # a pending invitee declines, or a player leaves the lobby
            return True
        if not self.started:
            raise Broken(f"{at}: " + _("a move before the game started (S)"))
        if not seat.accepted:
            said = _("{name} moves before accepting the invitation")
            raise Broken(f"{at}: " + said.format(name=seat.name))
        action: dict[str, Any] = {"player": seat.profile}  # named in record()
        if kind == "P":
            action.update(act="play", cards=cards)
            self.draw(len(cards))
        elif kind == "R":
            action.update(act="sluff", cards=cards)
            self.draw(len(cards))
        elif kind == "C":
            action["act"] = "dare"
            if cards:
                action["cards"] = cards[:1]
            self.draw(1)
        else:  # U
            action["act"] = "pick"
        kept["action"] = len(self.actions)
        self.actions.append(action)
        return True

    def record(
        self, options: ImportOptions, results: list[dict[str, Any]], columns: Sequence[str]
    ) -> dict[str, Any]:
        """The record of what was read: the players who took part, the deal, the actions."""
        if not self.started:
            raise Broken(f"{self.where}: " + _("the game was never started (no S move)"))
        players = [seat for seat in self.seats if seat.accepted and not seat.declined]
        if len(players) < 2:
            # Still waiting for its invitees, or ended by the app when they declined:
            # no game was played, and a record of one player is none.
            said = _(
                "only {name} has accepted the invitation (the others declined or have not "
                "answered): no game was played"
            )
            alone = players[0].name if players else "-"
            raise Broken(f"{self.where}: " + said.format(name=alone))
        names = [seat.name for seat in players]
        if options.names:
            if len(options.names) != len(players):
                said = ngettext(
                    "the game has {count} player; --names gives {given}",
                    "the game has {count} players; --names gives {given}",
                    len(players),
                )
                raise Broken(
                    f"{self.where}: " + said.format(count=len(players), given=len(options.names))
                )
            names = list(options.names)
        for i, name in enumerate(names):
            if name in names[:i]:
                said = _("two players are called {name}; give --names")
                raise Broken(f"{self.where}: " + said.format(name=name))
        rename = {seat.profile: name for seat, name in zip(players, names, strict=True)}
        for action in self.actions:
            action["player"] = rename[action["player"]]
        deck = [seat.hand[i] for i in range(HAND) for seat in players] + self.removed
        record: dict[str, Any] = {
            "format": FORMAT,
            "variant": VARIANT,
            "options": {} if options.rules == "text" else dict(APP_OPTIONS),
            "players": names,
            "dealer": names[-1],
            "deck": " ".join(deck),
            "actions": self.actions,
        }
        loser = [r for r in results if r.get("is_skitgubbe") in (1, "1", True)]
        if self.left is None and len(loser) == 1:
            claimed = rename.get(str(loser[0].get("profile_id")))
            if claimed is not None:
                record["result"] = {"loser": claimed}
        source: dict[str, Any] = {
            "format": NAME,
            "game": {k: plain(self.row[k]) for k in columns if k != "initial_deck"},
            "players": [seat.row for seat in self.seats],
            "moves": self.moves,
        }
        if results:
            source["results"] = results
        if self.left is not None:
            source["left"] = {**self.left, "player": rename[self.left["player"]]}
        meta: dict[str, Any] = {}
        if self.row.get("name"):
            meta["event"] = self.row["name"]
        if self.row.get("created_at"):
            meta["date"] = self.row["created_at"]
        meta["_source"] = source
        record["meta"] = meta
        return record


# --- the file -------------------------------------------------------------------------


def _connect(source: str) -> sqlite3.Connection:
    """The file opened read-only (never created, never written), or :class:`Broken`."""
    path = Path(source)
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError:
        raise Broken(f"{source}: " + _("cannot be read")) from None
    if header != SQLITE_HEADER:
        raise Broken(f"{source}: " + _("is not an SQLite database"))
    uri = "file:" + quote(str(path.resolve())) + "?mode=ro"
    if not Path(f"{path}-wal").exists():
        # Nothing waits in a write-ahead log: the file is read as it lies, without the
        # lock and log files SQLite would otherwise create beside it.
        uri += "&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA trusted_schema = OFF")
    except sqlite3.Error:
        raise Broken(f"{source}: " + _("cannot be opened read-only")) from None
    conn.row_factory = sqlite3.Row
    return conn


def _columns(conn: sqlite3.Connection, source: str) -> dict[str, list[str]]:
    """Each table read and its columns; :class:`Broken` when one is missing or no table."""
    kinds = {
        str(name): str(kind)
        for name, kind in conn.execute("SELECT name, type FROM sqlite_master").fetchall()
    }
    found: dict[str, list[str]] = {}
    for table, needed in (*TABLES.items(), (RESULTS, ("game_id", "profile_id"))):
        if kinds.get(table) != "table":
            if table == RESULTS:
                continue
            said = _("has no table {table} (is it albined/skitgubbe's database?)")
            raise Broken(f"{source}: " + said.format(table=table))
        names = [str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")').fetchall()]
        for column in needed:
            if column not in names:
                if table == RESULTS:
                    break
                said = _("table {table} has no column {column}")
                raise Broken(f"{source}: " + said.format(table=table, column=column))
        else:
            found[table] = names
    return found


def _seats(
    conn: sqlite3.Connection, game_id: object, joined: set[str], columns: list[str]
) -> list[Seat]:
    """The game's players in the app's order (db.ts, getGamePlayers): turn order, then the
    host before the others, then the profile id; only players with a profile, as its join."""
    order = "gp.turn_order ASC"
    if "role" in columns:
        order += ", gp.role DESC"
    order += ", gp.profile_id ASC"
    rows = conn.execute(
        "SELECT gp.*, p.name AS profile_name FROM game_players gp "
        f"JOIN profiles p ON gp.profile_id = p.id WHERE gp.game_id = ? ORDER BY {order}",
        (game_id,),
    ).fetchall()
    seats = []
    for row in rows:
        fields = dict(row)
        status = fields.get("invite_status", "accepted")
        # gameReplay.ts: a player with an A move is pending until it; else the stored status
        accepted = str(fields["profile_id"]) not in joined and status == "accepted"
        seats.append(Seat(fields, accepted))
    return seats


def _game(
    conn: sqlite3.Connection,
    row: Mapping[str, Any],
    columns: dict[str, list[str]],
    options: ImportOptions,
) -> dict[str, Any]:
    """One game's record, or :class:`Broken` naming the game and the place."""
    game_id = row["id"]
    where = f"games#{game_id}"
    try:
        deck = read_deck(row["initial_deck"])
    except Broken as bad:
        raise Broken(f"{where}: {bad}") from None
    moves = conn.execute(
        "SELECT * FROM game_moves WHERE game_id = ? ORDER BY seq ASC", (game_id,)
    ).fetchall()
    joined = {str(m["player_id"]) for m in moves if m["move_type"] == "A"}
    game = Game(where, row, _seats(conn, game_id, joined, columns["game_players"]))
    game.removed = deck[::-1]
    for move in moves:
        game.move(dict(move))
    results: list[dict[str, Any]] = []
    if RESULTS in columns:
        results = [
            {k: plain(v) for k, v in dict(r).items() if k != "game_id"}
            for r in conn.execute(f"SELECT * FROM {RESULTS} WHERE game_id = ?", (game_id,))
        ]
    return game.record(options, results, columns["games"])


def looks_like(data: bytes) -> bool:
    """Whether ``data`` (a file's first bytes at least) is an SQLite database: the only
    database format read, so the one an SQLite file is taken for."""
    return data.startswith(SQLITE_HEADER)


def read_bytes(data: bytes, source: str, options: ImportOptions) -> Iterator[Imported]:
    """Every game of the app's file given as its bytes (a file picked on the page), as
    :func:`read`.  The bytes are loaded into a database in memory (SQLite's deserialize),
    queried only: nothing is written to any disk, and the copy is gone when read."""
    if not looks_like(data):
        yield Imported(name=source, error=f"{source}: " + _("is not an SQLite database"))
        return
    if len(data) > options.max_size:
        said = _("is larger than {size} bytes: use the command line, adjudicator import albined-db")
        yield Imported(name=source, error=f"{source}: " + said.format(size=options.max_size))
        return
    if data[18:20] == WAL:
        # A write-ahead-log file: a database in memory has no log beside it, so it is read
        # as the file lies (what a checkpoint wrote into it), the header saying so.
        data = data[:18] + ROLLBACK + data[20:]
    try:
        conn = sqlite3.connect(":memory:")
        conn.deserialize(data)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA trusted_schema = OFF")
    except sqlite3.Error:
        yield Imported(name=source, error=f"{source}: " + _("is not a readable SQLite database"))
        return
    conn.row_factory = sqlite3.Row
    yield from _read_games(conn, source, options)


def read(source: str, options: ImportOptions) -> Iterator[Imported]:
    """Every game of the app's file (or ``options.game``), one :class:`Imported` each, in
    the file's order; a file that is no database of the app is one error naming it."""
    try:
        conn = _connect(source)
    except Broken as bad:
        yield Imported(name=source, error=str(bad))
        return
    yield from _read_games(conn, source, options)


def about(record: Mapping[str, Any]) -> str:
    """What a game was read from, in one line for a person (the page says it)."""
    count = len(record["meta"]["_source"]["moves"])
    said = ngettext(
        "Read a game of the albined/skitgubbe app: {players} players, {count} move",
        "Read a game of the albined/skitgubbe app: {players} players, {count} moves",
        count,
    )
    return said.format(players=len(record["players"]), count=number(count))


def _read_games(
    conn: sqlite3.Connection, source: str, options: ImportOptions
) -> Iterator[Imported]:
    """The games of an open database, which is closed at the end."""
    try:
        try:
            columns = _columns(conn, source)
            if options.game is None:
                games = conn.execute("SELECT * FROM games ORDER BY rowid").fetchall()
            else:
                games = conn.execute("SELECT * FROM games WHERE id = ?", (options.game,)).fetchall()
        except sqlite3.Error:
            yield Imported(
                name=source,
                error=f"{source}: " + _("is not a readable SQLite database"),
            )
            return
        except Broken as bad:
            yield Imported(name=source, error=str(bad))
            return
        if options.game is not None and not games:
            yield Imported(
                name=f"{source}#{options.game}",
                error=f"{source}: " + _("has no game {game}").format(game=repr(options.game)),
            )
            return
        for row in games:
            name = f"{source}#{row['id']}"
            try:
                record = _game(conn, dict(row), columns, options)
            except Broken as bad:
                yield Imported(name=name, error=str(bad))
            except sqlite3.Error:
                yield Imported(
                    name=name,
                    error=f"games#{row['id']}: " + _("its rows cannot be read"),
                )
            else:
                yield Imported(name=name, record=record, about=about(record))
    finally:
        conn.close()
