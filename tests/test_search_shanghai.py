"""The Shanghai Rummy search bot (``bot = "search"``, rummysim/variants/shanghai/search.py): its strategy
keys, what each seat is known to hold (``state.held``, kept by ``moves.apply``), its deals of the unseen
cards, a hand-built draw where searching must change the rollout strategy's move, the worth of a round,
and reproducibility. Legality and blindness to hidden cards over whole rounds:
``test_moves_shanghai.test_search_moves_are_legal_and_blind_to_hidden_cards``."""

from __future__ import annotations

import numpy as np
import pytest
from test_moves_shanghai import cheap_search, rules

from rummysim import simulate
from rummysim.cards import card_id
from rummysim.engine import search as ES
from rummysim.engine.search import VALUE_POINTS, VALUE_WIN
from rummysim.strategy import load_strategy, params_matrix, seat_strategies
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai import kernel as K
from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai import policy as P
from rummysim.variants.shanghai import search as S
from rummysim.variants.shanghai import state as ST
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]

pytestmark = pytest.mark.engine


def strategy_file(tmp_path, body: str, name: str = "s") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\nvariant = "shanghai"\ndescription = "test"\n{body}')
    return str(path)


def ids(text: str) -> list[int]:
    return [card_id(t, allow_joker=True) for t in text.split()]


# ------------------------------------------------------------- strategy keys
def test_shipped_search_starts_from_its_rollout():
    search, expert = load_strategy("search", SHANGHAI), load_strategy("expert", SHANGHAI)
    for i in range(B.SP_SEARCH + ES.ROLLOUT_BOT):
        if i != B.SP_BOT:
            assert search.params[i] == expert.params[i], i
    assert search.params[B.SP_BOT] == B.BOT_SEARCH
    assert search.params[B.SP_SEARCH + ES.ROLLOUT_BOT] == B.BOT_FAMILY
    assert search.params[B.SP_SEARCH + ES.DECISIONS] == 1 << ST.PH_UPCARD


def test_search_decisions_name_the_decision_points(tmp_path):
    f = strategy_file(tmp_path, 'bot = "search"\n[search]\nrollout = "random"\ndecisions = ["buy", "discard"]\n')
    s = load_strategy(f, SHANGHAI)
    assert s.params[B.SP_SEARCH + ES.ROLLOUT_BOT] == B.BOT_RANDOM
    assert s.params[B.SP_SEARCH + ES.DECISIONS] == (1 << ST.PH_BUY) | (1 << ST.PH_DISCARD)
    f = strategy_file(tmp_path, 'bot = "search"\n[search]\nrollout = "expert"\ndecisions = ["draw", "play"]\n', "t")
    assert load_strategy(f, SHANGHAI).params[B.SP_SEARCH + ES.DECISIONS] == (1 << ST.PH_UPCARD) | (1 << ST.PH_PLAY)


# ------------------------------------------------------ what a seat is known to hold
def test_held_counts_upcards_and_bought_cards_not_the_penalty_card():
    """docs/rules.md 2.4.1-2.4.3: the upcard taken or bought is seen by all; the penalty card drawn
    with a buy is not. Throwing a copy forgets a known one first (2.6)."""
    players = 3
    r = rules(players, check=True)
    state = M.new_state(players, r, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    K.start_round(5, 0, 1, state, P.new_scratch(players))
    ints = state.ints
    p = ints[ST.I_SEAT]
    up = state.pile[ints[ST.SI_PILE_N] - 1]
    M.apply(state, M.LEAVE_UPCARD)                      # offered to the next seat, which buys
    q = ints[ST.I_SEAT]
    assert ints[ST.I_PHASE] == ST.PH_BUY and q != p
    penalty = state.stock[ints[ST.SI_STOCK_N] - 1]
    M.apply(state, M.BUY)
    expect = np.zeros(64, dtype=np.int64)
    expect[up] = 1
    assert (state.held[q] == expect).all() and state.held[q, penalty] == (1 if penalty == up else 0)
    assert state.held[p].sum() == 0
    M.apply(state, M.STOP)                              # seat p, on turn, drew from the stock
    M.apply(state, int(np.flatnonzero(state.hands[p])[0]))
    # seat q's turn: it throws the bought card
    M.apply(state, M.LEAVE_UPCARD)
    while ints[ST.I_PHASE] == ST.PH_BUY:
        M.apply(state, M.PASS)
    assert ints[ST.I_SEAT] == q
    M.apply(state, M.STOP)
    M.apply(state, up)
    assert state.held[q, up] == 0


def _midround_state(seed: int):
    """A dealt 4-player round played by expert until seat 0 is to decide on the upcard and another
    seat holds a card it is known to hold; returns the state."""
    players = 4
    params = params_matrix(seat_strategies(["expert"], players, SHANGHAI))
    scratch = P.new_scratch(players)
    state = M.new_state(players, rules(players, check=True), np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    for game in range(100):
        K.start_round(seed, game, 2, state, scratch)
        while not M.is_over(state):
            ints = state.ints
            if (ints[ST.I_SEAT] == 0 and ints[ST.I_PHASE] == ST.PH_UPCARD and state.held[1:].sum() > 0
                    and ints[ST.SI_TURN] > 6):
                return state
            M.apply(state, P.choose(state, params, ints[ST.I_SEAT], scratch))
    raise AssertionError("no such position in 100 rounds")


def _dealer(state):
    """``deal(build_steps, rng)``: one ``determinize`` for seat 0 of the 4-player ``state`` with an
    ``expert`` rollout, returning the deal's ``(root_hands, root_ints, root_stock)`` (reused arrays)."""
    root_hands, root_ints, root_stock = state.hands.copy(), state.ints.copy(), state.stock.copy()
    pool, unseen = np.zeros_like(state.stock), np.zeros(64, np.int64)
    roll = params_matrix(seat_strategies(["expert"], 4, SHANGHAI))
    work = np.zeros(B.WORK_SIZE, dtype=np.int64)

    def deal(build_steps, rng):
        S.determinize(state, 0, root_hands, root_ints, root_stock, pool, unseen, build_steps, roll, work, rng)
        return root_hands, root_ints, root_stock
    return deal


@pytest.mark.parametrize("build_steps", [0, 2])
def test_determinize_keeps_what_the_seat_has_seen(build_steps):
    state = _midround_state(3)
    hands, ints, held = state.hands, state.ints, state.held
    stock_n = ints[ST.SI_STOCK_N]
    hidden = np.zeros(64, dtype=np.int64)               # the other hands less their known copies, and the stock
    for q in (1, 2, 3):
        hidden += hands[q] - held[q]
    np.add.at(hidden, state.stock[:stock_n], 1)
    deal, rng = _dealer(state), np.array([5], dtype=np.uint64)
    deals = set()
    for _ in range(30):
        root_hands, root_ints, root_stock = deal(build_steps, rng)
        assert (root_hands[0] == hands[0]).all()
        dealt = np.zeros(64, dtype=np.int64)
        for q in (1, 2, 3):
            assert (root_hands[q] >= held[q]).all()                       # known copies stay
            assert root_hands[q].sum() == hands[q].sum()                  # counts are public
            dealt += root_hands[q] - held[q]
            assert root_ints[ST.SI_DISTANCE_SEAT + q] == 0
        np.add.at(dealt, root_stock[:stock_n], 1)
        assert (dealt == hidden).all()                                    # the unseen, each copy once
        assert root_ints[ST.I_SEED] != ints[ST.I_SEED]                    # own reshuffle key
        deals.add((root_hands[1:].tobytes(), root_stock[:stock_n].tobytes()))
    assert len(deals) == 30


def test_a_built_hand_keeps_what_draws_it_nearer_its_contract():
    """docs/rules.md 2.2 (round 1: two sets): a hand whose known copy is SK and whose dealt cards are
    C5 D5 H9, built once from a pool holding only H5 beyond them, takes H5 and throws H9, the hidden
    card the rollout keeps least; the known SK stays although it is worth more points (2.7). The
    thrown card goes back to the pool where H5 was."""
    hand = np.zeros(64, dtype=np.int64)
    hand[ids("SK")] = 1
    pool = np.array([ids("CQ")[0]] + ids("C5 D5 H9 H5"), dtype=np.int64)   # pool[0] is another seat's
    roll = params_matrix(seat_strategies(["expert"], 3, SHANGHAI))
    work = np.zeros(B.WORK_SIZE, dtype=np.int64)
    table = np.zeros((1, 1), dtype=np.int64)
    S._deal_hidden(hand, pool, 1, 5, 3, 1, roll[1], table, 0, 1, False, work, np.array([9], dtype=np.uint64))
    want = np.zeros(64, dtype=np.int64)
    np.add.at(want, ids("SK C5 D5 H5"), 1)
    assert (hand == want).all()
    assert sorted(pool[1:4]) == sorted(ids("C5 D5 H5")) and pool[4] == ids("H9")[0] and pool[0] == ids("CQ")[0]
    hand[:] = 0                                          # without a step: the dealt cards as they lie
    hand[ids("SK")] = 1
    pool[1:] = ids("C5 D5 H9 H5")
    S._deal_hidden(hand, pool, 1, 5, 3, 0, roll[1], table, 0, 1, False, work, np.array([9], dtype=np.uint64))
    want[:] = 0
    np.add.at(want, ids("SK C5 D5 H9"), 1)
    assert (hand == want).all()


def test_built_deals_are_nearer_the_contracts_than_uniform_ones():
    """Seats that have played turns keep what they draw: their built deals are on average nearer the
    round's contract than uniform deals of the same cards (here mid-round: each has played turns)."""
    state = _midround_state(3)
    ints, deal = state.ints, _dealer(state)
    mean = {}
    for steps in (0, 2):
        rng, total = np.array([11], dtype=np.uint64), []
        for _ in range(200):
            root_hands = deal(steps, rng)[0]
            total += [B.distance(root_hands[q], ints[ST.SI_ROUND], False) for q in (1, 2, 3)
                      if ints[ST.SI_DOWN_TURN_SEAT + q] == 0]
        mean[steps] = (np.mean(total), np.std(total) / np.sqrt(len(total)))
    assert mean[2][0] + 4 * np.hypot(mean[0][1], mean[2][1]) < mean[0][0], mean


# --------------------------------------------------- hand-built decisions
def full_position(round_no: int, own: str, pile: str, players: int = 3):
    """Seat 0 to decide on the upcard (the pile's last card) at the start of its turn, holding ``own``;
    the rest of the deck (rules 2.1: two decks and a joker for 3 players) dealt in id order, 11 cards
    to each other seat, then the stock: a position whose cards are all in one place."""
    r = rules(players, check=True)
    state = M.new_state(players, r, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    state.ints[ST.SI_ROUND] = round_no
    deck = [16 * s + k for _ in range(2) for s in range(4) for k in range(13)] + [ST.JOKER]
    for c in ids(own) + ids(pile):
        deck.remove(c)
    np.add.at(state.hands[0], ids(own), 1)
    for q in range(1, players):
        np.add.at(state.hands[q], deck[:11], 1)
        deck = deck[11:]
    state.stock[:len(deck)] = deck
    state.ints[ST.SI_STOCK_N] = len(deck)
    state.pile[:len(ids(pile))] = ids(pile)
    state.ints[ST.SI_PILE_N] = len(ids(pile))
    M.begin(state, 0)
    return state


def _choose(state, table: list[str]) -> int:
    players = len(table)
    params = params_matrix(seat_strategies(table, players, SHANGHAI))
    scratch = P.new_scratch(players)
    scratch.rngs[:, 0] = 1234 + np.arange(players, dtype=np.uint64)
    return int(P.choose(state, params, state.ints[ST.I_SEAT], scratch))


def test_search_takes_the_upcard_that_goes_out(tmp_path):
    """docs/rules.md 2.2, 2.4.1, 2.7: in round 1 (two sets) H9 from the pile lets seat 0 lay H5 D5 S5
    and H9 D9 S9 and throw C2, going out in one turn (the one-turn bonus, the others scoring their
    whole hands); a rollout strategy that never takes the upcard leaves it, its search by points
    takes it. (By rounds won both are worth 1: seat 0 goes on to win the round either way.)"""
    never = strategy_file(tmp_path, '[draw]\nmode = "never"\n', "never")
    searcher = cheap_search(tmp_path, rollout="never.toml", samples=4, playouts=2, decisions='["draw"]',
                            value='"points"')
    position = ("H5 D5 S5 D9 S9 C2", "CK H9")
    assert _choose(full_position(1, *position), [never, "greedy", "greedy"]) == M.LEAVE_UPCARD
    assert _choose(full_position(1, *position), [searcher, "greedy", "greedy"]) == M.TAKE_UPCARD


def test_unsearched_decisions_are_the_rollouts(tmp_path):
    """A decision the search bot does not search is its rollout strategy's move (here: random, one
    draw from the seat's stream, as the random bot's)."""
    searcher = cheap_search(tmp_path, rollout="random", decisions='["discard"]')
    moves = {_choose(full_position(1, "H5 D5 S5 D9 S9 C2", "CK H9"), [s, "greedy", "greedy"])
             for s in (searcher, "random")}
    assert len(moves) == 1


# ------------------------------------------------------------- round worth
@pytest.mark.parametrize("points, mode, want", [
    ([0, 30, 45, 60], VALUE_WIN, 1.0),            # went out: the lowest score
    ([-25, 30, 45, 60], VALUE_POINTS, 70.0),      # the one-turn bonus: (30 + 45 + 60) / 3 + 25
    ([40, 30, 30, 60], VALUE_WIN, 0.0),           # a round nobody won: another has fewer points
    ([30, 30, 45, 60], VALUE_WIN, 0.5),           # ties share
    ([30, 30, 45, 60], VALUE_POINTS, 15.0),
])
def test_round_value_is_the_scores_as_the_game_counts_them(points, mode, want):
    """docs/rules.md 2.7: the lowest total wins the game; a round's part in it is its scores."""
    assert S.round_value(np.array(points, dtype=np.int64), 0, mode) == want


# ------------------------------------------------------------ reproducible
def test_search_rows_do_not_depend_on_workers_or_chunks(tmp_path):
    f = cheap_search(tmp_path, samples=1, decisions='["draw", "discard"]', horizon=6)
    kw = dict(variant="shanghai", games=2, players=3, strategies=[f, "expert", "greedy"], seed=9)
    a = simulate(workers=1, **kw)
    b = simulate(workers=2, chunk_size=1, **kw)
    for table in ("hands", "seats", "games"):
        x, y = getattr(a, table), getattr(b, table)
        assert x.reset_index(drop=True).equals(y.reset_index(drop=True)), table
