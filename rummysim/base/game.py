"""What every variant's game in play (``rummysim/variants/<name>/game.py``, ``Variant.game``) does the
same way: the game's start, dealing the next unit, the seat to act and its legal moves, the seat's
policy, the seat's view in words, and each move and each end said to the person playing (``play``).
A subclass names its variant's modules (policy, notation, replay, hints, moves), its state slots
(``I_SEAT``, ``I_PHASE``) and its result rows' widths (``row_cols``, ``seat_cols``), and fills in the
calls that differ: ``_deal``, ``_apply``, ``_events``, ``_result_rows``, ``game_row``, and for
``redeal_hidden`` (the cards a seat cannot see dealt again: what the tests of hidden information and
an agent sampling what it cannot see use) ``_take_hidden``, ``_give`` and ``_check_cards``. ``MaskedHands``
fills in what Basic Rummy and Gin Rummy, whose hands are card masks, do alike."""

from __future__ import annotations

import numpy as np

from ..cards import cards_of
from ..results import Chunk
from .notation import seat_name

#: what ``play`` returns without ``log``
NO_EVENTS: tuple = ()


class GameInPlay:
    """Base of a variant's ``Game``; see the variant's module for the calls that differ."""

    first_unit = 0
    #: examples of its typed moves, for ``play``'s help
    move_words = "draw stock, take, meld H3 H4 H5, layoff SQ 2, discard D9"
    I_SEAT = I_PHASE = -1          # the state's slots (``ints``) of the seat to act and its decision
    I_STOCK_N = -1                 # ... and of the cards in the stock
    policy = notation = replay = hints = moves = None   # the variant's modules
    row_cols = seat_cols = 0       # the columns of a unit's result row and of a seat's (the variant's schema)

    def reset(self, seed: int, game: int) -> None:
        """Game ``game`` of ``seed`` from its start: its first hand (round) dealt."""
        self.seed, self.game = seed, game
        self.scores[:] = 0
        self.number = self.first_unit          # the hand (round) in play
        self.rows, self.seat_rows = [], []     # the finished units' result rows
        self._deal()

    def next_unit(self) -> None:
        """Deal the next hand (round), after ``finish``."""
        self._deal()

    def deal_event(self) -> dict:
        return self.replay.deal_event(self.state, self.players, (self.first + self.players - 1) % self.players)

    @property
    def seat(self) -> int:
        """The seat to act."""
        return int(self.state.ints[self.I_SEAT])

    def legal(self) -> np.ndarray:
        """The legal moves of the seat to act (int64, in ``legal_moves`` order; empty once the unit is over)."""
        return self.legal_buf[:self.n_legal]

    def choose(self, params: np.ndarray, seat: int) -> int:
        """The move the seat's policy (``params`` float64[players, N]) chooses now (Shanghai, a
        ``CONTRACT``: its laying in the proposal buffer, see ``keep``)."""
        return int(self.policy.choose(self.state, params, seat, self.scratch))

    def play(self, move: int) -> list[dict]:
        """Play the seat to act's legal ``move``; returns the events it logged (none without ``log``)."""
        self.n_legal = self._apply(move)
        if not self.log:
            return NO_EVENTS
        events = self._events()
        self._clear_events()
        return events

    def _clear_events(self) -> None:
        """Empty the state's event log (its count of rows written)."""
        self.state.n_ev[0] = 0

    def _stock(self) -> np.ndarray:
        """The state's stock slots (a view), the top at ``ints[I_STOCK_N] - 1``."""
        return self.state.stock

    def finish(self) -> np.ndarray:
        """The hand (round) is over: its result rows kept, its points (int64[players]) added to the
        scores and returned; ``end_event`` is its end."""
        row = np.zeros(self.row_cols, dtype=np.int32)
        seats = np.zeros((self.players, self.seat_cols), dtype=np.int32)
        self._result_rows(row, seats)
        points = np.zeros(self.players, dtype=np.int64)
        self.moves.scores(self.state, points)
        self.scores += points
        self.rows.append(row)
        self.seat_rows.append(seats)
        self.number += 1
        return points

    def chunk(self) -> Chunk:
        """The game's rows as ``run`` writes them."""
        return Chunk(np.array(self.rows, dtype=np.int32).reshape(-1, self.row_cols),
                     np.array(self.seat_rows, dtype=np.int32).reshape(-1, self.players, self.seat_cols),
                     np.array([self.game], dtype=np.int64), self.game_row())

    def _arrays(self) -> list[np.ndarray]:
        """Every array a move or a policy's choice writes: the state's, the policies' scratch (its
        streams) and the legal moves, in a fixed order."""
        found, todo = [], [self.state, self.scratch, self.legal_buf]
        while todo:
            x = todo.pop()
            if isinstance(x, np.ndarray):
                found.append(x)
            elif isinstance(x, tuple):
                todo.extend(x)
        return found

    def snapshot(self):
        """A copy of the hand (round) in play and the policies' streams, for ``rewind``: a decision can
        be asked again, in another deal of the hidden cards (``redeal_hidden``) or by another strategy."""
        return [a.copy() for a in self._arrays()], self.n_legal

    def rewind(self, snapshot) -> None:
        """Back to ``snapshot``: the state, the streams and the legal moves as they were."""
        arrays, self.n_legal = snapshot
        for now, then in zip(self._arrays(), arrays, strict=True):
            now[...] = then

    def redeal_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """Deal again, with ``rng``, the cards ``seat`` cannot see: the other hands less what each is
        known to hold (``known``), and the stock in its order; every hand and the stock keep their sizes."""
        taken = {q: self._take_hidden(q) for q in range(self.players) if q != seat}
        stock, n_stock = self._stock(), int(self.state.ints[self.I_STOCK_N])
        pool = [c for cards in taken.values() for c in cards] + stock[:n_stock].tolist()
        rng.shuffle(pool)
        for q, cards in taken.items():
            self._give(q, pool[:len(cards)])
            pool = pool[len(cards):]
        stock[:n_stock] = pool
        self._check_cards()

    @property
    def unit_over(self) -> bool:
        """The hand (round) in play has ended (``finish`` it)."""
        return self.n_legal == 0

    def describe(self, seat: int) -> str:
        """What ``seat`` sees, as text (its notation's ``describe``)."""
        return self.notation.describe(self.state, seat, totals=self.scores, taken=self.taken())

    def step(self, who=seat_name) -> str:
        """What the seat to act may do now, in words (``who(seat)``: how the reader calls a seat)."""
        return self.notation.STEPS[int(self.state.ints[self.I_PHASE])]

    def suggested(self, seat: int) -> list[int]:
        """The legal moves to offer ``seat`` before any card is selected, beyond those using no card (Gin's
        meld steps: the melds of its best arrangement); none here."""
        return []

    def table_lines(self, who=seat_name) -> list[str]:
        """The table melds, a line each (``who(seat)``: how the reader calls a seat)."""
        return self.notation.table_lines(self.state)

    def marks(self, seat: int) -> tuple[set[int], set[int], str]:
        """The cards of ``seat``'s hand to mark ``*`` and ``+``, and what the marks mean."""
        full, part = self.hints.marks(self.state, seat)
        return full, part, "* in a meld, + in a partial meld"

    def upcard(self) -> int:
        return self.notation.upcard(self.state)

    def event_line(self, e: dict, who, you: int) -> str | None:
        """Event ``e`` as one line for the person in seat ``you`` (``who(seat)``: "you" or the seat's
        name), hiding what that seat may not see (another seat's stock draw); None for an event not
        shown. A subclass words its own kinds and hands the rest here."""
        kind, p = e["event"], e.get("player")
        name, s = (who(p), "s" * (p != you)) if p is not None else ("", "")
        if kind == "draw":
            if e["source"] == "stock":
                return f"you draw {e['card']} from the stock" if p == you else f"{name} draws from the stock"
            return f"{name} take{s} {e['card']} from the pile"
        if kind == "meld":
            return f"{name} meld{s} {' '.join(e['cards'])}"
        if kind == "layoff":
            return f"{name} lay{s} off {e['card']} on meld {e['meld'] + 1}"
        if kind == "discard":
            return f"{name} discard{s} {e['card']}"
        if kind == "reshuffle":
            return "the stock ran out: the discard pile becomes the stock"
        return None

    def end_lines(self, e: dict, who) -> list[str]:
        """The end event of a hand (round) for the person: who went out (``went_out``), every hand shown."""
        head = self.went_out(e, who) if e["outcome"] == "win" else f"no winner: {e['outcome'].replace('_', ' ')}"
        return [head] + [f"  {who(q)} held: {' '.join(h) or '-'}" for q, h in enumerate(e["hands"])]


class MaskedHands:
    """What a game whose hands are card masks and whose hand has one winner or none (Basic Rummy, Gin
    Rummy) does alike, mixed in before ``GameInPlay``: each seat's hand is ``masks[M_HAND + seat]``,
    what it is known to hold (the cards it took from the pile and still holds) ``masks[M_HELD +
    seat]``, the hand's winner ``ints[I_WINNER]``, the move with no choice ``moves.forced_move``; the
    game is won by the first of the highest scores reaching ``target``, and stops at ``max_hands``.
    A subclass names those slots."""

    M_HAND = M_HELD = I_WINNER = I_PILE_N = -1    # the state's slots (``masks``, ``ints``)
    max_hands = 0                      # the hands cap of a game (the kernel's ``MAX_HANDS_PER_GAME``)

    def forced(self) -> int:
        """The move that is no choice (``run``'s driver plays it without asking the policy: Basic's
        draw, Gin's), else -1."""
        return int(self.moves.forced_move(self.state))

    def bot_move(self, params: np.ndarray) -> int:
        """The move ``run``'s driver plays: the forced move, else ``policy.choose``."""
        move = self.forced()
        return move if move >= 0 else self.choose(params, self.seat)

    def keep(self):
        """What ``restore`` needs to apply a move chosen earlier this decision: nothing here."""

    def restore(self, kept) -> None:
        pass

    def end_event(self) -> dict:
        return self.replay.end_event(self.rows[-1], self.state.masks, self.players)

    def hand_winner(self) -> int:
        """The winner of the hand just finished, else -1 (no winner)."""
        return int(self.state.ints[self.I_WINNER])

    def winner(self) -> int:
        """The seat that reached the target (the first of the highest), else -1."""
        top = int(np.argmax(self.scores))
        return top if self.scores[top] >= self.target else -1

    def winners(self) -> list[int]:
        """The game's winner as a list (none when the hands cap stopped it)."""
        w = self.winner()
        return [w] if w >= 0 else []

    @property
    def over(self) -> bool:
        """The game has ended: a seat reached the target, or the hands cap."""
        return self.winner() >= 0 or self.number >= self.max_hands

    @property
    def known(self) -> np.ndarray:
        """uint64[players]: the cards each seat took from the pile this hand and still holds (``M_HELD``)."""
        return self.state.masks[self.M_HELD:self.M_HELD + self.players]

    def taken(self) -> dict[int, list[int]]:
        """Per seat, the cards it took from the pile this hand and still holds (``known``)."""
        return {q: cards_of(int(self.known[q])) for q in range(self.players)}

    def _take_hidden(self, q: int) -> list[int]:
        """Seat q's cards not known to be held, taken out of its hand (``redeal_hidden``)."""
        masks = self.state.masks
        hidden = int(masks[self.M_HAND + q] & ~self.known[q])
        masks[self.M_HAND + q] &= ~np.uint64(hidden)
        return cards_of(hidden)

    def _give(self, q: int, cards: list[int]) -> None:
        for c in cards:
            self.state.masks[self.M_HAND + q] |= np.uint64(1 << c)

    def count(self, seat: int) -> int:
        return int(self.state.masks[self.M_HAND + seat]).bit_count()

    def hand(self, seat: int) -> dict[int, int]:
        return dict.fromkeys(cards_of(int(self.state.masks[self.M_HAND + seat])), 1)

    def counters(self, seat: int) -> str:
        return f"stock {int(self.state.ints[self.I_STOCK_N])}, pile {int(self.state.ints[self.I_PILE_N])}"

    def goal(self) -> str:
        return f"first to {self.target}"

    def seat_note(self, seat: int) -> str:
        """What else the others see of a seat (Shanghai: down or not, buys left): nothing here."""
        return ""
