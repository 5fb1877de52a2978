"""The Shanghai legal-move layer (``rummysim.variants.shanghai.moves``): conformance under uniformly
random play, every shipped bot's every move legal, bots blind to hidden cards, and hand-built
positions per decision point (docs/rules.md 2.4-2.7, rulings 3.1, 3.4, 3.8 and 3.9)."""

import numpy as np
import pytest
from numba import njit

from rummysim.cards import card_id
from rummysim.engine.codes import OUT_STALEMATE_BLOCKED, OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN
from rummysim.engine.rng import below
from rummysim.base.rules import parse_rule_options
from rummysim.strategy import builtin_names, load_strategy, params_matrix, seat_strategies
from rummysim.variants.shanghai import bots as B
from rummysim.variants.shanghai import kernel as K
from rummysim.variants.shanghai import moves as M
from rummysim.variants.shanghai import policy as P
from rummysim.variants.shanghai.replay import parse_table_meld
from rummysim.variants.shanghai.state import (
    I_PHASE, I_PROPOSAL_N, I_SEAT, I_TURN_SEAT, I_WINNER, MAX_TABLE, PH_BUY, PH_DISCARD, PH_OVER, PH_PLAY,
    PH_UPCARD, SI_BUYS_SEAT, SI_DISCARDER, SI_DISTANCE_SEAT, SI_DOWN_TURN_SEAT, SI_DRAWN, SI_N_TABLE,
    SI_OWN_TURNS_SEAT, SI_PILE_N, SI_ROUND, SI_STOCK_N, SR_CHECK, T_JOKERS, T_NATURALS, T_OWNER,
)
from rummysim.variants.shanghai.schema import ROUND_COLS, SEAT_COLS, SS_DOWN_TURN
from rummysim.variants.shanghai.table import hand_points, meld_listing
from rummysim.variants import VARIANTS

SHANGHAI = VARIANTS["shanghai"]

pytestmark = pytest.mark.engine

#: (players, rule options) of the conformance and bot runs: 3-8 players, every option of 2.8
CONFIGS = [
    (3, ()), (4, ()), (5, ()), (6, ()), (7, ()), (8, ()),
    (4, ("jokers=4",)), (3, ("decks=1", "jokers=0")), (5, ("max_buys=0",)), (4, ("max_buys=1",)),
    (4, ("layoff_on_contract_turn=true",)), (6, ("joker_swap=false",)), (3, ("ace=low",)),
    (4, ("must_discard_to_go_out=true",)), (5, ("one_turn_bonus=-10/-100",)), (4, ("turn_limit=40",)),
    (4, ("joker_swap=anyone",)), (5, ("joker_swap=anyone", "jokers=4", "layoff_on_contract_turn=true")),
]


def rules(players, *options, check=True):
    r = parse_rule_options(SHANGHAI, list(options)).to_array(players)
    r[SR_CHECK] = 1 if check else 0
    return r


def _config_arrays():
    """The conformance configs; uniformly random play rarely goes out, so rounds are capped at
    200 turns (2.8 ``turn_limit``) unless the config sets its own cap."""
    players = np.array([p for p, _ in CONFIGS], dtype=np.int64)
    mat = np.stack([rules(p, *(o if any(x.startswith("turn_limit") for x in o) else o + ("turn_limit=200",)))
                    for p, o in CONFIGS])
    return players, mat


@njit(cache=True)
def _scores_add_up(state, points):
    """The round's scores (rules 2.7): the winner 0 or a bonus, the others their hand's value."""
    M.scores(state, points)
    ints = state.ints
    for q in range(state.hands.shape[0]):
        if q == ints[I_WINNER]:
            if state.hands[q].sum() != 0 or points[q] > 0:
                raise AssertionError("the winner holds cards or scores points")
        elif points[q] != hand_points(state.hands[q]):
            raise AssertionError("a loser's score is not the value of the hand")


# The rules layer's ``apply`` and ``is_legal`` and the policy's ``choose`` are inlined wherever
# compiled code calls them, and every compiled function that inlines them takes tens of seconds to
# compile (``apply`` alone about 30 s). The compiled test loops below call them through these
# three, compiled once, so each loop compiles in seconds.
@njit(cache=True)
def _apply(state, move):
    """``moves.apply``, not inlined."""
    M.apply(state, move)


@njit(cache=True)
def _is_legal(state, move):
    """``moves.is_legal``, not inlined."""
    return M.is_legal(state, move)


@njit(cache=True)
def _choose(state, params, seat, scratch):
    """``policy.choose``, not inlined."""
    return P.choose(state, params, seat, scratch)


@njit(cache=True)
def _random_rounds(seed, n_rounds, players_of, rules_of, stats):
    """Play ``n_rounds`` rounds (config ``i % len(players_of)``, round ``1 + i % 10``) choosing every
    move uniformly among ``legal_moves`` with a seeded stream; every listed move must pass
    ``is_legal``; cards are checked after every move (``SR_CHECK``). ``stats`` int64[9]:
    moves, rounds won, stalemates (an empty stock, 2.6, or a blocked table, ruling 3.7), turn limits,
    contracts, lay-offs, swaps, buys, swaps before a contract (ruling 3.8)."""
    out = np.zeros(M.MAX_LEGAL, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(7919) + np.uint64(1)
    points = np.zeros(64, dtype=np.int64)
    for i in range(n_rounds):
        cfg = i % players_of.shape[0]
        players = players_of[cfg]
        state = M.new_state(players, rules_of[cfg], np.zeros((0, M.EV_WIDTH), dtype=np.int16))
        M.deal(state, seed, i, 1 + i % 10)
        M.check_cards(state)
        moves = 0
        while not M.is_over(state):
            n = M.legal_moves(state, out)
            if n <= 0:
                raise AssertionError("no legal move at a decision")
            for j in range(n):
                if not _is_legal(state, out[j]):
                    raise AssertionError("legal_moves listed a move is_legal refuses")
            move = out[below(rng, n)]
            if move == M.CONTRACT:
                stats[4] += 1
            elif move == M.BUY:
                stats[7] += 1
            elif move >= M.SWAP_DOWN_BASE:
                stats[8] += 1
            elif move >= M.SWAP_BASE:
                stats[6] += 1
            elif move >= M.LAYOFF_BASE:
                stats[5] += 1
            _apply(state, move)
            M.check_cards(state)
            moves += 1
            if moves > 100000:
                raise AssertionError("a round did not end")
        stats[0] += moves
        outcome = state.ints[K.I_OUTCOME]
        if outcome == OUT_WIN:
            stats[1] += 1
        elif outcome == OUT_STALEMATE_STOCK or outcome == OUT_STALEMATE_BLOCKED:
            stats[2] += 1
        elif outcome == OUT_TURN_LIMIT:
            stats[3] += 1
        _scores_add_up(state, points)


@pytest.mark.slow
def test_conformance_10000_random_rounds():
    """10,000 rounds of 3-8 players under every option of 2.8, every move drawn uniformly from
    ``legal_moves`` and applied with ``apply`` only: every listed move is legal, every card is in
    one place after every move, every round ends, the scores add up."""
    players, mat = _config_arrays()
    stats = np.zeros(9, dtype=np.int64)
    _random_rounds(5, 10_000, players, mat, stats)
    moves, won, stale, limit, contracts, layoffs, swaps, buys, swaps_down = stats
    assert won + stale + limit == 10_000
    assert won > 0 and contracts > 0 and layoffs > 0 and swaps > 0 and buys > 0 and swaps_down > 0, stats


@njit(cache=True)
def _bot_rounds(seed, games, players, params, rules, round_rows, seat_rows, phases):
    """The kernel's loop for whole games, asserting before every move that the bot's move is in
    ``legal_moves`` at that point; fills the same rows as ``kernel.play_games``. ``phases``
    int64[4] counts the moves checked per decision point."""
    state = M.new_state(players, rules, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    scratch = P.new_scratch(players)
    out = np.zeros(M.MAX_LEGAL, dtype=np.int64)
    for i in range(games.shape[0]):
        for r in range(10):
            K.start_round(seed, games[i], r + 1, state, scratch)
            while not M.is_over(state):
                move = _choose(state, params, state.ints[I_SEAT], scratch)
                n = M.legal_moves(state, out)
                found = False
                for j in range(n):
                    if out[j] == move:
                        found = True
                if not found:
                    raise AssertionError("a bot chose a move legal_moves does not list")
                if not _is_legal(state, move):
                    raise AssertionError("a bot chose a move is_legal refuses")
                phases[state.ints[I_PHASE]] += 1
                _apply(state, move)
            K.fill_rows(state, round_rows[i * 10 + r], seat_rows[i * 10 + r])


def rule_based() -> list[str]:
    """The shipped Shanghai strategies but the search bot (``test_search_moves_are_legal_and_blind_to_hidden_cards``
    plays it on a small budget)."""
    return [n for n in builtin_names(SHANGHAI)
            if load_strategy(n, SHANGHAI).params[B.SP_BOT] != B.BOT_SEARCH]


def _buyer_slow(names):
    """The strategies as parameters, ``buyer``'s (minutes: it buys, so its rounds are the longest) marked slow."""
    return [pytest.param(n, marks=pytest.mark.slow) if n == "buyer" else n for n in names]


@pytest.mark.slow   # 13-20 s a strategy (the conformance suite checks every bot's moves in the fast loop)
@pytest.mark.parametrize("name", _buyer_slow(rule_based()))
def test_every_bot_move_is_legal(name):
    """Every move of every shipped rule-based Shanghai strategy (alone at the table, and mixed with the
    others) over 11,250 rounds in all (some under joker_swap=anyone, ruling 3.8) is listed by
    ``legal_moves``; the checking loop gives exactly the kernel's rows."""
    names = rule_based()
    phases = np.zeros(4, dtype=np.int64)
    for k, (players, options) in enumerate(CONFIGS[:8] + [(4, ("joker_swap=anyone",))]):
        seats = [name] if k % 2 == 0 else [names[(names.index(name) + q) % len(names)] for q in range(players)]
        params = params_matrix(seat_strategies(seats, players, SHANGHAI))
        r = rules(players, *options, "turn_limit=300", check=False)  # stalled rounds cut short
        games = np.arange(k * 100, k * 100 + 25, dtype=np.int64)  # 9 x 25 games x 10 rounds = 2,250 rounds
        rows = np.zeros((len(games) * 10, K.ROUND_COLS), dtype=np.int32)
        seats_rows = np.zeros((len(games) * 10, players, K.SEAT_COLS), dtype=np.int32)
        _bot_rounds(3, games, players, params, r, rows, seats_rows, phases)
        want_rows = np.zeros_like(rows)
        want_seats = np.zeros_like(seats_rows)
        K.play_games(3, games, players, r, params, want_rows, want_seats, np.zeros((len(games), players), np.int32))
        assert (rows == want_rows).all() and (seats_rows == want_seats).all()
    assert phases[PH_UPCARD] > 0 and phases[PH_PLAY] > 0 and phases[PH_DISCARD] > 0


@njit(cache=True)
def _copy_scratch(s):
    """The policies' scratch with its own copy of the random streams (the rest, the search's arrays
    too, is written before it is read)."""
    return P.PolicyScratch(s.cand, s.chosen, s.ranks, s.left, s.row, s.table, s.rngs.copy(), s.out, s.dwork, s.solver,
                           s.search)


@njit(cache=True)
def _scramble(state, seat, rng):
    """Deal the cards ``seat`` cannot see (the other hands, less the copies each is known to hold,
    ``state.held``, and the stock) anew: same counts per hand, the rest to the stock in a new order;
    the others' cached distances are dropped."""
    pool = np.zeros(state.stock.shape[0] + 64 * state.hands.shape[0], dtype=np.int64)
    n = 0
    for q in range(state.hands.shape[0]):
        if q == seat:
            continue
        for c in range(64):
            for _ in range(state.hands[q, c] - state.held[q, c]):
                pool[n] = c
                n += 1
    for k in range(state.ints[SI_STOCK_N]):
        pool[n] = state.stock[k]
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    m = 0
    for q in range(state.hands.shape[0]):
        if q == seat:
            continue
        size = state.hands[q].sum() - state.held[q].sum()
        state.hands[q, :] = state.held[q]
        for _ in range(size):
            state.hands[q, pool[m]] += 1
            m += 1
        state.ints[SI_DISTANCE_SEAT + q] = 0
    for k in range(state.ints[SI_STOCK_N]):
        state.stock[k] = pool[m]
        m += 1


@njit(cache=True)
def _hidden_info(seed, games, players, params, rules, every, phases):
    """Along real play, every ``every``-th decision: the seat's policy must choose the same move
    (and the same laying) when the cards it cannot see are dealt anew."""
    state = M.new_state(players, rules, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    scratch = P.new_scratch(players)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) + np.uint64(99)
    t = 0
    for i in range(games.shape[0]):
        for r in range(10):
            K.start_round(seed, games[i], r + 1, state, scratch)
            while not M.is_over(state):
                seat = state.ints[I_SEAT]
                t += 1
                if t % every == 0:
                    a = M.copy_state(state)
                    b = M.copy_state(state)
                    _scramble(b, seat, rng)
                    m_a = _choose(a, params, seat, _copy_scratch(scratch))
                    m_b = _choose(b, params, seat, _copy_scratch(scratch))
                    if m_a != m_b:
                        raise AssertionError("a bot's move depends on cards it cannot see")
                    if m_a == M.CONTRACT:
                        n = a.ints[I_PROPOSAL_N]
                        if b.ints[I_PROPOSAL_N] != n or (a.melds[:n] != b.melds[:n]).any():
                            raise AssertionError("a bot's laying depends on cards it cannot see")
                    phases[state.ints[I_PHASE]] += 1
                move = _choose(state, params, seat, scratch)
                if not _is_legal(state, move):
                    raise AssertionError("a policy chose an illegal move")
                _apply(state, move)


@pytest.mark.slow   # minutes a strategy in the compiled loop (the conformance suite checks every variant's seats are blind in the fast loop)
@pytest.mark.parametrize("name", _buyer_slow(rule_based()))
def test_bots_do_not_see_hidden_cards(name):
    """Hidden information: over positions of real play (every decision point), each shipped
    strategy picks the same move when the opponents' hands and the stock are reshuffled among
    themselves (same hand sizes)."""
    phases = np.zeros(4, dtype=np.int64)
    for players, options in [(3, ()), (4, ("layoff_on_contract_turn=true",)), (6, ()), (4, ("joker_swap=anyone",))]:
        params = params_matrix(seat_strategies([name], players, SHANGHAI))
        _hidden_info(7, np.arange(10, dtype=np.int64), players, params,
                     rules(players, *options, "turn_limit=300", check=False), 2, phases)
    assert (phases > 0).all(), phases


def cheap_search(tmp_path, rollout: str = "expert", **keys) -> str:
    """A Shanghai search strategy file searching every decision on a small budget (keys override)."""
    search = {"rollout": f'"{rollout}"', "samples": 2, "playouts": 1,
              "decisions": '["draw", "buy", "play", "discard"]', "candidates": 3, **keys}
    text = 'name = "cheap-search"\nvariant = "shanghai"\ndescription = "test"\nbot = "search"\n[search]\n'
    text += "".join(f"{k} = {v}\n" for k, v in search.items())
    path = tmp_path / f"search-{abs(hash(text))}.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.slow   # over 2 minutes a case (test_search_shanghai.py checks the search bot in the fast loop)
@pytest.mark.parametrize("horizon, value, options", [(0, '"win"', ()), (4, '"points"', ("joker_swap=anyone",))])
def test_search_moves_are_legal_and_blind_to_hidden_cards(horizon, value, options, tmp_path):
    """The search bot on a small budget, searching every decision (to the end of the round, and with
    a horizon), against the rule-based bots: every move legal, and the same move (and laying) when
    the cards it cannot see are dealt again (its deals of the unseen cards read only what its seat
    may see: counts, the pile, the table, the copies each seat is known to hold)."""
    players = 4
    table = [cheap_search(tmp_path, horizon=horizon, value=value), "expert", "buyer", "patient"]
    params = params_matrix(seat_strategies(table, players, SHANGHAI))
    phases = np.zeros(4, dtype=np.int64)
    _hidden_info(11, np.arange(1, dtype=np.int64), players, params,
                 rules(players, *options, "turn_limit=300", check=True), 3, phases)
    assert (phases > 0).all(), phases


# ---------------------------------------------------------------- hand-built positions

def position(hands, stock="", pile="", *options, round_no=1, table=(), first=0, down=None, buys=None,
             discarder=-1):
    """A hand-built round at the start of seat ``first``'s turn (as ``replay.play_round_position``
    builds it; cards it does not name are out of play, so no card check)."""
    players = len(hands)
    r = rules(players, *options, check=False)
    state = M.new_state(players, r, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
    ints = state.ints
    ints[SI_ROUND] = round_no
    ints[SI_DISCARDER] = discarder
    for p, h in enumerate(hands):
        for t in h.split():
            state.hands[p, card_id(t, allow_joker=True)] += 1
    for k, (owner, text) in enumerate(table):
        state.table[k] = parse_table_meld(text, True)
        state.table[k, T_OWNER] = owner
    ints[SI_N_TABLE] = len(table)
    stock_ids = [card_id(t, allow_joker=True) for t in stock.split()]
    pile_ids = [card_id(t, allow_joker=True) for t in pile.split()]
    state.stock[:len(stock_ids)] = stock_ids[::-1]
    state.pile[:len(pile_ids)] = pile_ids
    ints[SI_STOCK_N], ints[SI_PILE_N] = len(stock_ids), len(pile_ids)
    for p, turn in (down or {}).items():
        ints[SI_DOWN_TURN_SEAT + p] = turn
        ints[SI_OWN_TURNS_SEAT + p] = turn
    for p, n in (buys or {}).items():
        ints[SI_BUYS_SEAT + p] = n
    M.begin(state, first)
    return state


def legal(state) -> list[int]:
    out = np.zeros(M.MAX_LEGAL, dtype=np.int64)
    return [int(m) for m in out[:M.legal_moves(state, out)]]


def c(name: str) -> int:
    return card_id(name, allow_joker=True)


def layoff(card: str, k: int) -> int:
    return M.LAYOFF_BASE + c(card) * MAX_TABLE + k


def swap(card: str, k: int, k2: int) -> int:
    return M.SWAP_BASE + (c(card) * MAX_TABLE + k) * MAX_TABLE + k2


FILLER = "C2 D4 S6 H8 CT D3 SQ HK C5 D7 S9"


def test_upcard_phase_2_4_1_and_ruling_3_1():
    s = position([FILLER, FILLER, FILLER], "C3 C4 C6", "H5", discarder=2)
    assert (s.ints[I_PHASE], s.ints[I_SEAT]) == (PH_UPCARD, 0)
    assert legal(s) == [M.LEAVE_UPCARD, M.TAKE_UPCARD]
    # ruling 3.1: holding only copies of the upcard, taking it would leave nothing to throw
    s = position(["H5 H5", FILLER, FILLER], "C3 C4 C6", "H5", discarder=2)
    assert legal(s) == [M.LEAVE_UPCARD]
    assert not M.is_legal(s, M.TAKE_UPCARD)
    for wrong in (M.BUY, M.PASS, M.STOP, M.CONTRACT, c("H5"), layoff("H5", 0)):  # wrong phase
        assert not M.is_legal(s, wrong)
    # taken: the seat plays on with it in hand, and may not throw it back (ruling 3.1)
    s = position([FILLER, FILLER, FILLER], "C3 C4 C6", "H5", discarder=2)
    M.apply(s, M.TAKE_UPCARD)
    assert (s.ints[I_PHASE], s.ints[SI_DRAWN], s.hands[0, c("H5")]) == (PH_PLAY, c("H5"), 1)
    M.apply(s, M.STOP)
    assert s.ints[I_PHASE] == PH_DISCARD
    assert c("H5") not in legal(s) and not M.is_legal(s, c("H5"))
    assert legal(s) == sorted(c(t) for t in FILLER.split())
    assert not M.is_legal(s, c("HA"))                             # a card not held


def test_buy_phase_2_4_2_and_ruling_3_4():
    hands = [FILLER] * 4
    # left by seat 0: seat 1 then 2 are offered it; seat 3 discarded it and is skipped
    s = position(hands, "C3 C4 C6", "H5", discarder=3)
    M.apply(s, M.LEAVE_UPCARD)
    assert (s.ints[I_PHASE], s.ints[I_SEAT], s.ints[I_TURN_SEAT]) == (PH_BUY, 1, 0)
    assert legal(s) == [M.PASS, M.BUY]
    assert not M.is_legal(s, M.TAKE_UPCARD) and not M.is_legal(s, c("C2"))
    M.apply(s, M.PASS)
    assert (s.ints[I_PHASE], s.ints[I_SEAT]) == (PH_BUY, 2)
    M.apply(s, M.PASS)                                            # seat 3 skipped: seat 0 draws C3
    assert (s.ints[I_PHASE], s.ints[I_SEAT], s.hands[0, c("C3")]) == (PH_PLAY, 0, 1)
    # a buy: the upcard and the stock's top card as the penalty; then seat 0 draws the next
    s = position(hands, "C3 C4 C6", "H5", discarder=3)
    M.apply(s, M.LEAVE_UPCARD)
    M.apply(s, M.BUY)
    assert s.hands[1, c("H5")] == 1 and s.hands[1, c("C3")] == 1 and s.hands[0, c("C4")] == 1
    assert (s.ints[I_PHASE], s.ints[I_SEAT], s.ints[SI_BUYS_SEAT + 1]) == (PH_PLAY, 0, 1)
    # out of buys (max_buys=1): passed over
    s = position(hands, "C3 C4 C6", "H5", "max_buys=1", discarder=3, buys={1: 1})
    M.apply(s, M.LEAVE_UPCARD)
    assert s.ints[I_SEAT] == 2
    # ruling 3.4: with fewer than two stock cards nobody may buy; max_buys=0: no buying at all
    for stock, options in (("C3", ()), ("C3 C4 C6", ("max_buys=0",))):
        s = position(hands, stock, "H5", *options, discarder=3)
        M.apply(s, M.LEAVE_UPCARD)
        assert (s.ints[I_PHASE], s.ints[I_SEAT]) == (PH_PLAY, 0)


def test_play_phase_contract_2_5():
    # round 1: two sets. Seat 0 can lay 7-7-7 and 9-9-9 after drawing
    hand = "C7 D7 S7 C9 D9 H9 SK C2"
    s = position([hand, FILLER, FILLER], "HA", "", discarder=2)    # empty pile: draws HA at once
    assert (s.ints[I_PHASE], s.ints[I_SEAT]) == (PH_PLAY, 0)
    assert legal(s) == [M.STOP, M.CONTRACT]
    assert s.ints[I_PROPOSAL_N] == 2                              # the solver's laying, in the buffer
    for wrong in (layoff("SK", 0), c("SK"), M.TAKE_UPCARD, M.BUY):
        assert not M.is_legal(s, wrong)
    M.apply(s, M.CONTRACT)
    assert s.ints[SI_N_TABLE] == 2 and s.ints[SI_DOWN_TURN_SEAT] == 1
    assert s.ints[I_PHASE] == PH_DISCARD                          # no lay-off on the contract turn
    assert legal(s) == sorted(c(t) for t in "SK C2 HA".split())
    # a hand without the contract may only stop; a made-up laying is refused
    s = position([FILLER, FILLER, FILLER], "HA", "", discarder=2)
    assert legal(s) == [M.STOP]
    s.melds[:2] = [parse_table_meld("C2 D2 S2"), parse_table_meld("C4 D4 S4")]
    s.ints[I_PROPOSAL_N] = 2
    assert not M.is_legal(s, M.CONTRACT)                          # cards not held
    s = position([hand, FILLER, FILLER], "HA", "", discarder=2)
    s.melds[0] = parse_table_meld("C7 D7 S7")
    s.ints[I_PROPOSAL_N] = 1
    assert not M.is_legal(s, M.CONTRACT)                          # not the whole contract (2.2)
    s.melds[1] = parse_table_meld("C9 D9 H9")
    s.ints[I_PROPOSAL_N] = 2
    assert M.is_legal(s, M.CONTRACT)
    # layoff_on_contract_turn=true: the seat plays on after laying
    s = position([hand + " S9", FILLER, FILLER], "HA", "", "layoff_on_contract_turn=true", discarder=2)
    M.apply(s, M.CONTRACT)
    assert (s.ints[I_PHASE], s.ints[I_SEAT]) == (PH_PLAY, 0)          # down now: lay-offs or stop
    assert legal(s)[0] == M.STOP and not M.is_legal(s, M.CONTRACT)


def test_play_phase_layoffs_and_swaps_2_5():
    table = [(1, "H5 H6 H7"), (1, "C8 D8 JK"), (2, "S3 JK S5")]
    s = position(["H4 S4 D8 C3", FILLER, FILLER], "SA", "", table=table, down={0: 1}, discarder=2)
    assert (s.ints[I_PHASE], s.ints[I_SEAT]) == (PH_PLAY, 0)
    # the drawn SA fits nowhere; C3 neither. H4 goes below H5-H7. S4 stands for the joker of
    # S3 JK S5; D8 joins the eights or stands for their joker; a freed joker may go to any meld
    # that takes it (judged after the swap: the eights keep 2 naturals for 1 joker), on a run open
    # at both ends below it or above it (ruling 3.13)
    expect = [M.STOP, layoff("D8", 1), swap("D8", 1, 0), swap_low("D8", 1, 0), swap("D8", 1, 1), swap("D8", 1, 2),
              swap_low("D8", 1, 2), layoff("H4", 0), swap("S4", 2, 0), swap_low("S4", 2, 0), swap("S4", 2, 1),
              swap("S4", 2, 2), swap_low("S4", 2, 2)]
    got = legal(s)
    assert got == expect
    cards = [((m - M.LAYOFF_BASE) // MAX_TABLE if m < M.SWAP_BASE else (m - M.SWAP_BASE) // MAX_TABLE ** 2
              if m < M.SWAP_LOW_BASE else (m - M.SWAP_LOW_BASE) // MAX_TABLE ** 2) for m in got[1:]]
    assert cards == sorted(cards)                                 # card ascending
    assert not M.is_legal(s, layoff("C3", 0))                     # does not fit
    assert not M.is_legal(s, layoff("HK", 0))                     # not held
    assert not M.is_legal(s, swap("H4", 2, 0))                    # H4 stands for no joker
    assert not M.is_legal(s, c("C3"))                             # discarding is the next phase
    # joker_swap=false: no swaps
    s = position(["H4 S4 D8 C3", FILLER, FILLER], "SA", "", "joker_swap=false", table=table, down={0: 1},
                 discarder=2)
    assert not any(m >= M.SWAP_BASE for m in legal(s))
    assert not M.is_legal(s, swap("S4", 2, 0))
    # a seat not down may not lay off (2.5)
    s = position(["H4 S4 D8 C3", FILLER, FILLER], "SA", "", table=table, discarder=2)
    assert legal(s) == [M.STOP] and not M.is_legal(s, layoff("H4", 0))
    # ruling 3.1: a lay-off may not leave only the upcard taken this turn (it may not be thrown)
    run = table[:1]
    s = position(["H4 C2", FILLER, FILLER], "", "H8", table=run, down={0: 1}, discarder=2)
    M.apply(s, M.TAKE_UPCARD)
    M.apply(s, M.STOP)
    assert legal(s) == [c("C2"), c("H4")] and not M.is_legal(s, c("H8"))
    s = position(["H4", FILLER, FILLER], "", "H8", table=run, down={0: 1}, discarder=2)
    M.apply(s, M.TAKE_UPCARD)
    assert legal(s) == [M.STOP, layoff("H8", 0)]
    assert not M.is_legal(s, layoff("H4", 0))
    # must_discard_to_go_out (2.6): the last card must be thrown, not laid off
    s = position(["H4", FILLER, FILLER], "H8", "", "must_discard_to_go_out=true", table=run, down={0: 1},
                 discarder=2)
    M.apply(s, layoff("H4", 0))
    assert legal(s) == [M.STOP] and not M.is_legal(s, layoff("H8", 0))
    s = position(["H4", FILLER, FILLER], "H8", "", table=run, down={0: 1}, discarder=2)
    M.apply(s, layoff("H4", 0))
    M.apply(s, layoff("H8", 0))                                   # going out without a discard
    M.apply(s, M.STOP)
    assert M.is_over(s) and s.ints[I_WINNER] == 0


def swap_low(card: str, k: int, k2: int) -> int:
    """The swap with the freed joker below run k2 (ruling 3.13)."""
    return M.SWAP_LOW_BASE + (c(card) * MAX_TABLE + k) * MAX_TABLE + k2


def swap_down(card: str, k: int) -> int:
    return M.SWAP_DOWN_BASE + c(card) * MAX_TABLE + k


# round 1 (two sets); table: 0 = 1: H5 JK H7 (the joker is H6); seat 0 not down draws C2.
# C9 D9 S9 C4 D4 H6 SK: no contract (the fours are two); with the joker for H6, C4 D4 JK is a set
SWAP_DOWN_HAND = "C9 D9 S9 C4 D4 H6 SK"
SWAP_DOWN_TABLE = [(1, "H5 JK H7")]


def test_swap_before_the_contract_ruling_3_8():
    # docs/rules.md 3.8: joker_swap=anyone, a seat not down swaps in the turn it lays its contract,
    # the freed joker in that contract; the swap, then the contract and nothing else
    s = position([SWAP_DOWN_HAND, FILLER, FILLER], "C2", "", "joker_swap=anyone", table=SWAP_DOWN_TABLE,
                 discarder=2)
    assert legal(s) == [M.STOP, swap_down("H6", 0)]
    assert M.is_legal(s, swap_down("H6", 0))
    assert s.ints[I_PROPOSAL_N] == 0                              # the check kept the buffer
    assert not M.is_legal(s, swap("H6", 0, 0))                    # a lay-off swap: only once down (2.5)
    M.apply(s, swap_down("H6", 0))
    assert s.hands[0, c("JK")] == 1 and s.hands[0, c("H6")] == 0
    assert (s.table[0, T_JOKERS], s.table[0, T_NATURALS]) == (0, 3)  # H5 H6 H7
    assert legal(s) == [M.CONTRACT]                               # no STOP, no second swap
    assert not M.is_legal(s, M.STOP)
    assert not M.is_legal(s, swap_down("H6", 0))
    # a laying without the joker is refused after the swap (here none exists: the fours need it)
    M.apply(s, M.CONTRACT)
    assert s.ints[SI_N_TABLE] == 3 and s.ints[SI_DOWN_TURN_SEAT] == 1 and s.hands[0, c("JK")] == 0
    assert s.ints[I_PHASE] == PH_DISCARD
    assert legal(s) == [c("C2"), c("SK")]
    # a swap whose joker cannot go into a contract is not legal: C4 alone cannot host a set with it
    s = position(["C9 D9 S9 C4 H6 SK", FILLER, FILLER], "C2", "", "joker_swap=anyone", table=SWAP_DOWN_TABLE,
                 discarder=2)
    assert legal(s) == [M.STOP] and not M.is_legal(s, swap_down("H6", 0))
    # a natural that stands for no joker, or a card not held: not legal
    s = position([SWAP_DOWN_HAND, FILLER, FILLER], "C2", "", "joker_swap=anyone", table=SWAP_DOWN_TABLE,
                 discarder=2)
    assert not M.is_legal(s, swap_down("C4", 0)) and not M.is_legal(s, swap_down("H8", 0))
    assert not M.is_legal(s, swap_down("H6", 1))                  # no meld 1
    # joker_swap=true (a player who has gone down) and false: no swap for a seat not down
    for option in ("joker_swap=true", "joker_swap=false"):
        s = position([SWAP_DOWN_HAND, FILLER, FILLER], "C2", "", option, table=SWAP_DOWN_TABLE, discarder=2)
        assert legal(s) == [M.STOP] and not M.is_legal(s, swap_down("H6", 0))
    # a seat already down swaps as in 2.5 under anyone: the joker is laid off in the same move
    s = position(["H6 SK", FILLER, FILLER], "C2", "", "joker_swap=anyone", table=SWAP_DOWN_TABLE, down={0: 1},
                 discarder=2)
    assert legal(s) == [M.STOP, swap("H6", 0, 0), swap_low("H6", 0, 0)]   # the joker as H8 or H4 (3.13)
    assert not M.is_legal(s, swap_down("H6", 0))


def test_swap_before_a_contract_of_runs_puts_the_joker_in_it_ruling_3_8():
    # round 3 (two runs of 4): C3-C6 and D3-D6 make the contract without a joker; after the swap
    # the laying must hold the freed joker (one run takes it at an end)
    hand = "C3 C4 C5 C6 D3 D4 D5 D6 H6 SK"
    s = position([hand, FILLER, FILLER], "C2", "", "joker_swap=anyone", round_no=3, table=SWAP_DOWN_TABLE,
                 discarder=2)
    assert legal(s) == [M.STOP, M.CONTRACT, swap_down("H6", 0)]
    M.apply(s, swap_down("H6", 0))
    assert legal(s) == [M.CONTRACT]
    n = s.ints[I_PROPOSAL_N]
    assert n == 2 and s.melds[:n, T_JOKERS].sum() == 1
    s.melds[0] = parse_table_meld("C3 C4 C5 C6")                  # a laying without the joker
    s.melds[1] = parse_table_meld("D3 D4 D5 D6")
    assert not M.is_legal(s, M.CONTRACT)
    s.melds[1] = parse_table_meld("D3 D4 D5 D6 JK")
    assert M.is_legal(s, M.CONTRACT)
    M.apply(s, M.CONTRACT)
    assert s.hands[0, c("JK")] == 0 and s.ints[I_PHASE] == PH_DISCARD


def test_swap_on_the_contract_turn_ruling_3_9():
    # docs/rules.md 3.9: with layoff_on_contract_turn=true a swap is a lay-off, allowed once the
    # contract is down in the same turn; without it, the contract ends the play step
    hand = "C5 D5 H5 C9 D9 S9 H6 SK"
    s = position([hand, FILLER, FILLER], "C2", "", "layoff_on_contract_turn=true", table=SWAP_DOWN_TABLE,
                 discarder=2)
    M.apply(s, M.CONTRACT)
    assert s.ints[I_PHASE] == PH_PLAY and swap("H6", 0, 0) in legal(s) and M.is_legal(s, swap("H6", 0, 0))
    M.apply(s, swap("H6", 0, 0))
    assert s.hands[0, c("H6")] == 0 and s.hands[0, c("JK")] == 0 and s.table[0, T_JOKERS] == 1
    s = position([hand, FILLER, FILLER], "C2", "", table=SWAP_DOWN_TABLE, discarder=2)
    M.apply(s, M.CONTRACT)
    assert s.ints[I_PHASE] == PH_DISCARD and not M.is_legal(s, swap("H6", 0, 0))


def test_going_out_ends_the_round_2_7():
    table = [(1, "H5 H6 H7")]
    s = position(["H4 C2", FILLER, FILLER], "H8", "", table=table, down={0: 1}, discarder=2)
    M.apply(s, layoff("H4", 0))
    M.apply(s, layoff("H8", 0))
    M.apply(s, M.STOP)
    assert legal(s) == [c("C2")]
    M.apply(s, c("C2"))
    assert M.is_over(s) and s.ints[I_PHASE] == PH_OVER and s.ints[I_WINNER] == 0
    assert legal(s) == [] and not M.is_legal(s, M.STOP)
    points = np.zeros(3, dtype=np.int64)
    M.scores(s, points)
    assert points[0] == 0 and points[1] == points[2] == hand_points(s.hands[1])


# ---------------------------------------------------------------- against the plain reference (2.5, 3.1, 3.13)

def _reference_meld(row) -> dict:
    """A table meld row as ``shanghai_reference`` writes melds (decoding the row's columns only)."""
    from rummysim.variants.shanghai.contracts import card_at
    from rummysim.variants.shanghai.state import MELD_SET, T_HI, T_JOKER_POS, T_KIND, T_LO, T_RANK, T_SUIT, T_SUIT_COUNT

    jokers = int(row[T_JOKERS])
    if row[T_KIND] == MELD_SET:
        naturals = [16 * s + int(row[T_RANK]) for s in range(4) for _ in range(int(row[T_SUIT_COUNT + s]))]
        return {"kind": "set", "naturals": sorted(naturals), "jokers": jokers, "positions": None}
    cells = [(p, "JK" if (int(row[T_JOKER_POS]) >> p) & 1 else int(card_at(int(row[T_SUIT]), p)))
             for p in range(int(row[T_LO]), int(row[T_HI]) + 1)]
    return {"kind": "run", "naturals": sorted(c for _, c in cells if c != "JK"), "jokers": jokers, "positions": cells}


def _engine_move(state, action: int) -> tuple:
    """What a lay-off or swap action did, read from the table it leaves (played on a copy): the card,
    the meld(s) and where a joker went (``"set"``, ``"low"``, ``"high"``; None for a natural)."""
    from rummysim.variants.shanghai.state import MELD_SET, T_KIND, T_LO

    after = M.copy_state(state)
    M.apply(after, action)

    def where(k, card):
        if card != 63:
            return None
        if state.table[k, T_KIND] == MELD_SET:
            return "set"
        return "low" if after.table[k, T_LO] < state.table[k, T_LO] else "high"

    if M.LAYOFF_BASE <= action < M.SWAP_BASE or M.JOKER_LOW_BASE <= action < M.SWAP_LOW_BASE:
        c, k = (63, action - M.JOKER_LOW_BASE) if action >= M.JOKER_LOW_BASE else divmod(action - M.LAYOFF_BASE, MAX_TABLE)
        return ("layoff", "JK" if c == 63 else c, k, where(k, c))
    i = action - (M.SWAP_LOW_BASE if action >= M.SWAP_LOW_BASE else M.SWAP_BASE)
    c, k, k2 = i // (MAX_TABLE * MAX_TABLE), i // MAX_TABLE % MAX_TABLE, i % MAX_TABLE
    return ("swap", c, k, k2, where(k2, 63))


def test_lay_offs_and_swaps_match_the_plain_reference():
    """At every play step of a seat that is down, in rounds played at random (the contract laid whenever
    it can be), the lay-offs and joker swaps ``legal_moves`` lists are exactly those the plain reference
    ``shanghai_reference.play_moves`` reads from the rules (2.5, rulings 3.1 and 3.13), with each joker's
    end as the engine placed it; no move twice."""
    import shanghai_reference as S
    from collections import Counter

    rng = np.random.default_rng(13)
    configs = [(3, ()), (4, ("jokers=4",)), (5, ()), (4, ("ace=low", "jokers=3")), (3, ("joker_swap=false",)),
               (4, ("must_discard_to_go_out=true", "jokers=2")), (6, ("joker_swap=anyone",))]
    out = np.empty(M.MAX_LEGAL, dtype=np.int64)
    compared = both_ends = 0
    for i in range(140):
        players, options = configs[i % len(configs)]
        r = rules(players, *options)
        state = M.new_state(players, r, np.zeros((0, M.EV_WIDTH), dtype=np.int16))
        M.deal(state, 77, i, 1 + i % 10)
        for _ in range(600):
            if M.is_over(state):
                break
            n = M.legal_moves(state, out)
            listed = out[:n].tolist()
            p = int(state.ints[I_SEAT])
            if state.ints[I_PHASE] == PH_PLAY and state.ints[SI_DOWN_TURN_SEAT + p] > 0:
                engine = [_engine_move(state, a) for a in listed if a != M.STOP]
                assert len(set(engine)) == len(engine)
                hand = Counter({("JK" if c == 63 else c): int(state.hands[p, c]) for c in range(64) if state.hands[p, c]})
                melds = [_reference_meld(state.table[k]) for k in range(int(state.ints[SI_N_TABLE]))]
                drawn = {-1: None, 63: "JK"}.get(int(state.ints[SI_DRAWN]), int(state.ints[SI_DRAWN]))
                ref = S.play_moves(melds, hand, "low" if "ace=low" in options else "high_or_low",
                                   swaps="joker_swap=false" not in options, drawn=drawn,
                                   must_discard="must_discard_to_go_out=true" in options)
                assert set(engine) == ref, (i, set(engine) ^ ref)
                compared += 1
                both_ends += any(m[-1] == "low" for m in ref) and any(m[-1] == "high" for m in ref)
            move = M.CONTRACT if M.CONTRACT in listed else listed[rng.integers(n)]
            M.apply(state, move)
    assert compared > 500 and both_ends > 50, (compared, both_ends)


def test_2_2_round_9_with_eight_seats_lays_more_than_24_table_melds():
    """2.2: round 9's contract is four melds (three sets and a run), so eight seats down lay 32. Seed 1,
    game 8786, eight ``expert`` seats: seven go down in round 9, 28 melds, which a table of 24 slots
    (``MAX_TABLE`` was three melds a seat) let the kernel write past its end (heap corruption in a
    100,000-round run; an IndexError with ``NUMBA_BOUNDSCHECK=1``). Every meld laid is on the table."""
    players = 8
    params = params_matrix(seat_strategies(["expert"], players, SHANGHAI))
    state = M.new_state(players, parse_rule_options(SHANGHAI, []).to_array(players),
                        np.empty((0, M.EV_WIDTH), dtype=np.int16))
    round_row, seat_rows = np.zeros(ROUND_COLS, np.int32), np.zeros((players, SEAT_COLS), np.int32)
    K.play_round(1, 8786, 9, params, state, P.new_scratch(players), round_row, seat_rows)
    down = int((seat_rows[:, SS_DOWN_TURN] > 0).sum())
    n_table = int(state.ints[SI_N_TABLE])
    assert n_table == 4 * down > 24 and n_table <= MAX_TABLE == 32
    listing = np.zeros(64, dtype=np.int64)
    assert all(meld_listing(state.table[k], listing) >= 3 for k in range(n_table))
