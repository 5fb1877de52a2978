"""The playing environments (``rummysim.env``): PettingZoo's and Gymnasium's own checkers, hidden
information, determinism, ``rummysim run``'s rows reproduced through the environment, and 100,000
random steps through ``Batch`` with its invariants after every step.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
import reference as ref
import shanghai_reference as SR

from rummysim.cards import JOKER
from rummysim.run import UsageError
from rummysim.variants.basic import moves as MV
from rummysim.variants.basic import state as S
from rummysim.variants.shanghai import moves as SMV
from rummysim.variants.shanghai import state as SS

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test

from rummysim.env import Batch, basic_v0, gin_v0, shanghai_v0, single

pytestmark = pytest.mark.engine


def random_walk(env, seed: int, steps: int, on_step=None):
    """Play ``steps`` uniformly random legal moves (numpy Generator ``seed``) through an AEC env, resetting
    at the end of an episode; ``on_step(env)`` before each move. Returns the moves played."""
    rng = np.random.default_rng(seed)
    played = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        if on_step is not None:
            on_step(env)
        move = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
        played.append(move)
        env.step(move)
    return played


# ------------------------------------------------------------------------------ checkers
@pytest.mark.parametrize("make", [lambda: basic_v0.env(players=2), lambda: basic_v0.env(players=4, episode="hand"),
                                  lambda: basic_v0.env(players=3, reward="win"), lambda: gin_v0.env(),
                                  lambda: gin_v0.env(episode="hand", reward="win"),
                                  pytest.param(lambda: shanghai_v0.env(players=4), marks=pytest.mark.slow)])
def test_pettingzoo_api_test(make):
    api_test(make(), num_cycles=300)


@pytest.mark.parametrize("variant, opponents", [("basic", ["expert"]), ("basic", ["greedy", "random"]),
                                                ("shanghai", ["greedy"])])
def test_gymnasium_check_env(variant, opponents):
    from gymnasium.utils.env_checker import check_env
    check_env(single(variant=variant, opponents=opponents), skip_render_check=True)


def test_single_plays_to_the_end_with_rewards():
    """A random agent against greedy in hand episodes: the reward is the hand's points when it wins
    (``reward="points"``), and the episode ends with the hand."""
    env = single("basic", opponents=["greedy"], episode="hand")
    rng = np.random.default_rng(3)
    wins = 0
    for k in range(30):
        obs, _ = env.reset(seed=5) if k == 0 else env.reset()
        done, total = False, 0.0
        while not done:
            obs, r, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += r
        game = env.game
        assert total == (game.state.ints[S.I_POINTS] if game.state.ints[S.I_WINNER] == 0 else 0)
        wins += total > 0
    assert 0 < wins < 30
    env.reset()
    _, r, done, _, info = env.step(MV.NUM_ACTIONS - 1)   # a lay-off at the draw
    assert done and r == -1.0 and info == {"illegal": True}


def test_bad_arguments_are_usage_errors():
    with pytest.raises(UsageError, match="reward"):
        basic_v0.env(reward="money")
    with pytest.raises(UsageError, match="players"):
        basic_v0.env(players=5)
    with pytest.raises(UsageError, match="episode"):
        single(variant="shanghai", opponents=["greedy"], episode="hand")
    env = basic_v0.env()
    env.reset(seed=1)
    with pytest.raises(UsageError, match="not legal"):
        env.step(MV.STOP)   # the first decision is a draw


# ------------------------------------------------------------------------------ hidden information
# (every variant's seats blind to the cards they cannot see: tests/test_conformance.py)


def test_known_cards_are_held_basic():
    """What the observation lists as known in an opponent's hand is in that hand (Basic: a card taken from
    the pile until it is discarded or laid on the table, docs/rules.md 1.3.1)."""
    env = basic_v0.raw_env(players=4)
    env.reset(seed=2)
    seen = []

    def check(env):
        g = env.game
        for q in range(4):
            known = int(g.known[q] & ~g.state.masks[S.M_TABLE])
            assert known & ~int(g.state.masks[S.M_HAND + q]) == 0
            seen.append(known != 0)

    random_walk(env, 6, 3000, check)
    assert sum(seen) > 100   # cards were known for a good part of the walk


# ------------------------------------------------------------------------------ text
@pytest.mark.parametrize("make", [lambda: basic_v0.env(players=3), lambda: shanghai_v0.env(players=4)])
def test_move_names_are_the_legal_moves(make):
    """Along a random game played by name, the agent to act's move names parse back to exactly the actions
    of its mask; others get no names; text that is no legal move is refused with one line."""
    from rummysim.base.errors import MoveError
    env = make()
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(400):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        names = env.legal_move_names(agent)
        actions = [env.parse_move(n) for n in names]
        assert sorted(actions) == list(np.flatnonzero(env.observe(agent)["action_mask"]))
        assert all(env.legal_move_names(a) == [] for a in env.agents if a != agent)
        env.step(env.parse_move(names[int(rng.integers(len(names)))]))
    with pytest.raises(MoveError) as e:
        env.parse_move("discard XX")
    assert "\n" not in str(e.value)


# ------------------------------------------------------------------------------ determinism
@pytest.mark.parametrize("make", [lambda: basic_v0.env(players=2), lambda: shanghai_v0.env(players=3)])
def test_same_seed_and_moves_same_trajectory(make):
    def trajectory():
        env = make()
        env.reset(seed=77)
        obs = []
        random_walk(env, 9, 1500, lambda e: obs.append(e.observe(e.agent_selection)["observation"].copy()))
        return obs
    a, b = trajectory(), trajectory()
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


# ------------------------------------------------------------------------------ Batch
def _basic_table_ok(b, i):
    """Basic table ``i``: every card in exactly one place; its legal list is ``moves.legal_moves_in``'s."""
    masks, ints, stock, pile, _, _, t_lay, _, _, buf = (a.copy() for a in b.state(i)[:10])
    MV.check_cards(masks, stock, pile, ints, b.players)
    out = np.empty(MV.MAX_LEGAL, dtype=np.int64)
    n = MV.legal_moves_in(masks, ints, t_lay, b.rules.to_array(b.players), buf, out)
    assert np.array_equal(np.sort(out[:n]), np.flatnonzero(b.mask[i]))


def _shanghai_table_ok(b, i):
    """Shanghai table ``i`` (on a copy of its state, fresh scratch): every card in exactly one place; its
    legal list is ``moves.legal_moves``'s; it plays round ``episodes % 10 + 1`` of game ``i + (episodes
    // 10) * n_tables``."""
    state = SMV.new_state(b.players, b.rules.to_array(b.players), np.empty((0, SMV.EV_WIDTH), dtype=np.int16))
    state = state._replace(**{f: a.copy() for f, a in zip(SS.State._fields[:6], b.state(i)[:6])},
                           rng1=b.state(i)[6].copy())
    SMV.check_cards(state)
    out = np.empty(SMV.MAX_LEGAL, dtype=np.int64)
    n = SMV.legal_moves(state, out)
    assert np.array_equal(np.sort(out[:n]), np.flatnonzero(b.mask[i]))
    assert state.ints[SS.SI_ROUND] == b.episodes[i] % 10 + 1
    assert state.ints[SS.I_GAME] == i + b.episodes[i] // 10 * b.n_tables


def _check_batch(b, table_ok):
    """Invariants of every table after a step: the mask is exactly the legal list, the seat to act in
    range, rewards only where an episode ended; every 8th table ``table_ok(b, i)`` (card conservation,
    the legal list is the rules layer's)."""
    assert (b.n_legal >= 1).all()
    assert (b.mask.sum(axis=1) == b.n_legal).all()
    rows = np.repeat(np.arange(b.n_tables), b.n_legal)
    cols = np.concatenate([b.legal[i, :b.n_legal[i]] for i in range(b.n_tables)])
    assert (b.mask[rows, cols] == 1).all()
    assert ((b.seat >= 0) & (b.seat < b.players)).all()
    assert (b.reward[~b.done] == 0).all()
    for i in range(0, b.n_tables, 8):
        table_ok(b, i)


@pytest.mark.parametrize("variant, players, tables, steps, table_ok, make", [
    ("basic", 3, 256, 400, _basic_table_ok, lambda p: basic_v0.raw_env(players=p, episode="hand")),
    ("shanghai", 4, 128, 782, _shanghai_table_ok, lambda p: shanghai_v0.raw_env(players=p))])
@pytest.mark.slow   # an invariant sweep: 15 s for Shanghai
def test_batch_random_steps_keep_invariants(variant, players, tables, steps, table_ok, make):
    """100,000 random table-steps: invariants after every step (``_check_batch``); a finished episode (a
    Basic hand, a Shanghai round) rewards at most one seat positively (Basic: the winner's points,
    Shanghai: the one-turn bonus); table 5's first deal and observation are the AEC environment's
    at game index 5 (Basic hand 0, Shanghai round 1)."""
    b = Batch(variant, tables, players, seed=12)
    env = make(players)
    env.reset(seed=12)
    for _ in range(5):
        env.reset()
    assert all(np.array_equal(x, y) for x, y in zip(env.game.state[:4], b.state(5)[:4]))
    assert b.seat[5] == env.game.seat
    assert np.array_equal(b.observe()[5], env.observe(env.agent_selection)["observation"])
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(steps):
        b.step(b.random_actions(rng))
        _check_batch(b, table_ok)
        episodes += b.done.sum()
        assert ((b.reward[b.done] > 0).sum(axis=1) <= 1).all()
    assert episodes > 100
    assert (b.episodes.sum() == episodes)


@pytest.mark.parametrize("variant, players, make, units", [
    ("basic", 3, lambda p: basic_v0.raw_env(players=p, episode="hand"), 1),
    ("shanghai", 4, lambda p: shanghai_v0.raw_env(players=p), 3),
    ("gin", 2, lambda p: gin_v0.raw_env(players=p, episode="hand"), 1)])
def test_batch_table_follows_the_aec_environment(variant, players, make, units):
    """Table 0 of a Batch and the AEC environment at game index 0, fed the same random moves: the same
    observation, mask and seat after every move and the same rewards, over a Basic hand, a Gin hand and three
    Shanghai rounds (a round's end, the next round of the game and its totals)."""
    b = Batch(variant, 4, players, seed=6)
    env = make(players)
    env.reset(seed=6)
    rng = np.random.default_rng(7)
    done = 0
    while done < units:
        actions = b.random_actions(rng)
        b.step(actions)
        env.step(int(actions[0]))
        assert np.array_equal(b.reward[0], [env.rewards[a] for a in env.possible_agents])
        if b.done[0]:
            done += 1
            if units == 1:   # an episode of one hand: the environment's is over
                break
        agent = env.agent_selection
        assert env.possible_agents.index(agent) == b.seat[0]
        seen = env.observe(agent)
        assert np.array_equal(b.observe()[0], seen["observation"])
        assert np.array_equal(b.mask[0], seen["action_mask"])
    assert done == units


@pytest.mark.parametrize("variant, players, tables, steps", [("basic", 2, 64, 300), ("shanghai", 4, 16, 600),
                                                              ("gin", 2, 64, 300)])
def test_batch_deterministic_whatever_the_threads(variant, players, tables, steps):
    def run(threads):
        b = Batch(variant, tables, players, seed=4, threads=threads)
        rng = np.random.default_rng(2)
        out = []
        for _ in range(steps):
            b.step(b.random_actions(rng))
            out.append((b.seat.copy(), b.reward.copy(), b.observe()))
        return out, b.episodes.sum()
    (a, episodes), (c, _) = run(1), run(2)
    assert episodes > 0
    assert all(all(np.array_equal(x, y) for x, y in zip(s, t)) for s, t in zip(a, c))


def test_batch_shanghai_round_rewards_and_totals():
    """A Shanghai table's episode is a round: ``reward="points"`` gives minus each seat's penalty
    points (rules 2.7), which the next round's observation shows in its scores block (the game's
    totals); ``reward="win"`` gives 1 to the round's winner and nothing after a round without one."""
    players = 4
    pts = Batch("shanghai", 32, players, seed=3)
    win = Batch("shanghai", 32, players, seed=3, reward="win")
    rng = np.random.default_rng(4)
    totals = np.zeros((32, players))
    seen = 0
    scores = slice(pts.obs_size - players, pts.obs_size)
    while seen < 40:
        actions = pts.random_actions(rng)
        pts.step(actions)
        win.step(actions)
        assert np.array_equal(pts.done, win.done)
        for i in np.flatnonzero(pts.done):
            totals[i] = 0 if pts.episodes[i] % 10 == 1 else totals[i]
            totals[i] -= pts.reward[i]
            winner = int(np.argmax(win.reward[i])) if win.reward[i].any() else -1
            assert sorted(win.reward[i]) == ([0.0] * players if winner < 0 else [0.0] * (players - 1) + [1.0])
            if winner >= 0:
                assert pts.reward[i, winner] >= 0 and (np.delete(pts.reward[i], winner) < 0).all()
            seen += 1
        if pts.done.any():
            obs = pts.observe()
            for i in np.flatnonzero(pts.done):
                p = pts.seat[i]
                assert np.array_equal(obs[i, scores], np.roll(totals[i], -p) * (pts.episodes[i] % 10 != 0))


@pytest.mark.parametrize("variant, players, bad", [("basic", 2, MV.STOP), ("shanghai", 4, SMV.STOP)])
def test_batch_refuses_an_illegal_action_and_plays_nothing(variant, players, bad):
    b = Batch(variant, 8, players, seed=0)
    before = b.mask.copy()
    state = [a.copy() for a in b.state(0)]
    actions = b.random_actions(np.random.default_rng(0))
    actions[3] = bad   # every table is to draw (Basic) or to take or leave the upcard (Shanghai)
    with pytest.raises(UsageError, match=r"actions\[3\]"):
        b.step(actions)
    with pytest.raises(UsageError, match="shape"):
        b.step(actions[:4])
    assert np.array_equal(b.mask, before)
    assert all(np.array_equal(x, y) for x, y in zip(state, b.state(0)))


# ------------------------------------------------------------------------------ observation decoded
# Every block of an observation read back into cards (layouts in the env cores' docstrings) and compared
# with the state: the hand, each table meld, the pile, the upcard, what is known of the others, and the
# counters. A table meld is also checked to be a meld of the rules (the plain references) and the melds
# together to be every card on the table (Basic: the table mask; Shanghai: the deck less the hands, the
# pile and the stock), so a card written in the wrong place cannot pass.

HIGH_ACES = 0x2000200020002000   # bit 13 of every lane: a Basic run's ace above the king


def _obs_blocks(core, players, obs):
    """The observation cut into its blocks ``{name: float32[rows, columns]}`` (``core.layout``)."""
    blocks, o = {}, 0
    for name, rows, cols in core.layout(players):
        blocks[name] = obs[o:o + rows * cols].reshape(rows, cols)
        o += rows * cols
    assert o == obs.size == core.obs_size(players)
    return blocks


def _slot_card(i):
    """Observation slot (13 * suit + rank, 52 the joker) -> card id (16 * suit + rank, 63 the joker)."""
    return JOKER if i == 52 else 16 * (i // 13) + i % 13


def _slot_counts(row):
    """A block of card slots as a Counter of card ids (whole counts)."""
    assert (row >= 0).all() and (row == np.round(row)).all()
    return Counter({_slot_card(int(i)): int(row[i]) for i in np.flatnonzero(row)})


def _slot_cards(row):
    """A Basic block of 52 card slots (each 0 or 1) as a set of card ids."""
    assert set(np.unique(row)) <= {0.0, 1.0}
    return set(_slot_counts(row))


def _mask_cards(mask):
    return {c for c in range(64) if int(mask) >> c & 1}


def _stored_meld_cards(ext):
    """A Basic table meld as the state stores it (a run in extended space: bit 13 of a lane is its high ace)."""
    return {c - 13 if c % 16 == 13 else c for c in _mask_cards(ext)}


def _one_hot(n, i):
    return [float(j == i) for j in range(n)]


def _check_basic_observation(obs, state, scores, p, seen):
    """Seat ``p``'s Basic observation ``obs`` decoded and compared with ``state`` (masks, ints, pile,
    t_mask) and ``scores`` (the game's, by seat)."""
    from rummysim.variants.basic import env_core as basic_core
    masks, ints, pile, t_mask = state
    players = int(ints[S.I_PLAYERS])
    ace_high = seen["ace_high"]
    b = _obs_blocks(basic_core, players, obs)
    seat = [(p + r) % players for r in range(players)]
    assert _slot_cards(b["hand"][0]) == _mask_cards(masks[S.M_HAND + p])
    n_table = int(ints[S.I_N_TABLE])
    melds = [_slot_cards(row) for row in b["table"]]
    for k in range(n_table):
        assert melds[k] == _stored_meld_cards(t_mask[k]), f"table meld {k}"
        assert ref.is_meld(melds[k], ace_high), f"table meld {k}: {sorted(melds[k])}"
    assert not any(melds[n_table:]), "a row past the table's melds"
    assert set().union(*melds) == _mask_cards(masks[S.M_TABLE])
    assert sum(map(len, melds)) == len(_mask_cards(masks[S.M_TABLE]))
    n_pile = int(ints[S.I_PILE_N])
    assert _slot_cards(b["pile"][0]) == {int(c) for c in pile[:n_pile]} == _mask_cards(masks[S.M_PILE])
    assert _slot_cards(b["upcard"][0]) == ({int(pile[n_pile - 1])} if n_pile else set())
    for r in range(1, players):
        known = _slot_cards(b["known"][r - 1])
        assert known == _mask_cards(masks[S.M_HELD + seat[r]])
        assert known <= _mask_cards(masks[S.M_HAND + seat[r]])
    assert list(b["counts"][0]) == [len(_mask_cards(masks[S.M_HAND + q])) for q in seat]
    assert b["stock"][0, 0] == ints[S.I_STOCK_N]
    assert list(b["phase"][0]) == _one_hot(4, int(ints[S.I_PHASE]))
    assert list(b["scores"][0]) == [float(scores[q]) for q in seat]
    seen["states"] += 1
    seen["high aces"] += any(int(t_mask[k]) & HIGH_ACES for k in range(n_table))


def _observed_meld(row, ace_high):
    """A Shanghai table row of the observation (present, then the meld's columns) as ``(owner, naturals,
    jokers)``: a set's naturals by suit, a run's from its positions less its jokers' (13 the high ace)."""
    assert row[0] == 1.0
    m = row[1:].astype(np.int64)
    assert (m == row[1:]).all()
    if m[SS.T_KIND] == SS.MELD_SET:
        naturals = [16 * s + int(m[SS.T_RANK]) for s in range(4) for _ in range(m[SS.T_SUIT_COUNT + s])]
    else:
        assert m[SS.T_KIND] == SS.MELD_RUN and 0 <= m[SS.T_LO] < m[SS.T_HI] <= (13 if ace_high else 12)
        naturals = [16 * int(m[SS.T_SUIT]) + pos % 13 for pos in range(m[SS.T_LO], m[SS.T_HI] + 1)
                    if not m[SS.T_JOKER_POS] >> pos & 1]
    assert len(naturals) == m[SS.T_NATURALS]
    return int(m[SS.T_OWNER]), naturals, int(m[SS.T_JOKERS])


def _check_shanghai_observation(obs, state, totals, p, seen):
    """Seat ``p``'s Shanghai observation ``obs`` decoded and compared with ``state`` (hands, ints, stock,
    pile, table, held, rules) and ``totals`` (the game's, by seat)."""
    from rummysim.variants.shanghai import env_core as shanghai_core
    hands, ints, stock, pile, table, held, rules = state
    players = hands.shape[0]
    ace_high = bool(rules[SS.SR_ACE_HIGH])
    b = _obs_blocks(shanghai_core, players, obs)
    seat = [(p + r) % players for r in range(players)]
    counts = lambda a: Counter({c: int(n) for c, n in enumerate(a) if n})   # noqa: E731
    assert _slot_counts(b["hand"][0]) == counts(hands[p])
    n_table, n_pile, n_stock = int(ints[SS.SI_N_TABLE]), int(ints[SS.SI_PILE_N]), int(ints[SS.SI_STOCK_N])
    on_table = Counter()
    for k in range(n_table):
        owner, naturals, jokers = _observed_meld(b["table"][k], ace_high)
        assert owner == (table[k, SS.T_OWNER] - p) % players, f"table meld {k}"
        assert SR.is_meld(naturals, jokers, "high_or_low" if ace_high else "low"), f"table meld {k}"
        on_table.update(naturals + [JOKER] * jokers)
        seen["high aces"] += table[k, SS.T_KIND] == SS.MELD_RUN and table[k, SS.T_HI] == 13
        seen["jokers"] += jokers
    assert not b["table"][n_table:].any(), "a row past the table's melds"
    deck = Counter({c: int(rules[SS.SR_DECKS]) for c in range(64) if c % 16 < 13}) + \
        Counter({JOKER: int(rules[SS.SR_JOKERS])})
    elsewhere = sum((counts(h) for h in hands), Counter()) + Counter(map(int, pile[:n_pile])) + \
        Counter(map(int, stock[:n_stock]))
    assert on_table == deck - elsewhere and not elsewhere - deck
    assert _slot_counts(b["pile"][0]) == Counter(map(int, pile[:n_pile]))
    assert _slot_counts(b["upcard"][0]) == (Counter([int(pile[n_pile - 1])]) if n_pile else Counter())
    for r in range(1, players):
        known = _slot_counts(b["known"][r - 1])
        assert known == counts(held[seat[r]])
        assert not known - counts(hands[seat[r]])
    assert list(b["counts"][0]) == [int(hands[q].sum()) for q in seat]
    assert b["stock"][0, 0] == n_stock
    assert list(b["phase"][0]) == _one_hot(5, int(ints[SS.I_PHASE]))
    assert b["round"][0, 0] == ints[SS.SI_ROUND]
    assert list(b["down"][0]) == [float(ints[SS.SI_DOWN_TURN_SEAT + q] > 0) for q in seat]
    assert list(b["buys"][0]) == [float(ints[SS.SI_BUYS_SEAT + q]) for q in seat] + [float(ints[SS.SI_BUYS])]
    assert list(b["scores"][0]) == [float(totals[q]) for q in seat]
    seen["states"] += 1
    seen["copies"] += any(n > 1 for c, n in on_table.items() if c != JOKER)


def _game_view(variant, episode):
    """The state arrays the observation check reads, of an environment's game (``games.Episode``)."""
    s = episode.state
    if variant == "basic":
        return (s.masks, s.ints, s.pile, s.t_mask), episode.game.scores
    return (s.hands, s.ints, s.stock, s.pile, s.table, s.held, s.rules), episode.game.scores


def _batch_view(variant, b, i):
    t = b.state(i)
    if variant == "basic":
        return (t[0], t[1], t[3], t[4]), t[11]
    return (t[0], t[1], t[2], t[3], t[4], t[8], b.rules.to_array(b.players)), t[9]


def _observations_decode(variant, rules, steps, seen):
    """Random play through the AEC environment (every seat's observation at every decision), ``single``
    (the agent's after each step) and ``Batch`` (every table's after each step), each observation decoded
    and checked."""
    check = _check_basic_observation if variant == "basic" else _check_shanghai_observation
    make = basic_v0.raw_env if variant == "basic" else shanghai_v0.raw_env
    players = 3 if variant == "basic" else 4
    env = make(players=players, rules=rules)
    env.reset(seed=3)

    def every_seat(env):
        state, scores = _game_view(variant, env.game)
        for agent in env.agents:
            check(env.observe(agent)["observation"], state, scores, env.possible_agents.index(agent), seen)

    random_walk(env, 5, steps, every_seat)

    one = single(variant=variant, opponents=["random"], players=2 if variant == "basic" else 3, rules=rules, seat=1)
    rng = np.random.default_rng(6)
    obs, _ = one.reset(seed=4)
    for _ in range(steps // 2):
        if one.game.over:
            obs, _ = one.reset()
            continue
        check(obs["observation"], *_game_view(variant, one.game), one.seat, seen)
        obs, _, _, _, _ = one.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

    b = Batch(variant, 16, 4 if variant == "basic" else 3, seed=8, rules=rules)
    for _ in range(steps // 8):
        out = b.observe()
        for i in range(b.n_tables):
            check(out[i], *_batch_view(variant, b, i), int(b.seat[i]), seen)
        b.step(b.random_actions(rng))


@pytest.mark.parametrize("rules", [{"ace": "low"}, {"ace": "high_or_low"}])
def test_basic_observation_decodes_to_the_state(rules):
    """Basic, aces low and high (docs/rules.md 1.7 ``ace``): every block of every observation along
    random play in ``basic_v0``, ``single`` and ``Batch`` decodes to the state's cards; with high aces
    Q-K-A runs were on the table (their ace was written one slot past the king: HQ HK HA showed as
    HQ HK SA)."""
    seen = Counter(ace_high=rules["ace"] == "high_or_low")
    _observations_decode("basic", rules, 600, seen)
    assert seen["states"] > 3000
    assert (seen["high aces"] > 0) == seen["ace_high"]


@pytest.mark.parametrize("rules, high_aces", [({}, None), ({"ace": "low", "jokers": 4}, False), ({"jokers": 0}, None),
                                              ({"decks": 1, "jokers": 4}, True), ({"decks": 3, "jokers": 2}, None)])
def test_shanghai_observation_decodes_to_the_state(rules, high_aces):
    """Shanghai under every option that changes which cards there are (docs/rules.md 2.8: ``ace``,
    ``jokers``, ``decks``): every block of every observation along random play in ``shanghai_v0``,
    ``single`` and ``Batch`` decodes to the state's cards, the table's melds to the cards on it. Runs
    ending in a high ace were on the table where ``high_aces`` says so (four jokers make runs common)."""
    seen = Counter()
    _observations_decode("shanghai", rules, 400, seen)
    assert seen["states"] > 2000
    if high_aces is not None:
        assert (seen["high aces"] > 0) == high_aces
    assert (seen["jokers"] > 0) == (rules.get("jokers") != 0)
    assert (seen["copies"] > 0) == (rules.get("decks") != 1)


@pytest.mark.parametrize("make", [lambda: basic_v0.raw_env(players=3),
                                  lambda: shanghai_v0.raw_env(players=3, rules={"decks": 1})])
def test_describe_hints_can_be_true(make):
    """Issue 23: along random play, every card a table meld "takes" in ``describe`` may still be laid off
    (some copy of it is not on the table: docs/rules.md 1.1, 2.1) and "took X this turn" names a card the
    seat holds (ruling 3.1)."""
    from rummysim.cards import card_id
    from rummysim.variants.shanghai.table import table_counts
    env = make()
    env.reset(seed=2)
    seen = Counter()

    def check(env):
        state, p = env.game.state, env.game.seat
        text = env.describe(env.agent_selection)
        if "masks" in state._fields:
            melded = Counter(_mask_cards(state.masks[S.M_TABLE]))
            copies, held = 1, _mask_cards(state.masks[S.M_HAND + p])
        else:
            counts = np.zeros(64, dtype=np.int64)
            table_counts(state.table, state.ints[SS.SI_N_TABLE], counts)
            melded = Counter({c: int(n) for c, n in enumerate(counts) if n and c != JOKER})
            copies, held = int(state.rules[SS.SR_DECKS]), {c for c in range(64) if state.hands[p, c]}
        for cards in re.findall(r"takes ([^;)\n]+)", text):
            for name in cards.split():
                assert melded[card_id(name, allow_joker=True)] < copies, (name, text)
                seen["takes"] += 1
        for name in re.findall(r"took (\S+) this turn", text):
            assert card_id(name, allow_joker=True) in held, text
            seen["took"] += 1

    random_walk(env, 3, 1500, check)
    assert seen["takes"] > 100 and seen["took"] > 10
