"""The table: hands, stock, trick, piles, trump and whose turn it is.

One State is mutated in place by the engine during a replay; :meth:`State.view`
takes a copy only when something (a renderer) needs to keep the picture, and
:meth:`State.clone` only where a rule must look one act ahead.

Cards nobody knows (``??`` in a record) are never guessed: a hand is its known
cards plus a count of hidden ones (``hidden``), a pile likewise
(``pile_hidden``), and the stock holds :data:`~adjudicator.cards.UNKNOWN`
where its card is unknown.  ``unseen[c]`` counts the copies of card ``c``
known to be nowhere: a hidden card can only be one of those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from adjudicator.cards import UNKNOWN, Card
from adjudicator.engine.events import Event
from adjudicator.engine.options import Options, options_of
from adjudicator.engine.violations import Violation
from adjudicator.rules.options import RuleOptions

PHASE_ONE = 1
PHASE_TWO = 2
OVER = 3


def one_at_a_time(count: int, receivers: int) -> tuple[int, ...]:
    """How many cards each of ``receivers`` gets when ``count`` are dealt round in order."""
    return tuple(count // receivers + (1 if i < count % receivers else 0) for i in range(receivers))


@dataclass(frozen=True)
class DealDue:
    """A shuffle the rules leave to chance; the record's ``deal`` act gives its outcome.

    ``ordered``: the cards are dealt one at a time to the receivers in their
    order, so the earlier ones may get one more; otherwise as evenly as
    possible, anyone getting the odd cards.
    """

    kind: str
    """'trick_out' (unfinished trick dealt out), 'tie_out' (Koira), 'low_cards'."""
    cards: tuple[Card, ...]
    receivers: tuple[int, ...]
    ordered: bool
    shufflers: frozenset[int]
    to_piles: bool
    leader: int = 0
    """Who leads once a 'tie_out' deal is done."""
    what: str = field(default="", compare=False)
    """In words, for the table view: 'the low cards', 'the unfinished trick'."""
    hidden: int = 0
    """Low cards only: how many hidden hand cards may be low cards as well."""
    optional: bool = False
    """Low cards only: no low card is known, so whether any are shared depends on hidden
    cards; the record says it: a ``deal`` if they were, the first lead of phase two if not."""

    @property
    def shares(self) -> tuple[int, ...] | None:
        """Each receiver's count when dealt one at a time in order (None: as even as possible,
        or unknown while hidden cards may add to the deal)."""
        if not self.ordered or self.hidden:
            return None
        return one_at_a_time(len(self.cards), len(self.receivers))


def variant_acts(options: RuleOptions | Options) -> frozenset[str]:
    """The acts a variant has at all, derived from its options."""
    acts = {"play", "pick"}
    if options.dare:
        acts.add("dare")
    if options.sluffing != "none":
        acts.add("sluff")
    if options.sluffing == "unlimited":
        acts.add("take")
    if options.draw_back != "automatic":
        acts.add("draw")
    if options.set_aside_trumps:
        acts.add("set_aside")
    if options.exchange_two:
        acts.add("exchange")
    if (
        options.low_cards
        or options.low_cards_by_indicator
        or options.unfinished_trick == "deal_out"
        or options.phase_one_end == "skip_empty"
        or options.tie_resolution == "deal_ascending"
    ):
        acts.add("deal")
    return frozenset(acts)


PLAIN_PLAY: dict[str, str] = {"high_trump": "none"}
"""The options under whose values a play of one card in phase two answers to no rule but
:func:`~adjudicator.engine.phase_two.beats` (and whose turn and hand it is), each with that
value: ``State.plain_play`` is computed from them once.  Every option that
:func:`~adjudicator.engine.phase_two.check` reads is either here or shown harmless to the
fast path in ``tests/engine/test_fast_paths.py``, which fails on one that is neither."""

FIELDS: tuple[str, ...] = (
    "acts",
    "ahead",
    "completed_tricks",
    "deal",
    "dealer",
    "decided",
    "discard",
    "events",
    "exchanged",
    "first_leader",
    "forced",
    "hands",
    "head_ranks",
    "hidden",
    "indicator",
    "indicator_down",
    "indicator_holder",
    "last_winner",
    "late",
    "leader",
    "loser",
    "losers",
    "names",
    "options",
    "out_hidden",
    "out_order",
    "own_rank",
    "pending",
    "phase",
    "pile_hidden",
    "piles",
    "plain_kill",
    "plain_play",
    "rank1",
    "replay",
    "reserve",
    "risky",
    "round",
    "round_at",
    "round_plays",
    "second",
    "sluffed",
    "sluffs",
    "steps",
    "stock",
    "stock_done",
    "stopped",
    "stored",
    "taken_risky",
    "telling",
    "tied",
    "trick",
    "trick_target",
    "trump",
    "trump_hint",
    "turn",
    "unseen",
)
"""Every attribute of a :class:`State` (its slots): what a copy of one copies."""


class State:
    """Everything the rules need to know about a game in progress.

    ``stock`` is kept reversed: ``stock[-1]`` is the top card, so drawing is
    ``pop()``.  ``trick`` holds the plays on the table, oldest first, each a
    ``(player, cards)`` pair.
    """

    __slots__ = FIELDS

    def __init__(self, options: RuleOptions | Options, names: tuple[str, ...]) -> None:
        n = len(names)
        if not isinstance(options, Options):
            options = options_of(options)
        self.options: Options = options
        """The variant's rule options, as the engine reads them (engine/option_fields.py)."""
        self.plain_kill = (
            options.high_trump == "none"
            and not options.trump_ends_trick
            and not options.complete_suit
        )
        """Phase two's tricks end only by their count of plays (no high trump, no trump or
        completed suit that ends one): decided at once when a play is made."""
        self.plain_play = all(
            getattr(options, name) == neutral for name, neutral in PLAIN_PLAY.items()
        )
        """Phase two's plays of one card answer to no rule but :func:`phase_two.beats` and
        whose turn and hand it is: :func:`phase_two.check` may decide one at once."""
        self.names = names
        self.acts = variant_acts(options)
        """The acts the variant has at all."""
        self.phase = PHASE_ONE
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.hidden: list[int] = [0] * n
        """Cards in each hand that nobody knows."""
        self.piles: list[list[Card]] = [[] for _ in range(n)]
        self.pile_hidden: list[int] = [0] * n
        self.stock: list[Card] = []
        self.unseen: list[int] = [0] * 52
        """Copies of each card known to be nowhere (behind some ``??``)."""
        self.out_hidden = 0
        """Unknown cards out of play (a start position that names fewer cards than the pack)."""
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.discard: list[Card] = []
        self.trump: int | None = None
        self.trump_hint: int | None = None
        """The suit the record says an unknown trump card showed."""
        self.indicator: Card | None = None
        """The trump card, once drawn (stock's last), set aside (Goat) or turned up (Mas)."""
        self.indicator_holder: int | None = None
        self.indicator_down = False
        """The trump card lies face down apart from the hands (drawn last, or set aside)."""
        self.turn: int | None = None
        self.leader = 0
        self.second = 0
        self.first_leader: int | None = None
        self.last_winner: int | None = None
        self.trick_target = 0
        self.completed_tricks = 0
        self.loser: int | None = None
        self.losers: list[int] = []
        self.out_order: list[list[int]] = []
        """Who went out, in order; players going out at the same moment share a group."""
        self.forced = False
        """After a pick under forced pick-up: the next player must pick too."""
        self.pending: list[bool] = [False] * n
        """Blåmattis players who have not yet had their first turn in phase two."""
        self.reserve: list[Card] = []
        """The two-player avstickshög, reversed like the stock."""
        self.dealer: int | None = None
        self.stored: list[list[Card]] = [[] for _ in range(n)]
        """Mas: three trumps each player set aside for phase two."""
        self.exchanged = False
        """Mas: the turned-up trump has been exchanged for the two of trumps."""
        self.stock_done = False
        """The stock's last card has been drawn (phase one ends after the trick, if so ruled)."""
        self.rank1: tuple[int, ...] = tuple(
            1 if options.aces_low and c % 13 == 12 else c % 13 + 2 for c in range(52)
        )
        """Phase-one rank of every card, 2..14, or 1 for aces where aces are low in phase one."""
        # --- phase one where everybody plays -----------------------------------
        self.sluffs: list[tuple[int, tuple[Card, ...]]] = []
        """Cards sluffed to the trick, oldest first: they never decide it."""
        self.round: list[int] = []
        """The players of the current round (the first, or a tie's replay) in order."""
        self.round_at = 0
        """Index in ``round`` of the player due to play."""
        self.round_plays: list[tuple[int, int]] = []
        """(player, phase-one rank) of each play in the current round."""
        self.replay = False
        """The current round is a tie being played off."""
        self.tied: list[int] = []
        """The players of the tie being played off."""
        self.head_ranks: frozenset[int] = frozenset()
        """The ranks heading the trick so far (decide which cards are 'losing')."""
        self.decided: int | None = None
        """The trick's winner while it lies on the table (sluffing window, or 'take')."""
        self.sluffed: list[bool] = [False] * n
        """Who has used their one sluff ('once', 'atlanta')."""
        self.own_rank: list[int | None] = [None] * n
        """The rank each player may sluff under 'own_rank': that of their latest play."""
        self.deal: DealDue | None = None
        """A shuffle the record must settle with a 'deal' act before play goes on."""
        self.steps = 0
        """Actions applied so far: the index of the next one."""
        self.risky: list[tuple[int, int, tuple[Card, ...]]] = []
        """Sluffs to the trick on the table made while the sluffer could still win it."""
        self.taken_risky: list[tuple[int, int, tuple[Card, ...]]] = []
        """The same for the last trick taken: it is the final trick if phase one ends now."""
        self.late: Violation | None = None
        """A rule broken by an earlier action, found only now (it names that action)."""
        self.stopped: str | None = None
        """Why the game's course cannot be followed further: it depends on unknown cards."""
        self.ahead: tuple[int, State, Sequence[Event]] | None = None
        """The state one act ahead (the decided trick taken), cached for the step it is for."""
        self.events: list[Event] | tuple[Event, ...] = ()
        """What the act being applied caused (handed back, and replaced, by ``apply``)."""
        self.telling = True
        """Whether acts keep what they caused in ``events``: a bulk check or a random game,
        which never read them, turns this off and no event is made."""

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.names)

    @property
    def finished(self) -> bool:
        """Whether the game has reached its end."""
        return self.phase == OVER

    def left_of(self, player: int) -> int:
        """The next seat clockwise."""
        return (player + 1) % len(self.names)

    def count(self, player: int) -> int:
        """How many cards a hand holds, known or not."""
        return len(self.hands[player]) + self.hidden[player]

    def holds(self, player: int) -> bool:
        """Whether ``player`` holds any card."""
        return bool(self.hands[player]) or self.hidden[player] > 0

    def next_with_cards(self, player: int) -> int:
        """The next player clockwise after ``player`` who holds cards."""
        n = len(self.names)
        for step in range(1, n + 1):
            other = (player + step) % n
            if self.hands[other] or self.hidden[other]:
                return other
        return player

    def holders(self) -> int:
        """How many players hold cards."""
        hidden = self.hidden
        return sum(1 for i, hand in enumerate(self.hands) if hand or hidden[i])

    def holders_in_game(self) -> int:
        """Players still in the game: holding cards, or a Blåmattis yet to pick."""
        hands, hidden, pending = self.hands, self.hidden, self.pending
        count = 0
        for i in range(len(hands)):  # (a plain loop: compiled, it is the fastest way)
            if hands[i] or hidden[i] or pending[i]:
                count += 1
        return count

    def hidden_anywhere(self) -> bool:
        """Whether any hand holds a card nobody knows."""
        return any(count for count in self.hidden)

    def may_be_unseen(self, card: Card) -> bool:
        """Whether a hidden card could be ``card``: some copy of it is known to be nowhere."""
        return self.unseen[card] > 0

    def stop(self, reason: str) -> None:
        """The course of the game now depends on cards nobody knows: follow it no further."""
        if self.stopped is None:
            self.stopped = reason
        self.turn = None

    def view(self) -> TableView:
        """A copy of what is on the table, for rendering."""
        return TableView(
            phase=self.phase,
            names=self.names,
            hands=[list(h) for h in self.hands],
            hidden=list(self.hidden),
            piles=[len(p) + self.pile_hidden[i] for i, p in enumerate(self.piles)],
            stock=len(self.stock),
            trick=list(self.trick),
            out_of_play=len(self.discard) + self.out_hidden,
            trump=self.trump,
            indicator_holder=self.indicator_holder,
            turn=self.turn,
            trick_target=self.trick_target,
            loser=self.loser,
            losers=list(self.losers),
            sluffs=list(self.sluffs),
            deal=self.deal,
            stored=[len(s) for s in self.stored],
            turned_up=self.stock[0]
            if self.options.trump_card == "turned_up" and self.stock and self.phase == PHASE_ONE
            else None,
            decided=self.decided,
            trump_card=self.options.trump_card,
            indicator_down=self.indicator_down,
            reserve=len(self.reserve),
        )

    def clone(self) -> State:
        """An independent copy, for looking one act ahead (rare: never on the hot path)."""
        other = State(self.options, self.names)
        for name in FIELDS:
            value = getattr(self, name)
            if value.__class__ is list:  # a list slot holds lists in every element or in none
                value = [v[:] for v in value] if value and value[0].__class__ is list else value[:]
            setattr(other, name, value)
        return other

    def all_cards(self) -> list[Card]:
        """Every known card in play somewhere: for conservation checks."""
        cards: list[Card] = []
        for hand in self.hands:
            cards.extend(hand)
        for pile in self.piles:
            cards.extend(pile)
        cards.extend(c for c in self.stock if c != UNKNOWN)
        for _, played in self.trick:
            cards.extend(played)
        for _, sluffed in self.sluffs:
            cards.extend(sluffed)
        cards.extend(self.discard)
        cards.extend(c for c in self.reserve if c != UNKNOWN)
        for stored in self.stored:
            cards.extend(stored)
        if self.indicator is not None and self.indicator_down and self.indicator != UNKNOWN:
            cards.append(self.indicator)
        return cards

    def unknown_places(self) -> int:
        """How many cards lie somewhere unknown: hidden in hands, piles, stock, out of play."""
        total = sum(self.hidden) + sum(self.pile_hidden) + self.out_hidden
        total += sum(1 for c in self.stock if c == UNKNOWN)
        total += sum(1 for c in self.reserve if c == UNKNOWN)
        if self.indicator == UNKNOWN and self.indicator_down:
            total += 1
        return total


@dataclass
class TableView:
    """A frozen picture of the table after one step."""

    phase: int
    names: tuple[str, ...]
    hands: list[list[Card]]
    piles: list[int]
    stock: int
    trick: list[tuple[int, tuple[Card, ...]]]
    out_of_play: int
    """Cards in nobody's hand and not on the table (docs/record-format.md): killed in tricks,
    set aside before the deal, or written nowhere in a start position."""
    trump: int | None
    indicator_holder: int | None
    turn: int | None
    trick_target: int
    loser: int | None
    sluffs: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    deal: DealDue | None = None
    hidden: list[int] = field(default_factory=list)
    losers: list[int] = field(default_factory=list)
    stored: list[int] = field(default_factory=list)
    turned_up: Card | None = None
    decided: int | None = None
    trump_card: str = "stock_last"
    indicator_down: bool = False
    reserve: int = 0
