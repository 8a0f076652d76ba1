"""Fixed-limit betting rounds, all-ins, side pots and split pots, shared by the betting games.

A game owns one ``LimitBetting`` per hand: antes go in with ``post``, each
street opens a round with ``start_round(bet_size, first)``, the player in
``to_act`` picks from ``legal()`` and ``act`` applies it. At the end
``pots()`` splits what everyone put in into a main pot and side pots (who
may win each), and ``award`` pays them out by hand strength with the odd
chips going clockwise from a given seat. It knows nothing about cards, so
every stud or draw game uses the same chips code and the same tests.

Fixed-limit rules implemented (RULES.md names only the sizes and the cap):

* Bets and raises come in one size per round (``bet_size``); a bet or raise
  always brings the player's round total to the next full level,
  ``(complete_bets + 1) * bet_size``. ``max_bets`` counts the bet plus the
  raises (one bet and three raises: ``max_bets=4``).
* A player who cannot afford a call, bet or raise puts in what is left and
  is all in. An all-in bet or raise short of the full level is *incomplete*:
  it does not count towards the cap and does not reopen the betting for
  players who have already acted since the last complete bet or raise (they
  may only call or fold); the next player may still complete it ("bet" when
  no complete bet has been made in the round, "raise" otherwise).
* Fold is offered only when there is something to call (folding when a
  check is free is never better, so the mask leaves it out); bet and raise
  are offered only when another player could still answer with chips.
* A round with fewer than two players able to bet is skipped; the hand is
  over for betting purposes when one player is left in.
* Pots: every distinct total put in by a player still in the hand makes a
  level; each level's chips (folded players' included) form a pot that the
  players still in with at least that total may win. A pot only one player
  can win is their uncalled bet coming back.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

FOLD, CHECK, CALL, BET, RAISE = range(5)
ACTION_NAMES = ("fold", "check", "call", "bet", "raise")
NUM_ACTIONS = 5


class BettingError(ValueError):
    """An action the betting state does not allow (wrong player, not legal now, no round open)."""


@dataclass(frozen=True)
class Pot:
    """Chips that the ``eligible`` seats (players still in who put in enough) compete for."""

    amount: int
    eligible: tuple[int, ...]


def side_pots(committed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Main pot and side pots from each player's total put in this hand.

    Chips a folded player put in above the highest total of anyone still in
    (which fixed-limit betting cannot produce, but a caller may pass) go to
    the last pot, so the pots always add up to everything put in.
    """
    n = len(committed)
    live = [p for p in range(n) if not folded[p]]
    if not live:
        raise BettingError("no player is left in the hand, so nobody can win a pot")
    pots: list[Pot] = []
    prev = 0
    for level in sorted({committed[p] for p in live}):
        amount = sum(min(c, level) - min(c, prev) for c in committed)
        eligible = tuple(p for p in live if committed[p] >= level)
        if amount:
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        prev = level
    leftover = sum(max(0, c - prev) for c in committed)
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(Pot(leftover, tuple(live)))
    return pots


def split(amount: int, winners: Sequence[int], first_seat: int, num_players: int) -> dict[int, int]:
    """Share ``amount`` among ``winners``; odd chips one each, clockwise from ``first_seat``."""
    if not winners:
        raise BettingError("a pot needs at least one winner")
    share, odd = divmod(amount, len(winners))
    order = sorted(winners, key=lambda p: (p - first_seat) % num_players)
    return {p: share + (1 if i < odd else 0) for i, p in enumerate(order)}


def award(
    pots: Sequence[Pot], keys: Sequence[int | None], first_seat: int, num_players: int
) -> tuple[list[int], list[tuple[int, ...]]]:
    """Pay each pot to its eligible players with the highest key; returns (chips per seat, winners per pot).

    ``keys[p]`` is player p's hand strength (higher wins; equal keys split);
    it is only read for eligible players, so folded seats may hold None.
    """
    won = [0] * num_players
    winners_per_pot: list[tuple[int, ...]] = []
    for pot in pots:
        if len(pot.eligible) == 1:
            winners: tuple[int, ...] = pot.eligible
        else:
            best = max(keys[p] for p in pot.eligible)  # type: ignore[type-var]
            winners = tuple(p for p in pot.eligible if keys[p] == best)
        for p, chips in split(pot.amount, winners, first_seat, num_players).items():
            won[p] += chips
        winners_per_pot.append(winners)
    return won, winners_per_pot


class LimitBetting:
    """The chips of one hand: stacks, totals put in, folds and the open betting round.

    ``in_hand[p]`` False seats (busted, sitting out) are treated as folded from
    the start and never act. All amounts are whole chips.
    """

    def __init__(self, stacks: Sequence[int], in_hand: Sequence[bool] | None = None, max_bets: int = 4):
        if max_bets < 1:
            raise BettingError(
                f"max_bets counts the bet plus the raises, so it is at least 1, got {max_bets}"
            )
        if any(s < 0 for s in stacks):
            raise BettingError(f"stacks cannot be negative: {list(stacks)}")
        self.num_players = len(stacks)
        self.stacks = [int(s) for s in stacks]
        in_hand = [True] * self.num_players if in_hand is None else list(in_hand)
        self.folded = [not i for i in in_hand]
        self.committed = [0] * self.num_players  # put in this hand (antes included)
        self.bets = [0] * self.num_players  # put in this round
        self.max_bets = max_bets
        self.bet_size = 0
        self.current_bet = 0  # highest round total
        self.complete_bets = 0  # the bet and raises of this round that count towards the cap
        self.to_act: int | None = None
        self._needs_action = [False] * self.num_players
        self._can_raise = [True] * self.num_players
        self.round_open = False

    def copy(self) -> LimitBetting:
        """An independent copy (the lists are copied, the numbers shared): for game clones in search."""
        new = copy.copy(self)
        new.stacks = list(self.stacks)
        new.folded = list(self.folded)
        new.committed = list(self.committed)
        new.bets = list(self.bets)
        new._needs_action = list(self._needs_action)
        new._can_raise = list(self._can_raise)
        return new

    # ------------------------------------------------------------------ queries
    def can_act(self, p: int) -> bool:
        return not self.folded[p] and self.stacks[p] > 0

    def is_all_in(self, p: int) -> bool:
        return not self.folded[p] and self.stacks[p] == 0

    @property
    def players_in(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.folded[p]]

    @property
    def pot(self) -> int:
        """Everything put in this hand, the current round's bets included."""
        return sum(self.committed)

    def to_call(self, p: int) -> int:
        return self.current_bet - self.bets[p]

    def _others_can_answer(self, p: int) -> bool:
        folded, stacks = self.folded, self.stacks
        return any(q != p and not folded[q] and stacks[q] > 0 for q in range(self.num_players))

    def legal(self) -> np.ndarray:
        """bool[5] over fold, check, call, bet, raise for the player to act (all False if none)."""
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        p = self.to_act
        if p is None:
            return mask
        owe = self.to_call(p)
        if owe > 0:
            mask[FOLD] = mask[CALL] = True
        else:
            mask[CHECK] = True
        if self.stacks[p] > owe and self._can_raise[p] and self._others_can_answer(p):
            if self.complete_bets == 0:
                mask[BET] = True
            elif self.complete_bets < self.max_bets:
                mask[RAISE] = True
        return mask

    # ------------------------------------------------------------------ chips in
    def post(self, p: int, amount: int) -> int:
        """Put up to ``amount`` of p's stack in as dead money (an ante); returns what went in."""
        if amount < 0:
            raise BettingError(f"cannot post a negative amount ({amount})")
        paid = min(amount, self.stacks[p])
        self.stacks[p] -= paid
        self.committed[p] += paid
        return paid

    def _put(self, p: int, amount: int) -> None:
        self.stacks[p] -= amount
        self.committed[p] += amount
        self.bets[p] += amount

    # ------------------------------------------------------------------ rounds
    def start_round(self, bet_size: int, first: int) -> bool:
        """Open a betting round; action starts at ``first`` or the next seat clockwise that can bet.

        Returns False (and opens nothing) when fewer than two players can bet.
        """
        if bet_size < 1:
            raise BettingError(f"bet_size must be at least 1, got {bet_size}")
        self.bets = [0] * self.num_players
        self.bet_size = bet_size
        self.current_bet = 0
        self.complete_bets = 0
        self._can_raise = [True] * self.num_players
        able = [self.can_act(p) for p in range(self.num_players)]
        if sum(able) < 2 or len(self.players_in) < 2:
            self.round_open = False
            self.to_act = None
            return False
        self._needs_action = able
        self.round_open = True
        self.to_act = self._next_needing(first, include_start=True)
        return True

    def _next_needing(self, start: int, include_start: bool) -> int | None:
        n = self.num_players
        needs, folded, stacks = self._needs_action, self.folded, self.stacks
        for step in range(0, n) if include_start else range(1, n):
            q = (start + step) % n
            if needs[q] and not folded[q] and stacks[q] > 0:
                return q
        return None

    def act(self, action: int, check: bool = True) -> dict:
        """Apply ``action`` for ``to_act``; returns what happened (action, amount, total, all_in).

        ``check=False`` skips the legality test for callers that have already
        checked the mask (a game's ``apply``); an illegal action then corrupts the round.
        """
        p = self.to_act
        if p is None:
            raise BettingError("no betting round is waiting for an action")
        if check and (not 0 <= action < NUM_ACTIONS or not self.legal()[action]):
            legal = [ACTION_NAMES[a] for a in np.flatnonzero(self.legal())]
            what = ACTION_NAMES[action] if 0 <= action < NUM_ACTIONS else repr(action)
            raise BettingError(f"player {p} cannot {what} now; legal: {', '.join(legal)}")
        amount = 0
        if action == FOLD:
            self.folded[p] = True
        elif action == CALL:
            amount = min(self.to_call(p), self.stacks[p])
            self._put(p, amount)
        elif action in (BET, RAISE):
            target = (self.complete_bets + 1) * self.bet_size
            amount = min(target - self.bets[p], self.stacks[p])
            self._put(p, amount)
            complete = self.bets[p] == target
            raised = self.bets[p] > self.current_bet
            self.current_bet = max(self.current_bet, self.bets[p])
            if complete:
                self.complete_bets += 1
            for q in range(self.num_players):
                if q == p or not self.can_act(q):
                    continue
                if complete:
                    self._needs_action[q] = True
                    self._can_raise[q] = True
                elif raised and self.bets[q] < self.current_bet:
                    self._needs_action[q] = True
        self._needs_action[p] = False
        self._can_raise[p] = False
        self._advance(p)
        return {
            "player": p,
            "action": ACTION_NAMES[action],
            "amount": amount,
            "total": self.bets[p],
            "all_in": self.is_all_in(p),
        }

    def _advance(self, last: int) -> None:
        if self.folded.count(False) < 2:
            self.to_act = None
        else:
            self.to_act = self._next_needing(last, include_start=False)
        if self.to_act is None:
            self.round_open = False

    # ------------------------------------------------------------------ end of hand
    def pots(self) -> list[Pot]:
        return side_pots(self.committed, self.folded)

    def settle(self, keys: Sequence[int | None], first_seat: int) -> tuple[list[int], list[Pot], list[tuple]]:
        """Pay every pot out to the stacks; returns (chips won per seat, pots, winners per pot)."""
        pots = self.pots()
        won, winners = award(pots, keys, first_seat, self.num_players)
        for p, chips in enumerate(won):
            self.stacks[p] += chips
        self.committed = [0] * self.num_players
        self.bets = [0] * self.num_players
        return won, pots, winners
