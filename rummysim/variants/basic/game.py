"""A Basic Rummy game in play, move by move over the rules layer: the one driver of ``rummysim play``
and ``rummysim.env``.

``Game.reset(seed, game)`` deals what ``rummysim run --seed seed`` deals for game index ``game``, and
the calls follow the kernel's game loop (``kernel.play_games``): a game whose every move is
``bot_move`` is ``run``'s game, row for row. What each seat is known to hold (``known``: the cards
it took from the pile, until it throws them or lays them on the table) is the state's ``M_HELD``
masks, kept by the rules layer: the only source of what the others are told of a seat's hand.

Compiled (``step_packed``, ``deal``): a game's arrays live in two flat buffers, ``ib``
int64[IB_SIZE] and ``ub`` uint64[UB_SIZE], so a call from Python unboxes two arrays instead of a
``State`` of thirteen (most of a step's cost in the environments); ``packed_views`` gives the same
memory as a ``State`` of NumPy views, for the calls made once a hand (the deal, the result rows)
and the shipped bots.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...base.game import GameInPlay, MaskedHands
from ...base.summary import counted
from ...engine import melds
from . import hints, kernel, moves, notation, policy, replay
from .moves import (
    EV_WIDTH,
    MAX_LEGAL,
    apply_in,
    legal_moves_in,
)
from .state import (
    I_PHASE,
    I_PILE_N,
    I_PLAYERS,
    I_SEAT,
    I_STOCK_N,
    I_WINNER,
    INTS_SIZE,
    M_HAND,
    M_HELD,
    MASKS_SIZE,
    MAX_SEATS,
    PH_OVER,
    R_TARGET,
    RULES_SIZE,
    State,
)

#: event log rows between two reads (a move logs a few; a reshuffle one row)
EV_ROWS = 64


# ------------------------------------------------------------------ one game, packed
IB_FIELDS = (("ints", INTS_SIZE), ("stock", 64), ("pile", 64), ("t_kind", 32), ("rules", RULES_SIZE),
             ("card_value", 64), ("n_ev", 1), ("scores", MAX_SEATS), ("legal", MAX_LEGAL))
UB_FIELDS = (("masks", MASKS_SIZE), ("t_mask", 32), ("t_lay", 32), ("rng", 1), ("buf", 64), ("rngs", MAX_SEATS))


def _starts(fields):
    out, o = {}, 0
    for name, size in fields:
        out[name] = (o, o + size)
        o += size
    return out, o


IB, IB_SIZE = _starts(IB_FIELDS)
UB, UB_SIZE = _starts(UB_FIELDS)
_INTS, _STOCK, _PILE, _T_KIND, _RULES, _CARD_VALUE, _N_EV, _SCORES, _LEGAL = (IB[n] for n, _ in IB_FIELDS)
_MASKS, _T_MASK, _T_LAY, _RNG, _BUF, _RNGS = (UB[n] for n, _ in UB_FIELDS)


def packed_views(ib, ub, players, ev):
    """The fields of a packed game as NumPy views: ``(State, scores, legal, rngs)``; the state
    logs into ``ev`` int16[n, EV_WIDTH] (n = 0: no log)."""
    i = {n: ib[a:b] for n, (a, b) in IB.items()}
    u = {n: ub[a:b] for n, (a, b) in UB.items()}
    state = State(u["masks"], i["ints"], i["stock"], i["pile"], u["t_mask"], i["t_kind"], u["t_lay"], i["rules"],
                  i["card_value"], ev, i["n_ev"], u["rng"], u["buf"])
    return (state, i["scores"][:players], i["legal"],
            u["rngs"][:players].reshape(players, 1))


@njit(cache=True)
def step_packed(ib, ub, ev, move):
    """``moves.apply_in`` on a packed game (events into ``ev`` int16[n, EV_WIDTH], n = 0: none), then the
    legal moves of the next decision into its ``legal``; returns their count (0 once the hand is over)."""
    masks, t_lay, buf = ub[_MASKS[0]:_MASKS[1]], ub[_T_LAY[0]:_T_LAY[1]], ub[_BUF[0]:_BUF[1]]
    ints, rules = ib[_INTS[0]:_INTS[1]], ib[_RULES[0]:_RULES[1]]
    apply_in(masks, ints, ib[_STOCK[0]:_STOCK[1]], ib[_PILE[0]:_PILE[1]], ub[_T_MASK[0]:_T_MASK[1]],
             ib[_T_KIND[0]:_T_KIND[1]], t_lay, rules, ib[_CARD_VALUE[0]:_CARD_VALUE[1]], ev,
             ib[_N_EV[0]:_N_EV[1]], ub[_RNG[0]:_RNG[1]], move)
    if ints[I_PHASE] == PH_OVER:
        return 0
    return legal_moves_in(masks, ints, t_lay, rules, buf, ib[_LEGAL[0]:_LEGAL[1]])


@njit(cache=True)
def deal(state, seed, game, hand, rngs, legal):
    """Deal hand ``hand`` of game ``game`` into ``state`` (``kernel.start_hand``, which keys the bots'
    streams ``rngs``); the first decision's legal moves into ``legal``, returns their count."""
    kernel.start_hand(state, seed, game, hand, rngs)
    state.n_ev[0] = 0
    return legal_moves_in(state.masks, state.ints, state.t_lay, state.rules, state.buf, legal)


class Game(MaskedHands, GameInPlay):
    """A Basic Rummy game: hands until a seat reaches the target (docs/rules.md 1.6), as ``run`` plays
    it. ``rules`` int64[RULES_SIZE] (``BasicRules.to_array``); ``log``: keep each move's events
    (``play`` returns them) and the deal's and end's (``deal_event``, ``finish``)."""

    unit = "hand"
    first_unit = 0
    num_actions = moves.NUM_ACTIONS
    I_SEAT, I_PHASE, I_STOCK_N, I_PILE_N, I_WINNER = I_SEAT, I_PHASE, I_STOCK_N, I_PILE_N, I_WINNER
    M_HAND, M_HELD = M_HAND, M_HELD
    max_hands = kernel.MAX_HANDS_PER_GAME
    policy, notation, replay, hints, moves = policy, notation, replay, hints, moves
    row_cols, seat_cols = kernel.HAND_COLS, kernel.SEAT_COLS

    def __init__(self, players: int, rules: np.ndarray, log: bool = False):
        self.players, self.log = players, log
        self.ib, self.ub = np.zeros(IB_SIZE, dtype=np.int64), np.zeros(UB_SIZE, dtype=np.uint64)
        self.ev = np.zeros((EV_ROWS if log else 0, EV_WIDTH), dtype=np.int16)
        self.state, self.scores, self.legal_buf, self.rngs = packed_views(self.ib, self.ub, players,
                                                                                       self.ev)
        self.state.ints[I_PLAYERS] = players
        self.state.rules[:] = rules
        self.state.card_value[:] = melds.CARD_VALUE
        scratch = policy.new_scratch(players)
        self.scratch = (*scratch[:5], self.rngs, scratch[6])   # the bots' streams: the packed game's
        self.target = int(rules[R_TARGET])
        self.n_legal = 0

    # ------------------------------------------------------------------ the game
    def _deal(self) -> None:
        self.n_legal = deal(self.state, self.seed, self.game, self.number, self.rngs, self.legal_buf)
        self.first = self.seat

    def _apply(self, move: int) -> int:
        return int(step_packed(self.ib, self.ub, self.ev, move))

    def _events(self) -> list[dict]:
        return replay.decode_events(self.ev, int(self.state.n_ev[0]))

    def _result_rows(self, row: np.ndarray, seats: np.ndarray) -> None:
        kernel.result_rows(self.state, row, seats)

    def game_row(self) -> np.ndarray:
        """int32[1, 2 + players]: winner (-1 for a game stopped early), hands, scores."""
        return np.array([[self.winner(), self.number, *self.scores]], dtype=np.int32)

    # ------------------------------------------------------------------ what a seat may see (``MaskedHands``)
    def _check_cards(self) -> None:
        s = self.state
        moves.check_cards(s.masks, s.stock, s.pile, s.ints, self.players)

    def went_out(self, e: dict, who) -> str:
        """Who went out and the points the hand scored."""
        return f"{who(e['winner'])} went out{' with rummy' if e['going_rummy'] else ''}: {counted(e['points'], 'points')}"

    def heading(self) -> str:
        """The hand's title, numbered as ``rummysim replay --hand`` numbers it (from 0)."""
        return f"Basic Rummy, hand {self.number}"
