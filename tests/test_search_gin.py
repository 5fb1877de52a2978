"""The Gin Rummy search bot (``bot = "search"``, rummysim/variants/gin/search.py): its strategy keys, its
deals of the unseen cards, its candidates, and over many hands every move legal and blind to the
cards its seat cannot see."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from positions import search_strategy_file

from rummysim.engine import melds as M
from rummysim.engine import search as ES
from rummysim.strategy import load_strategy, params_matrix, seat_strategies
from rummysim.variants import VARIANTS
from rummysim.variants.gin import bots as B
from rummysim.variants.gin import kernel as K
from rummysim.variants.gin import moves as MV
from rummysim.variants.gin import policy as P
from rummysim.variants.gin import search as S
from rummysim.variants.gin import state as ST

GIN = VARIANTS["gin"]

pytestmark = pytest.mark.engine


def cheap_search(tmp_path, **keys) -> str:
    """A search strategy file searching every decision on a small budget (keys override)."""
    return search_strategy_file(tmp_path, "gin", **{"decisions": '["upcard", "draw", "discard"]', **keys})


def test_shipped_search_starts_from_its_rollout():
    search, expert = load_strategy("search", GIN), load_strategy("expert", GIN)
    for i in range(B.P_SEARCH):
        if i != B.P_BOT:
            assert search.params[i] == expert.params[i], i
    assert search.params[B.P_BOT] == B.BOT_SEARCH
    assert search.params[B.P_SEARCH + ES.ROLLOUT_BOT] == B.BOT_FAMILY
    assert search.params[B.P_SEARCH + ES.DECISIONS] == 1 << ST.PH_DRAW   # decisions = ["draw"]


def _copy_state(state):
    other = ST.new_state(state.rules, state.card_value, state.ev)
    other.masks[:] = state.masks
    other.ints[:] = state.ints
    return other


def _redeal_unseen(state, p, rng):
    """The same position for seat p with the cards it cannot see (the opponent's, bar those it took
    from the pile, and the stock) dealt again."""
    masks, ints = state.masks, state.ints
    q = 1 - p
    seen = masks[ST.M_HAND + p] | masks[ST.M_TABLE] | masks[ST.M_PILE] | masks[ST.M_HELD + q]
    unseen = [c for c in range(64) if (int(M.FULL_DECK) >> c) & 1 and not (int(seen) >> c) & 1]
    rng.shuffle(unseen)
    k = bin(int(masks[ST.M_HAND + q])).count("1") - bin(int(masks[ST.M_HELD + q])).count("1")
    hand = int(masks[ST.M_HELD + q])
    for c in unseen[:k]:
        hand |= 1 << c
    masks[ST.M_HAND + q] = np.uint64(hand)
    n = int(ints[ST.I_STOCK_N])
    assert len(unseen) == k + n
    ST.stock_view(state)[:n] = unseen[k:]


@pytest.mark.parametrize("horizon, value, deals, build_steps", [(0, '"win"', '"uniform"', 0), (3, '"points"', '"inferred"', 1)])
def test_search_moves_are_legal_and_blind_to_hidden_cards(tmp_path, horizon, value, deals, build_steps):
    """A cheap search of every decision against expert, 25 hands: each move of either seat is legal,
    and at each of the search seat's decisions the same move comes out of a copy of the position whose
    unseen cards are dealt again (its streams copied too), with deals inferred from the table and built hands too (``strong``'s deals)."""
    strategies = [cheap_search(tmp_path, horizon=horizon, value=value, deals=deals, build_steps=build_steps), "expert"]
    params = params_matrix(seat_strategies(strategies, 2, GIN))
    rules = GIN.rules().to_array(2)
    state = ST.new_state(rules, M.CARD_VALUE.copy(), np.zeros((0, MV.EV_WIDTH), np.int16))
    scratch = P.new_scratch(state.rules, state.card_value)
    rng = np.random.default_rng(7)
    searched = 0
    for hand in range(25):
        K.start_hand(state, 5, hand, 0, scratch[1])
        while state.ints[ST.I_PHASE] != ST.PH_OVER:
            p = int(state.ints[ST.I_SEAT])
            move = MV.forced_move(state)
            if move < 0:
                if p == 0 and int(state.ints[ST.I_PHASE]) in (ST.PH_FIRST_UPCARD, ST.PH_DRAW, ST.PH_DISCARD):
                    other = _copy_state(state)
                    _redeal_unseen(other, p, rng)
                    other_scratch = P.new_scratch(other.rules, other.card_value)
                    other_scratch[1][:] = scratch[1]
                    again = P.choose(other, params, p, other_scratch)
                    move = P.choose(state, params, p, scratch)
                    assert move == again, (hand, int(state.ints[ST.I_PHASE]))
                    searched += 1
                else:
                    move = P.choose(state, params, p, scratch)
            assert MV.is_legal(state, move), (hand, move)
            MV.apply(state, move)
    assert searched > 100


@pytest.mark.parametrize("inferred, build_steps", [(False, 0), (True, 0), (True, 2)])
def test_determinize_keeps_what_the_seat_has_seen(inferred, build_steps):
    """The opponent keeps the cards it took from the pile; its count and the stock's are kept; no seen
    card goes to the opponent or the stock; the deals differ from one draw of the stream to the next
    (uniform deals, deals weighted by the opponent's play and built hands alike)."""
    rules = GIN.rules().to_array(2)
    state = ST.new_state(rules, M.CARD_VALUE.copy(), np.zeros((0, MV.EV_WIDTH), np.int16))
    rngs = np.zeros((2, 1), np.uint64)
    K.start_hand(state, 3, 0, 0, rngs)
    params = params_matrix(seat_strategies(["expert", "expert"], 2, GIN))
    scratch = P.new_scratch(state.rules, state.card_value)
    while state.ints[ST.I_TURN] < 6 or state.ints[ST.I_PHASE] != ST.PH_DRAW:   # a few turns in
        move = MV.forced_move(state)
        MV.apply(state, move if move >= 0 else P.choose(state, params, int(state.ints[ST.I_SEAT]), scratch))
        assert state.ints[ST.I_PHASE] != ST.PH_OVER
    p, q = int(state.ints[ST.I_SEAT]), 1 - int(state.ints[ST.I_SEAT])
    state.masks[ST.M_HELD + q] |= state.masks[ST.M_HAND + q] & np.uint64(0xF)   # say it took some low clubs
    ss = S.new_search(state.rules, state.card_value)
    seen = state.masks[ST.M_HAND + p] | state.masks[ST.M_PILE] | state.masks[ST.M_TABLE]
    hands = set()
    rng = np.array([12345], dtype=np.uint64)
    for _ in range(20):
        S.determinize(state, p, ss.root_masks, ss.root_ints, ss.pool, ss.weight, inferred, build_steps, ss.sim, rng)
        theirs = ss.root_masks[ST.M_HAND + q]
        n = int(state.ints[ST.I_STOCK_N])
        stock = 0
        for c in ss.root_ints[ST.I_STOCK:ST.I_STOCK + n]:
            stock |= 1 << int(c)
        assert theirs & state.masks[ST.M_HELD + q] == state.masks[ST.M_HELD + q]
        assert bin(int(theirs)).count("1") == bin(int(state.masks[ST.M_HAND + q])).count("1")
        assert not (int(theirs) | stock) & int(seen) and not int(theirs) & stock
        assert bin(stock).count("1") == n
        assert ss.root_masks[ST.M_HAND + p] == state.masks[ST.M_HAND + p]
        hands.add(int(theirs))
    assert len(hands) > 15


def test_built_hands_keep_the_known_cards_and_hold_less_deadwood():
    """A hidden hand of 7 cards beside 3 known ones, built 8 times: the known cards stay, the hand
    keeps 10 cards, the pool keeps the same cards (the built hand's hidden ones first), and no step
    raises the hand's deadwood: over 200 deals the built hands' mean deadwood is below the dealt ones'
    (by the hand-made count: every step keeps the least deadwood of 11 cards)."""
    rules = GIN.rules().to_array(2)
    ss = S.new_search(rules, M.CARD_VALUE.copy())
    bit = lambda c: 1 << c   # noqa: E731
    held = bit(16 * 0 + 4) | bit(16 * 1 + 4) | bit(16 * 2 + 4)   # three fives, taken from the pile
    rng = np.array([7], np.uint64)
    pool = np.zeros(64, np.int64)
    unseen = [c for s_ in range(4) for c in range(16 * s_, 16 * s_ + 13) if not held & bit(c)]
    dealt_dw, built_dw = [], []
    for _ in range(200):
        pool[:len(unseen)] = np.random.default_rng(int(rng[0] % 1000)).permutation(unseen)
        rng[0] += np.uint64(1)
        before = sorted(pool[:len(unseen)])
        hand = held
        for c in pool[:7]:
            hand |= bit(int(c))
        dealt_dw.append(S.deadwood(ss.sim, np.uint64(hand)))
        built = int(S.build_hidden(ss.sim, np.uint64(hand), np.uint64(held), pool, len(unseen), 7, 8, rng))
        assert built & held == held and bin(built).count("1") == 10
        assert built == held | sum(bit(int(c)) for c in pool[:7])
        assert sorted(pool[:len(unseen)]) == before
        built_dw.append(S.deadwood(ss.sim, np.uint64(built)))
        assert built_dw[-1] <= dealt_dw[-1]
    assert np.mean(built_dw) < np.mean(dealt_dw) - 10, (np.mean(built_dw), np.mean(dealt_dw))


def test_inferred_deals_draw_each_card_in_proportion_to_its_weight():
    """One hidden card to deal among eight unseen, one in each cell of what the opponent's play says
    (near a card it threw, an upcard it passed on, a card it holds): each is dealt with chance
    ``INFER_WEIGHT[cell] / sum``, within 4.5 standard errors over 40,000 deals; with three to deal,
    three distinct cards of the eight."""
    masks = np.zeros(ST.MASKS_SIZE, np.uint64)
    q = 1
    bit = lambda c: np.uint64(1 << c)   # noqa: E731
    masks[ST.M_THREW + q] = bit(16 * 0 + 4)      # threw C5
    masks[ST.M_PASSED + q] = bit(16 * 1 + 2)     # passed on D3
    masks[ST.M_HELD + q] = bit(16 * 2 + 6)       # holds H7
    # SK, H8, D4, S3, S5, C7, C3, D7 (their cells are computed below from the masks, not assumed)
    cards = [16 * 3 + 12, 16 * 2 + 7, 16 * 1 + 3, 16 * 3 + 2, 16 * 3 + 4, 16 * 0 + 6, 16 * 0 + 2, 16 * 1 + 6]
    near = [B.near_cards(masks[ST.M_THREW + q]), B.near_cards(masks[ST.M_PASSED + q]),
            B.near_cards(masks[ST.M_HELD + q])]
    cell_of = {c: 4 * bool(near[0] & bit(c)) + 2 * bool(near[1] & bit(c)) + bool(near[2] & bit(c)) for c in cards}
    weights = np.array([S.INFER_WEIGHT[cell_of[c]] for c in cards])
    pool, weight, rng = np.zeros(64, np.int64), np.zeros(64), np.array([99], np.uint64)
    dealt = dict.fromkeys(cards, 0)
    n = 40_000
    for _ in range(n):
        pool[:8] = cards
        S.weighted_front(masks, q, pool, 8, 1, weight, rng)
        dealt[int(pool[0])] += 1
    for c, w in zip(cards, weights):
        share = w / weights.sum()
        assert abs(dealt[c] / n - share) < 4.5 * (share * (1 - share) / n) ** 0.5, (c, cell_of[c], dealt[c] / n, share)
    assert len(set(cell_of.values())) >= 5, cell_of        # the cards span most cells
    pool[:8] = cards
    S.weighted_front(masks, q, pool, 8, 3, weight, rng)
    assert sorted(pool[:8]) == sorted(cards) and len(set(pool[:3])) == 3


def test_discard_candidates_are_the_favourite_the_knock_then_the_rollouts_order():
    """At a discard with a knock allowed: the rollout's favourite, the knock, then the cards by the
    rollout's discard score, at most ``search.candidates``."""
    rules = GIN.rules().to_array(2)
    state = ST.new_state(rules, M.CARD_VALUE.copy(), np.zeros((0, MV.EV_WIDTH), np.int16))
    rngs = np.zeros((2, 1), np.uint64)
    params = params_matrix(seat_strategies(["expert", "expert"], 2, GIN))
    scratch = P.new_scratch(state.rules, state.card_value)
    for hand in range(200):   # a deal where the seat to act may knock (not with gin) at a discard
        K.start_hand(state, 9, hand, 0, rngs)
        while state.ints[ST.I_PHASE] != ST.PH_OVER:
            if state.ints[ST.I_PHASE] == ST.PH_DISCARD and MV.is_legal(state, MV.KNOCK) \
                    and state.ints[ST.I_BEST_DEADWOOD] > 0:
                break
            move = MV.forced_move(state)
            MV.apply(state, move if move >= 0 else P.choose(state, params, int(state.ints[ST.I_SEAT]), scratch))
        if state.ints[ST.I_PHASE] == ST.PH_DISCARD:
            break
    p = int(state.ints[ST.I_SEAT])
    greedy = params_matrix(seat_strategies(["greedy", "greedy"], 2, GIN))   # knocks at once: favourite = knock
    ss = S.new_search(state.rules, state.card_value)
    n = S.candidates(state, greedy, p, rngs, ss, 3)
    legal = np.zeros(MV.MAX_LEGAL, np.int64)
    cards = [a for a in legal[:MV.legal_moves(state, legal)] if a < 52]
    hand = state.masks[ST.M_HAND + p]
    near_own, near_held = B.near_cards(hand), B.near_cards(state.masks[ST.M_HELD + 1 - p])
    by_score = sorted(cards, key=lambda a: B.discard_score(state.ints, state.card_value, greedy, p, a, False, near_own,
                                                           near_held))
    assert list(ss.cand[:n]) == [MV.KNOCK] + by_score[:2]
    assert state.ints[ST.I_BEST_DEADWOOD] > 0   # not gin: waiting for gin, the favourite is a card
    wait = params_matrix(seat_strategies([str(Path(__file__).parent.parent / "examples" / "gin-wait-for-gin.toml")] * 2,
                                         2, GIN))
    n = S.candidates(state, wait, p, rngs, ss, 3)
    assert list(ss.cand[:n]) == [by_score[0], MV.KNOCK, by_score[1]]
