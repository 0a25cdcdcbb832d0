"""Card spellings (record-format.md 'Cards'): parsing, rejection, canonical and table forms."""

from __future__ import annotations

import itertools

import pytest

from adjudicator.cards import (
    FULL_PACK,
    card_code,
    card_text,
    cards_text,
    make_card,
    parse_card,
    parse_suit,
    rank,
    suit,
)

RANK_SPELLINGS: dict[int, list[str]] = {r: [str(r)] for r in range(2, 10)}
RANK_SPELLINGS.update({10: ["T", "10"], 11: ["J"], 12: ["Q"], 13: ["K"], 14: ["A"]})
SUIT_SPELLINGS: dict[int, list[str]] = {
    0: ["S", "♠", "♤"],
    1: ["H", "♥", "♡"],
    2: ["D", "♦", "♢"],
    3: ["C", "♣", "♧"],
}


def every_spelling() -> list[tuple[str, int, int]]:
    """(spelling, rank, suit) for every spelling the contract allows, both cases."""
    out = []
    for (r, ranks), (s, suits) in itertools.product(RANK_SPELLINGS.items(), SUIT_SPELLINGS.items()):
        for rank_word, suit_word in itertools.product(ranks, suits):
            text = rank_word + suit_word
            out.extend({(text.upper(), r, s), (text.lower(), r, s)})
    return out


SPELLINGS = every_spelling()


def test_the_spelling_table_is_complete() -> None:
    """13 ranks x 4 suits; T/10 doubles the tens, three suit forms, letters in two cases."""
    assert len({(r, s) for _, r, s in SPELLINGS}) == 52
    assert {"10h", "TH", "th", "T♥", "t♡", "10♥", "Q♤", "q♧", "AS", "as", "2♢"} <= {
        text for text, _, _ in SPELLINGS
    }


@pytest.mark.parametrize(("text", "card_rank", "card_suit"), SPELLINGS)
def test_every_spelling_parses_to_its_card(text: str, card_rank: int, card_suit: int) -> None:
    card = parse_card(text)
    assert rank(card) == card_rank
    assert suit(card) == card_suit
    assert card == make_card(card_rank, card_suit)


def test_ten_of_hearts_has_many_spellings_and_one_canonical_form() -> None:
    spellings = ["10h", "10H", "TH", "th", "tH", "T♥", "t♥", "10♥", "T♡", "10♡"]
    parsed = {parse_card(s) for s in spellings}
    assert parsed == {make_card(10, 1)}
    assert card_code(parsed.pop()) == "TH"


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "7",
        "H",
        "10",
        "T",
        "1H",
        "0H",
        "11H",
        "01H",
        "1♥",
        "7X",
        "7E",
        "XH",
        "BH",
        "H7",
        "♥7",
        "7HH",
        "77H",
        "7 H",
        "10 H",
        "AHS",
        "ZZ",
        "7H,",
        "7H 8H",
        "♥",
        "K♚",
    ],
)
def test_bad_strings_are_rejected_naming_the_string(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card") as info:
        parse_card(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("value", [None, 7, 7.0, ["7H"], b"7H"])
def test_non_strings_are_rejected(value: object) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(value)  # type: ignore[arg-type]


def test_every_card_has_a_distinct_canonical_code_that_parses_back() -> None:
    codes = [card_code(c) for c in FULL_PACK]
    assert len(set(codes)) == 52
    assert all(len(code) == 2 and code == code.upper() for code in codes)
    assert [parse_card(code) for code in codes] == list(FULL_PACK)


@pytest.mark.parametrize(
    ("text", "code", "table"),
    [
        ("2s", "2S", "2♠"),
        ("9♦", "9D", "9♦"),
        ("10h", "TH", "10♥"),
        ("T♧", "TC", "10♣"),
        ("j♡", "JH", "J♥"),
        ("Q♤", "QS", "Q♠"),
        ("kd", "KD", "K♦"),
        ("a♣", "AC", "A♣"),
    ],
)
def test_canonical_and_table_forms(text: str, code: str, table: str) -> None:
    card = parse_card(text)
    assert card_code(card) == code
    assert card_text(card) == table


def test_table_form_of_several_cards() -> None:
    assert cards_text([parse_card("7h"), parse_card("10s"), parse_card("AC")]) == "7♥ 10♠ A♣"


def test_ranks_order_ace_high_and_suits_in_s_h_d_c_order() -> None:
    assert [rank(parse_card(r + "S")) for r in "23456789TJQKA"] == list(range(2, 15))
    assert [suit(parse_card("2" + s)) for s in "SHDC"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("S", 0), ("h", 1), ("♦", 2), ("♧", 3), ("♤", 0), ("c", 3)],
)
def test_suits_parse_in_every_spelling(text: str, expected: int) -> None:
    assert parse_suit(text) == expected


@pytest.mark.parametrize("text", ["", "X", "SH", "spades", "7"])
def test_bad_suits_are_rejected(text: str) -> None:
    with pytest.raises(ValueError, match="is not a suit"):
        parse_suit(text)
