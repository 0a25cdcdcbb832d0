"""The table: hands, stock, trick, piles, trump and whose turn it is.

One State is mutated in place by the engine during a replay; :meth:`State.view`
takes a copy only when something (a renderer) needs to keep the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.cards import Card
from adjudicator.rules.options import RuleOptions

PHASE_ONE = 1
PHASE_TWO = 2
OVER = 3


@dataclass(frozen=True)
class DealDue:
    """A shuffle the rules leave to chance; the record's ``deal`` act gives its outcome.

    ``shares`` fixes each receiver's count (in ``receivers`` order) when the
    rule deals one at a time in a fixed order; None means "as even as possible".
    """

    kind: str
    """'trick_out' (unfinished trick dealt out), 'tie_out' (Koira), 'low_cards'."""
    cards: tuple[Card, ...]
    receivers: tuple[int, ...]
    shares: tuple[int, ...] | None
    shufflers: frozenset[int]
    to_piles: bool
    leader: int = 0
    """Who leads once a 'tie_out' deal is done."""
    what: str = field(default="", compare=False)
    """In words, for the table view: 'the low cards', 'the unfinished trick'."""


class State:
    """Everything the rules need to know about a game in progress.

    ``stock`` is kept reversed: ``stock[-1]`` is the top card, so drawing is
    ``pop()``.  ``trick`` holds the plays on the table, oldest first, each a
    ``(player, cards)`` pair.
    """

    __slots__ = (
        "completed_tricks",
        "deal",
        "dealer",
        "decided",
        "discard",
        "forced",
        "hands",
        "head_rank",
        "indicator",
        "indicator_down",
        "indicator_holder",
        "last_winner",
        "leader",
        "loser",
        "losers",
        "names",
        "options",
        "own_rank",
        "pending",
        "phase",
        "piles",
        "replay",
        "reserve",
        "round",
        "round_at",
        "round_plays",
        "second",
        "sluffed",
        "sluffs",
        "stock",
        "tied",
        "trick",
        "trick_target",
        "trump",
        "turn",
    )

    def __init__(self, options: RuleOptions, names: tuple[str, ...]) -> None:
        n = len(names)
        self.options = options
        self.names = names
        self.phase = PHASE_ONE
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.piles: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.discard: list[Card] = []
        self.trump: int | None = None
        self.indicator: Card | None = None
        self.indicator_holder: int | None = None
        self.turn: int | None = None
        self.leader = 0
        self.second = 0
        self.last_winner: int | None = None
        self.trick_target = 0
        self.completed_tricks = 0
        self.loser: int | None = None
        self.losers: list[int] = []
        self.forced = False
        """After a pick under forced pick-up: the next player must pick too."""
        self.pending: list[bool] = [False] * n
        """Blåmattis players who have not yet had their first turn in phase two."""
        self.reserve: list[Card] = []
        """The two-player avstickshög, reversed like the stock."""
        self.dealer: int | None = None
        self.indicator_down = False
        """The trump indicator has been drawn and lies face down by its drawer."""
        # --- phase one where everybody plays -----------------------------------
        self.sluffs: list[tuple[int, tuple[Card, ...]]] = []
        """Cards sluffed to the trick, oldest first: they never decide it."""
        self.round: list[int] = []
        """The players of the current round (the first, or a tie's replay) in order."""
        self.round_at = 0
        """Index in ``round`` of the player due to play."""
        self.round_plays: list[tuple[int, int]] = []
        """(player, rank) of each play in the current round."""
        self.replay = False
        """The current round is a tie being played off."""
        self.tied: list[int] = []
        """The players of the tie being played off."""
        self.head_rank = 0
        """The rank heading the trick so far (decides which ranks are 'losing')."""
        self.decided: int | None = None
        """The trick's winner while it lies on the table (sluffing window, or 'take')."""
        self.sluffed: list[bool] = [False] * n
        """Who has used their one sluff ('once', 'atlanta')."""
        self.own_rank: list[int | None] = [None] * n
        """The rank each player may sluff under 'own_rank': that of their latest play."""
        self.deal: DealDue | None = None
        """A shuffle the record must settle with a 'deal' act before play goes on."""

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

    def next_with_cards(self, player: int) -> int:
        """The next player clockwise after ``player`` who holds cards."""
        n = len(self.names)
        hands = self.hands
        for step in range(1, n + 1):
            other = (player + step) % n
            if hands[other]:
                return other
        return player

    def holders(self) -> int:
        """How many players hold cards."""
        return sum(1 for hand in self.hands if hand)

    def holders_in_game(self) -> int:
        """Players still in the game: holding cards, or a Blåmattis yet to pick."""
        pending = self.pending
        return sum(1 for i, hand in enumerate(self.hands) if hand or pending[i])

    def view(self) -> TableView:
        """A copy of what is on the table, for rendering."""
        return TableView(
            phase=self.phase,
            names=self.names,
            hands=[list(h) for h in self.hands],
            piles=[len(p) for p in self.piles],
            stock=len(self.stock),
            trick=list(self.trick),
            discard=len(self.discard),
            trump=self.trump,
            indicator_holder=self.indicator_holder,
            turn=self.turn,
            trick_target=self.trick_target,
            loser=self.loser,
            sluffs=list(self.sluffs),
            deal=self.deal,
        )

    def all_cards(self) -> list[Card]:
        """Every card in play somewhere: for conservation checks."""
        cards: list[Card] = []
        for hand in self.hands:
            cards.extend(hand)
        for pile in self.piles:
            cards.extend(pile)
        cards.extend(self.stock)
        for _, played in self.trick:
            cards.extend(played)
        for _, sluffed in self.sluffs:
            cards.extend(sluffed)
        cards.extend(self.discard)
        cards.extend(self.reserve)
        if self.indicator is not None and self.indicator_down:
            cards.append(self.indicator)
        return cards


@dataclass
class TableView:
    """A frozen picture of the table after one step."""

    phase: int
    names: tuple[str, ...]
    hands: list[list[Card]]
    piles: list[int]
    stock: int
    trick: list[tuple[int, tuple[Card, ...]]]
    discard: int
    trump: int | None
    indicator_holder: int | None
    turn: int | None
    trick_target: int
    loser: int | None
    sluffs: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    deal: DealDue | None = None
