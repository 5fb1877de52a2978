"""Basic Rummy's legal-move layer (``rummysim.variants.basic.moves``) and its bots as policies.

* conformance (as OpenSpiel tests every game): 10,000 hands of uniformly random
  play through ``legal_moves``/``apply`` only, 2-4 players and several rule
  options, with card conservation and the invariants checked after every move,
  every hand ending and its scores adding up (docs/rules.md 1.3-1.6);
* every move every shipped bot makes in 10,000 hands is in ``legal_moves``;
* hidden information: a policy chooses the same move when the cards its seat
  cannot see are dealt differently among the opponents' hands and the stock;
* hand-built positions: ``legal_moves`` lists exactly the expected moves at
  each decision, ``is_legal`` refuses each kind of illegal move.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from positions import search_strategy_file

from rummysim.cards import card_id, card_name, cards_of, mask_of
from rummysim.engine.codes import OUT_WIN
from rummysim.engine.rng import below, shuffle, stream_key
from rummysim.base.rules import parse_rule_options
from rummysim.strategy import builtin_names, load_strategy, params_matrix, seat_strategies
from rummysim.variants.basic import bots as B
from rummysim.variants.basic import kernel as K
from rummysim.engine import melds as M
from rummysim.variants.basic import moves as MV
from rummysim.variants.basic import policy as P
from rummysim.variants.basic import state as S
from rummysim.variants import VARIANTS

BASIC = VARIANTS["basic"]

pytestmark = pytest.mark.engine

U64 = np.uint64
RULE_SETS = [(), ("ace=high_or_low",), ("max_melds_per_turn=1",), ("must_discard_to_go_out=true",),
             ("reshuffles=unlimited", "reshuffle_mode=keep_top"), ("reshuffles=2", "reshuffle_mode=turn_over"),
             ("turn_limit=30",)]


def rules(players: int, *options: str, check: bool = True) -> np.ndarray:
    r = parse_rule_options(BASIC, list(options)).to_array(players)
    r[S.R_CHECK] = int(check)
    return r


def new_state(players: int, r: np.ndarray):
    return K.new_state(players, r, M.CARD_VALUE, np.zeros((0, K.EV_WIDTH), np.int16), np.zeros(1, np.int64))


# ------------------------------------------------------------- invariants
@njit(cache=True)
def _invariants(state):
    """Everything that must hold after any move (card conservation is ``check_cards``)."""
    masks, ints = state.masks, state.ints
    players = ints[S.I_PLAYERS]
    MV.check_cards(masks, state.stock, state.pile, ints, players)
    if masks[S.M_LAYABLE] != M.table_layoffs(state.t_mask, state.t_kind, ints[S.I_N_TABLE],
                                             state.rules[S.R_ACE_HIGH] != 0):
        raise AssertionError("layable cards out of date")
    if not (0 <= ints[S.I_SEAT] < players and 0 <= ints[S.I_PHASE] <= S.PH_OVER):
        raise AssertionError("bad seat or phase")
    if ints[S.I_PHASE] != S.PH_OVER and masks[S.M_HAND + ints[S.I_SEAT]] == 0:
        raise AssertionError("the seat to act has no cards")
    for q in range(players):
        if M.popcount(masks[S.M_HAND + q]) > 11:
            raise AssertionError("a hand holds more than 11 cards")


@njit(cache=True)
def _check_scores(state, scores):
    """1.6: the winner scores the value of the cards left in the other hands (times the rummy
    multiplier when going rummy); nobody scores otherwise."""
    ints = state.ints
    outcome = MV.scores(state, scores)
    players = ints[S.I_PLAYERS]
    total = 0
    for q in range(players):
        total += scores[q]
    if outcome == OUT_WIN:
        w = ints[S.I_WINNER]
        if state.masks[S.M_HAND + w] != 0:
            raise AssertionError("the winner holds cards")
        left = 0
        for q in range(players):
            left += M.mask_value(state.masks[S.M_HAND + q], state.card_value)
        if ints[S.I_RUMMY]:
            left *= state.rules[S.R_RUMMY_MULT]
        if scores[w] != left or total != left:
            raise AssertionError("scores do not add up")
    elif total != 0 or ints[S.I_WINNER] != -1:
        raise AssertionError("a hand nobody won scored points")
    return outcome


@njit(cache=True)
def _random_play(seed, first_game, n_hands, state, full_check_hands, counts):
    """Uniformly random play through ``legal_moves``/``apply`` only; ``counts`` int64[8] gets the
    outcomes (index = outcome code) and, at 7, the moves played."""
    players = state.ints[S.I_PLAYERS]
    rngs = np.empty((players, 1), dtype=np.uint64)
    rng = np.empty(1, dtype=np.uint64)
    legal = np.empty(MV.MAX_LEGAL, dtype=np.int64)
    scores = np.zeros(players, dtype=np.int64)
    for h in range(n_hands):
        K.start_hand(state, seed, first_game + h, 0, rngs)
        rng[0] = stream_key(seed, first_game + h, 0, 9, 0)
        _invariants(state)
        moves = 0
        while not MV.is_over(state):
            n = MV.legal_moves(state, legal)
            if n == 0 or n > MV.MAX_LEGAL:
                raise AssertionError("no legal move in a hand in play")
            for i in range(n):
                if not MV.is_legal(state, legal[i]):
                    raise AssertionError("legal_moves lists a move is_legal refuses")
                for j in range(i):
                    if legal[j] == legal[i]:
                        raise AssertionError("a move listed twice")
            if h < full_check_hands:  # is_legal agrees with legal_moves over the whole action range
                k = 0
                for a in range(-1, MV.NUM_ACTIONS + 1):
                    if MV.is_legal(state, a):
                        found = False
                        for i in range(n):
                            found = found or legal[i] == a
                        if not found:
                            raise AssertionError("is_legal accepts a move legal_moves does not list")
                        k += 1
                if k != n:
                    raise AssertionError("is_legal and legal_moves disagree")
            MV.apply(state, legal[below(rng, n)])
            _invariants(state)
            moves += 1
            if moves > 100_000:
                raise AssertionError("a hand does not end")
        counts[_check_scores(state, scores)] += 1
        counts[7] += moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_random_play(players):
    """10,000 hands in all (3,334 per player count, spread over the rule sets)."""
    per_set = 3334 // len(RULE_SETS) + 1
    counts = np.zeros(8, dtype=np.int64)
    for i, options in enumerate(RULE_SETS):
        state = new_state(players, rules(players, *options))
        _random_play(100 + players, i * per_set, per_set, state, 20, counts)
    assert counts[:7].sum() == per_set * len(RULE_SETS)
    assert counts[OUT_WIN] > 0 and counts[7] > 0


# ------------------------------------------------------- bots as policies
@njit(cache=True)
def _copy_state(state):
    return S.State(state.masks.copy(), state.ints.copy(), state.stock.copy(), state.pile.copy(),
                   state.t_mask.copy(), state.t_kind.copy(), state.t_lay.copy(), state.rules, state.card_value,
                   state.ev, state.n_ev, state.rng.copy(), state.buf.copy())


@njit(cache=True)
def _copy_scratch(scratch):
    return (scratch[0].copy(), scratch[1].copy(), scratch[2].copy(), scratch[3].copy(), scratch[4].copy(),
            scratch[5].copy(), scratch[6])   # the search's arrays are written before they are read


@njit(cache=True)
def _other_world(state, rng):
    """A copy of ``state`` in which the cards seat to act cannot see (the opponents' hands, less the
    cards they took from the pile and still hold, and the stock) are dealt again, same counts."""
    alt = _copy_state(state)
    masks = alt.masks
    ints = alt.ints
    p = ints[S.I_SEAT]
    players = ints[S.I_PLAYERS]
    pool = np.empty(64, dtype=np.int64)
    n = 0
    for q in range(players):
        if q != p:
            hidden = masks[S.M_HAND + q] & ~masks[S.M_HELD + q]
            while hidden:
                pool[n] = M.lowest_card(hidden)
                hidden &= hidden - U64(1)
                n += 1
    for k in range(ints[S.I_STOCK_N]):
        pool[n] = alt.stock[k]
        n += 1
    shuffle(rng, pool, n)
    i = 0
    for q in range(players):
        if q != p:
            hidden = masks[S.M_HAND + q] & ~masks[S.M_HELD + q]
            m = masks[S.M_HAND + q] & ~hidden
            for _ in range(M.popcount(hidden)):
                m |= M.bit(pool[i])
                i += 1
            masks[S.M_HAND + q] = m
    for k in range(ints[S.I_STOCK_N]):
        alt.stock[k] = pool[i]
        i += 1
    return alt


@njit(cache=True)
def _bot_play(seed, first_game, n_hands, state, params, hidden_every, counts):
    """Shipped bots through the driver's own ``next move`` rule, asserting each move is in
    ``legal_moves`` before applying it; every ``hidden_every``-th decision the policy is also asked
    in another world of the hidden cards and must choose the same. ``counts`` int64[4]: moves checked
    per phase (0-2) and hidden-information comparisons (3)."""
    players = state.ints[S.I_PLAYERS]
    scratch = P.new_scratch(players)
    legal = np.empty(MV.MAX_LEGAL, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_key(seed, first_game, 0, 9, 1)
    decisions = 0
    for h in range(n_hands):
        K.start_hand(state, seed, first_game + h, 0, scratch[5])
        while not MV.is_over(state):
            p = state.ints[S.I_SEAT]
            phase = state.ints[S.I_PHASE]
            move = MV.forced_move(state)
            if move < 0:
                decisions += 1
                if decisions % hidden_every == 0:
                    alt = _other_world(state, rng)
                    mine = _copy_state(state)
                    a = P.choose(mine, params, p, _copy_scratch(scratch))
                    b = P.choose(alt, params, p, _copy_scratch(scratch))
                    if a != b:
                        raise AssertionError("a policy's move depends on cards its seat cannot see")
                    counts[3] += 1
                move = P.choose(state, params, p, scratch)
            n = MV.legal_moves(state, legal)
            found = False
            for i in range(n):
                found = found or legal[i] == move
            if not found:
                raise AssertionError("a bot's move is not in legal_moves")
            counts[phase] += 1
            MV.apply(state, move)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_move_is_legal_and_blind_to_hidden_cards(players):
    """10,000 hands in all, every shipped rule-based strategy in every seat, mixed tables too, several
    rule sets; the hidden-information check on a sample of decisions of every strategy and phase.
    (The search bot: ``test_search_moves_are_legal_and_blind_to_hidden_cards``, on a small budget.)"""
    names = [n for n in builtin_names(BASIC) if load_strategy(n, BASIC).params[B.P_BOT] != B.BOT_SEARCH]
    tables = [[name] * players for name in names]
    tables += [[names[(i + k) % len(names)] for k in range(players)] for i in range(len(names))]
    per_table = 3334 // len(tables) + 1
    for i, table in enumerate(tables):
        options = RULE_SETS[i % len(RULE_SETS)]
        state = new_state(players, rules(players, *options))
        params = params_matrix(seat_strategies(table, players, BASIC))
        counts = np.zeros(4, dtype=np.int64)
        _bot_play(7 + players, i * per_table, per_table, state, params, 3, counts)
        assert counts[0] > 0 and counts[1] > 0 and counts[2] > 0 and counts[3] > 0, (table, counts)


def cheap_search(tmp_path, rollout: str = "expert", **keys) -> str:
    """A search strategy file searching every decision on a small budget (keys override)."""
    return search_strategy_file(tmp_path, "basic", rollout, **{"decisions": '["draw", "play", "discard"]', **keys})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_moves_are_legal_and_blind_to_hidden_cards(players, tmp_path):
    """The search bot on a small budget, searching every decision, to the end of the hand and with a
    horizon, against the rule-based bots: every move legal, and the same move when the cards it
    cannot see are dealt again (its deals of the unseen cards read only what its seat may see)."""
    for i, (horizon, value) in enumerate(((0, '"win"'), (3, '"points"'))):
        table = [cheap_search(tmp_path, horizon=horizon, value=value), "expert", "rummy-seeker", "greedy"][:players]
        state = new_state(players, rules(players, *RULE_SETS[i]))
        params = params_matrix(seat_strategies(table, players, BASIC))
        counts = np.zeros(4, dtype=np.int64)
        _bot_play(70 + players, i * 40, 40, state, params, 2, counts)
        assert counts[0] > 0 and counts[1] > 0 and counts[2] > 0 and counts[3] > 0, counts


# ------------------------------------------------------ hand-built positions
def position(players: int, hands: list[str], stock: str = "", pile: str = "", *options: str, table=(),
             seat: int = 0, phase: int = S.PH_DRAW, drawn: str | None = None, melds_this_turn: int = 0):
    """A state at seat ``seat``'s decision ``phase``: ``pile`` bottom card first, ``stock`` top first."""
    r = rules(players, *options, check=False)
    state = new_state(players, r)
    masks, ints = state.masks, state.ints
    ace_high = bool(r[S.R_ACE_HIGH])
    for p, h in enumerate(hands):
        masks[S.M_HAND + p] = mask_of(h) if h.strip() else U64(0)
    for k, text in enumerate(table):
        meld = mask_of(text)
        kind, tm = M.table_meld_of(meld, ace_high)
        state.t_kind[k], state.t_mask[k] = kind, U64(tm)
        state.t_lay[k] = M.layoff_cards(U64(tm), np.int64(kind), ace_high)
        masks[S.M_TABLE] |= meld
    ints[S.I_N_TABLE] = len(table)
    masks[S.M_LAYABLE] = M.table_layoffs(state.t_mask, state.t_kind, len(table), ace_high)
    for i, c in enumerate(mask_list(stock)[::-1]):
        state.stock[i] = c
    for i, c in enumerate(mask_list(pile)):
        state.pile[i] = c
        masks[S.M_PILE] |= U64(1 << c)
    ints[S.I_STOCK_N], ints[S.I_PILE_N] = len(mask_list(stock)), len(mask_list(pile))
    MV.begin(state, seat)
    ints[S.I_PHASE] = phase
    if drawn:
        ints[S.I_DRAWN] = card_id(drawn)
    ints[S.I_MELDS_THIS_TURN] = melds_this_turn
    return state


def mask_list(text: str) -> list[int]:
    return [card_id(t) for t in text.split()]


def name(move: int) -> str:
    """A move as text: "draw stock", "take discard", "stop", "meld H2 H3 H4", "layoff C7 on 0", "discard H8"."""
    if move == MV.DRAW_STOCK:
        return "draw stock"
    if move == MV.TAKE_DISCARD:
        return "take discard"
    if move == MV.STOP:
        return "stop"
    if MV.MELD_BASE <= move < MV.LAYOFF_BASE:
        cards = cards_of(MV.MELD_TABLE[move - MV.MELD_BASE])
        if len({c >> 4 for c in cards}) == 1 and cards[0] & 15 == 0 and cards[-1] & 15 == 12:
            cards = cards[1:] + cards[:1]  # a run ending in the high ace
        return "meld " + " ".join(card_name(c) for c in cards)
    if move >= MV.LAYOFF_BASE:
        i, k = divmod(move - MV.LAYOFF_BASE, MV.MAX_TABLE)
        return f"layoff {card_name(MV.card_of_index(i))} on {k}"
    return f"discard {card_name(MV.card_of_index(move))}"


def legal(state) -> list[str]:
    out = np.empty(MV.MAX_LEGAL, dtype=np.int64)
    return [name(int(m)) for m in out[:MV.legal_moves(state, out)]]


def move_of(text: str) -> int:
    """Inverse of ``name``."""
    words = text.split()
    if text in ("draw stock", "take discard", "stop"):
        return {"draw stock": MV.DRAW_STOCK, "take discard": MV.TAKE_DISCARD, "stop": MV.STOP}[text]
    if words[0] == "meld":
        return MV.MELD_BASE + int(MV.meld_index(mask_of(" ".join(words[1:]))))
    if words[0] == "layoff":
        return MV.LAYOFF_BASE + MV.card_index(card_id(words[1])) * MV.MAX_TABLE + int(words[3])
    return MV.card_index(card_id(words[1]))


def test_encoding_tables():
    assert MV.N_MELDS == 369 and MV.LAYOFF_BASE == 424 and MV.NUM_ACTIONS == 1308
    assert all(MV.MELD_TABLE[i] < MV.MELD_TABLE[i + 1] for i in range(MV.N_MELDS - 1))
    assert sum(M.is_meld(m, False) for m in MV.MELD_TABLE) == 329          # ace low (1.2)
    assert all(M.is_meld(m, True) for m in MV.MELD_TABLE)                    # ace high or low (1.7)
    for i in range(52):
        assert MV.card_index(MV.card_of_index(i)) == i
    assert MV.meld_index(mask_of("H2 H3 H5")) == -1
    for text in ("draw stock", "take discard", "stop", "meld HQ HK HA", "meld C7 D7 H7", "layoff S9 on 3",
                 "discard C2", "discard SK"):
        assert name(move_of(text)) == text


def test_draw_phase():
    """1.3.1: the stock or the top of the discard pile; when one is empty the other is forced."""
    hands = ["H2 H3 S9", "C5 C6 D9"]
    s = position(2, hands, "DK", "CA S5")
    assert legal(s) == ["draw stock", "take discard"] and MV.forced_move(s) == -1
    s = position(2, hands, "", "CA S5")
    assert legal(s) == ["take discard"] and MV.forced_move(s) == MV.TAKE_DISCARD
    s = position(2, hands, "DK", "")
    assert legal(s) == ["draw stock"] and MV.forced_move(s) == MV.DRAW_STOCK
    s = position(2, hands, "DK", "CA S5")
    for bad in ("stop", "discard H2", "meld H2 H3 H4", -1, MV.NUM_ACTIONS):
        assert not MV.is_legal(s, bad if isinstance(bad, int) else move_of(bad)), bad   # wrong phase


def test_play_phase_melds_layoffs_stop():
    """1.3.2-3: melds of the hand and lay-offs on any table meld, in any order, or stop."""
    s = position(2, ["H2 H3 H4 H5 S9 C7", "D2 D3"], "DK", "CA", table=["D7 H7 S7"], phase=S.PH_PLAY)
    assert legal(s) == ["meld H2 H3 H4", "meld H2 H3 H4 H5", "meld H3 H4 H5", "layoff C7 on 0", "stop"]
    for bad in ("meld H3 H4 H5 H6",         # a card not held
                "layoff S9 on 0",           # does not fit the meld
                "layoff C7 on 1",           # no such table meld
                "meld HQ HK HA",            # not held (and ace low)
                "discard S9", "draw stock"):  # wrong phase
        assert not MV.is_legal(s, move_of(bad)), bad
    # a lay-off fitting two table melds is listed on each (1.3.3)
    s = position(2, ["S6 D9 DJ", "D2 D3"], "DK", "CA", table=["S3 S4 S5", "H6 C6 D6"], phase=S.PH_PLAY)
    assert legal(s) == ["layoff S6 on 0", "layoff S6 on 1", "stop"]


def test_play_phase_ace_rule():
    """1.2 and 1.7 ``ace``: Q-K-A is a meld only with ace=high_or_low; K-A-2 never."""
    hands = ["HQ HK HA H2 S5", "D2 D3"]
    assert legal(position(2, hands, "DK", "CA", phase=S.PH_PLAY)) == ["stop"]
    s = position(2, hands, "DK", "CA", "ace=high_or_low", phase=S.PH_PLAY)
    assert legal(s) == ["meld HQ HK HA", "stop"]
    assert MV.meld_index(mask_of("HK HA H2")) == -1


def test_play_phase_must_discard_and_taken_card():
    """1.7 ``must_discard_to_go_out``: no meld may empty the hand; ruling 3.1: no meld or lay-off
    may leave only the card taken from the pile."""
    hands = ["H2 H3 H4", "D2 D3"]
    assert legal(position(2, hands, "DK", "CA", phase=S.PH_PLAY)) == ["meld H2 H3 H4", "stop"]
    s = position(2, hands, "DK", "CA", "must_discard_to_go_out=true", phase=S.PH_PLAY)
    assert legal(s) == ["stop"] and not MV.is_legal(s, move_of("meld H2 H3 H4"))
    s = position(2, ["H2 H3 H4 S9", "D2 D3"], "DK", "CA", phase=S.PH_PLAY, drawn="S9")
    assert legal(s) == ["stop"] and not MV.is_legal(s, move_of("meld H2 H3 H4"))
    s = position(2, ["H2 H3 H4 S9 C7", "D2 D3"], "DK", "CA", table=["D7 H7 S7"], phase=S.PH_PLAY, drawn="S9")
    assert legal(s) == ["meld H2 H3 H4", "layoff C7 on 0", "stop"]


def test_play_phase_max_melds_per_turn():
    """1.7 ``max_melds_per_turn``: no meld beyond it; lay-offs still allowed."""
    hands = ["H2 H3 H4 S9 S10 SJ C7", "D2 D3"]
    s = position(2, hands, "DK", "CA", "max_melds_per_turn=1", table=["D7 H7 S7"], phase=S.PH_PLAY,
                 melds_this_turn=1)
    assert legal(s) == ["layoff C7 on 0", "stop"]
    assert not MV.is_legal(s, move_of("meld H2 H3 H4"))
    s = position(2, hands, "DK", "CA", "max_melds_per_turn=1", table=["D7 H7 S7"], phase=S.PH_PLAY)
    assert legal(s)[:2] == ["meld H2 H3 H4", "meld S9 S10 SJ"]


def test_discard_phase():
    """1.3.4 and ruling 3.1: any card held but the one taken from the pile this turn."""
    s = position(2, ["H2 S9 CK", "D2 D3"], "DK", "CA", phase=S.PH_DISCARD, drawn="S9")
    assert legal(s) == ["discard CK", "discard H2"]  # by card id: clubs first
    assert not MV.is_legal(s, move_of("discard S9"))     # the card taken from the pile
    assert not MV.is_legal(s, move_of("discard D2"))     # not held
    assert not MV.is_legal(s, MV.STOP) and not MV.is_legal(s, MV.DRAW_STOCK)


def test_apply_goes_out_and_scores():
    """1.3: a lay-off that empties the hand ends it at once; 1.6 going rummy doubles the score."""
    s = position(2, ["C7", "D2 D3 SK"], "DK", "CA", table=["D7 H7 S7"], phase=S.PH_PLAY)
    MV.apply(s, move_of("layoff C7 on 0"))
    out = np.zeros(2, dtype=np.int64)
    assert MV.is_over(s) and MV.scores(s, out) == OUT_WIN
    assert out.tolist() == [2 * (2 + 3 + 10), 0] and legal(s) == []
    assert not MV.is_legal(s, MV.DRAW_STOCK) and not MV.is_legal(s, MV.STOP)   # the hand is over


def test_apply_turn_passes_on():
    """After the discard the next seat is to draw, with the discard on top of the pile."""
    s = position(2, ["H2 S9", "D2 D3 SK"], "DK D5", "CA", phase=S.PH_DISCARD)
    MV.apply(s, move_of("discard S9"))
    assert s.ints[S.I_SEAT] == 1 and s.ints[S.I_PHASE] == S.PH_DRAW
    assert s.pile[s.ints[S.I_PILE_N] - 1] == card_id("S9")
    assert legal(s) == ["draw stock", "take discard"]
