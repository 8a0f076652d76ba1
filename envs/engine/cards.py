"""Card identities, deck specifications and text notation shared by every game.

A card is a small integer so that hands fit in numpy arrays and lookup tables:
natural cards are ``suit * 13 + rank`` (rank 0 = deuce ... 12 = ace, suits 0..4,
the fifth suit only in the 65-card Mexican deck) and jokers are 65..68. Keeping
one id space for all decks lets the hand evaluator, the encoders and the tests
share tables instead of translating between games.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

RANK_CHARS = "23456789TJQKA"
NUM_RANKS = 13
STANDARD_SUIT_CHARS = "shdc"
STANDARD_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
MEXICAN_SUIT_CHARS = "mlbtq"
MEXICAN_SUIT_NAMES = ("Mariachi", "Luchadores", "Bandidos", "Toreadores", "Conquistadores")

RED_JOKER = 65
BLACK_JOKER = 66
RED_JOKER_2 = 67
BLACK_JOKER_2 = 68
JOKERS = (RED_JOKER, BLACK_JOKER, RED_JOKER_2, BLACK_JOKER_2)
JOKER_NAMES = {RED_JOKER: "RJ", BLACK_JOKER: "BJ", RED_JOKER_2: "RJ2", BLACK_JOKER_2: "BJ2"}
NUM_CARD_IDS = 69

# Vectorised attributes of every id; jokers have rank and suit -1.
RANK_OF = np.array([c % 13 if c < 65 else -1 for c in range(NUM_CARD_IDS)], dtype=np.int8)
SUIT_OF = np.array([c // 13 if c < 65 else -1 for c in range(NUM_CARD_IDS)], dtype=np.int8)


def make_card(rank: int, suit: int) -> int:
    if not 0 <= rank < NUM_RANKS:
        raise ValueError(f"rank must be in 0..12 (2..A), got {rank}")
    if not 0 <= suit < 5:
        raise ValueError(f"suit must be in 0..4, got {suit}")
    return suit * 13 + rank


def rank_of(card: int) -> int:
    return card % 13 if card < 65 else -1


def suit_of(card: int) -> int:
    return card // 13 if card < 65 else -1


def is_joker(card: int) -> bool:
    return card >= 65


@dataclass(frozen=True)
class DeckSpec:
    """One physical deck: which ids it holds and how its suits are written.

    ``joker_stand_ins`` documents decks where a natural card plays a joker (the
    34-card deck's six of hearts is the red joker): the id is the joker's, the
    label is what is printed on the card.
    """

    name: str
    cards: tuple[int, ...]
    suit_chars: str = STANDARD_SUIT_CHARS
    suit_names: tuple[str, ...] = STANDARD_SUIT_NAMES
    joker_stand_ins: dict[int, str] = field(default_factory=dict)
    description: str = ""

    def __len__(self) -> int:
        return len(self.cards)

    def format(self, card: int) -> str:
        return format_card(card, self.suit_chars)

    def parse(self, text: str) -> int:
        card = parse_card(text, self.suit_chars)
        if card not in self.cards:
            raise ValueError(f"card {text!r} is not in the {self.name} deck")
        return card


def _naturals(suits: int, min_rank: int = 0) -> tuple[int, ...]:
    return tuple(s * 13 + r for s in range(suits) for r in range(min_rank, NUM_RANKS))


DECKS: dict[str, DeckSpec] = {
    "52": DeckSpec("52", _naturals(4), description="standard 52-card deck"),
    "54": DeckSpec(
        "54", (*_naturals(4), RED_JOKER, BLACK_JOKER), description="52 cards plus a red and a black joker"
    ),
    "34": DeckSpec(
        "34",
        (*_naturals(4, min_rank=5), RED_JOKER, BLACK_JOKER),
        joker_stand_ins={RED_JOKER: "6h", BLACK_JOKER: "6s"},
        description="7..A of four suits plus the six of hearts (red joker) and six of spades (black joker)",
    ),
    "56": DeckSpec("56", (*_naturals(4), *JOKERS), description="52 cards plus four jokers"),
    "65": DeckSpec(
        "65",
        _naturals(5),
        suit_chars=MEXICAN_SUIT_CHARS,
        suit_names=MEXICAN_SUIT_NAMES,
        description="Mexican poker: 13 ranks in five suits",
    ),
}


def format_card(card: int, suit_chars: str = STANDARD_SUIT_CHARS) -> str:
    if suit_chars is STANDARD_SUIT_CHARS and 0 <= card < NUM_CARD_IDS:
        return _STANDARD_NAMES[card]  # the hot path (hand outcomes, histories): one lookup
    return _format_card(card, suit_chars)


def _format_card(card: int, suit_chars: str) -> str:
    if card in JOKER_NAMES:
        return JOKER_NAMES[card]
    if not 0 <= card < 65:
        raise ValueError(f"no card has id {card}; ids are 0..{NUM_CARD_IDS - 1}")
    suit = card // 13
    if suit >= len(suit_chars):
        # A fifth-suit card printed with the four-suit alphabet: fall back to the Mexican letters.
        suit_chars = MEXICAN_SUIT_CHARS
    return RANK_CHARS[card % 13] + suit_chars[suit]


_STANDARD_NAMES = tuple(_format_card(c, STANDARD_SUIT_CHARS) for c in range(NUM_CARD_IDS))


def parse_card(text: str, suit_chars: str = STANDARD_SUIT_CHARS) -> int:
    """Read ``As``, ``Th``, ``RJ`` (or ``Am`` with the Mexican suit letters)."""
    t = text.strip()
    for card, name in JOKER_NAMES.items():
        if t.upper() == name:
            return card
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2:
        raise ValueError(
            f"cannot read card {text!r}: expected rank+suit like 'As', 'Th' or a joker 'RJ'/'BJ'"
        )
    rank_ch, suit_ch = t[0].upper(), t[1].lower()
    if rank_ch not in RANK_CHARS:
        raise ValueError(f"cannot read card {text!r}: rank {t[0]!r} is not one of {RANK_CHARS}")
    if suit_ch not in suit_chars:
        raise ValueError(f"cannot read card {text!r}: suit {t[1]!r} is not one of {suit_chars!r}")
    return suit_chars.index(suit_ch) * 13 + RANK_CHARS.index(rank_ch)


def parse_cards(cards: str | Iterable[int | str], suit_chars: str = STANDARD_SUIT_CHARS) -> list[int]:
    """Accept ``"As Kd RJ"``, ``["As", "Kd"]`` or ids; always return ids."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    out = []
    for c in cards:
        if type(c) is int and 0 <= c < NUM_CARD_IDS:
            out.append(c)
        elif isinstance(c, str):
            out.append(parse_card(c, suit_chars))
        else:
            if isinstance(c, bool) or not isinstance(c, int | np.integer):
                raise ValueError(f"a card is an id 0..{NUM_CARD_IDS - 1} or text like 'As'; got {c!r}")
            ci = int(c)
            if not 0 <= ci < NUM_CARD_IDS:
                raise ValueError(f"no card has id {ci}; ids are 0..{NUM_CARD_IDS - 1}")
            out.append(ci)
    return out


def format_cards(cards: Iterable[int], suit_chars: str = STANDARD_SUIT_CHARS) -> str:
    return " ".join(format_card(c, suit_chars) for c in cards)


class Chance:
    """Every random event of a game goes through one of these.

    Games never touch a global RNG: they shuffle and draw through ``Chance`` so
    that a seed fixes the whole game, and tests can swap in ``ScriptedChance``
    to stack the deck without the rules code knowing.
    """

    def __init__(self, rng: np.random.Generator | None = None, *, seed: int | None = None):
        # With only a seed the generator is made on first use: a search's sampled worlds get a
        # fresh chance each, and most are played out without drawing from it (building a
        # Generator costs tens of microseconds, more than a clone of the rest of the game).
        self._rng = rng
        self._seed = seed

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value

    def __setstate__(self, state: dict) -> None:
        if "rng" in state:  # pickled before the generator was made lazily
            state["_rng"] = state.pop("rng")
            state.setdefault("_seed", None)
        self.__dict__.update(state)

    def shuffle(self, cards: Sequence[int]) -> list[int]:
        """Return ``cards`` in a new random order; index 0 is the top of the stock."""
        return np.asarray(cards)[self.rng.permutation(len(cards))].tolist()

    def integer(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (first dealer, token holder, insertion point)."""
        return int(self.rng.integers(n))

    def copy(self) -> Chance:
        """An independent copy that makes the same future draws; about 3x cheaper than ``deepcopy``
        (game clones for Monte Carlo agents copy it at every decision), and free while the
        generator is not made yet (the copy makes the same one from the same seed)."""
        new = copy.copy(self)
        if self._rng is not None:
            new._rng = np.random.Generator(copy.copy(self._rng.bit_generator))
        return new


class ScriptedChance(Chance):
    """Chance with a script: the next shuffles put the given cards on top, in order.

    Each scripted shuffle lists cards (ids or text) that must all be in the deck
    being shuffled; they come first, the rest follow in a seeded random order.
    Scripted integers are returned by ``integer`` in turn. When a script runs
    out, the seeded generator takes over, so a test only stacks what it needs.
    """

    def __init__(
        self,
        shuffles: Sequence[Sequence[int | str]] = (),
        integers: Sequence[int] = (),
        seed: int = 0,
        suit_chars: str = STANDARD_SUIT_CHARS,
    ):
        super().__init__(np.random.default_rng(seed))
        self.shuffles = [parse_cards(s, suit_chars) for s in shuffles]
        self.integers = list(integers)

    def shuffle(self, cards: Sequence[int]) -> list[int]:
        if not self.shuffles:
            return super().shuffle(cards)
        top = self.shuffles.pop(0)
        rest = list(cards)
        for c in top:
            try:
                rest.remove(c)
            except ValueError:
                raise ValueError(
                    f"scripted shuffle puts {format_card(c)} on top, but it is not among the "
                    f"{len(cards)} cards being shuffled"
                ) from None
        return top + super().shuffle(rest)

    def copy(self) -> ScriptedChance:
        new = super().copy()
        new.shuffles = [list(t) for t in self.shuffles]
        new.integers = list(self.integers)
        return new

    def integer(self, n: int) -> int:
        if not self.integers:
            return super().integer(n)
        value = self.integers.pop(0)
        if not 0 <= value < n:
            raise ValueError(f"scripted integer {value} is outside 0..{n - 1}")
        return value
