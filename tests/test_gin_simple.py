"""Gin Rummy's ``simple`` strategy against OpenSpiel's ``simple_gin_rummy_bot`` (the EAAI baseline),
decision by decision (issue 43).

OpenSpiel plays whole hands with its simple bot in both seats, from uniformly shuffled decks; the
hand is followed in rummysim's rules layer through the mirror of tests/gin_openspiel.py (OpenSpiel's
player 0 = rummysim's seat 0, the starter). At every decision of either seat, ``simple`` (the compiled
policy, ``policy.choose``, reading only its seat's view) chooses first, and its move must be the one
OpenSpiel's bot then makes, through the translation of actions. A move of OpenSpiel's bot that
rummysim's rules do not allow (docs/rules.md ruling 3.14: throwing back after a knock the card just
taken from the pile, or a knock only that discard makes possible) cannot be followed: it is counted,
by ruling, and the hand stops there. Rulings 3.15 and 3.16 never change this bot's decision: it
knocks by OpenSpiel's own count (3.15) and never lays off (3.16); so a difference of legal moves
there is no difference of decision. Any other difference fails the test, and so do the returns of
a finished hand (OpenSpiel's against the mirror's).

The fast subset plays 300 hands; the slow test 10,000 (run with ``-s`` to see the figures). Measured
(seed 4343, 10,000 hands, 237 s): 332,524 decisions compared, 0 mismatches; 8 hands stopped by ruling
3.14 (5 knock discards of the card just taken, 3 knocks only that discard allowed), the other 9,992
played to the end with OpenSpiel's returns (9,762 knocks, 221 gins, 9 wall passes).
"""

from __future__ import annotations

import collections
import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402

import gin_openspiel as G  # noqa: E402  (needs pyspiel)

from rummysim.strategy import load_strategy, params_matrix, seat_strategies  # noqa: E402
from rummysim.variants import variant_named  # noqa: E402
from rummysim.variants.gin import bots as B  # noqa: E402
from rummysim.variants.gin import moves as MV  # noqa: E402
from rummysim.variants.gin import policy as P  # noqa: E402
from rummysim.variants.gin import simple as SIMPLE  # noqa: E402
from rummysim.variants.gin import state as S  # noqa: E402
from rummysim.variants.gin.rules import GinRules  # noqa: E402

GIN = variant_named("gin")


class Agreement:
    """What a run saw: decisions compared (by phase), mismatches (with the first few described),
    hands, hands stopped by a ruling, and how the finished hands ended."""

    def __init__(self):
        self.decisions = collections.Counter()
        self.mismatches = 0
        self.first_mismatches: list[str] = []
        self.hands = 0
        self.stopped = collections.Counter()
        self.outcomes = collections.Counter()

    def __repr__(self):
        return (f"{self.hands:,} hands, {sum(self.decisions.values()):,} decisions compared "
                f"({dict(self.decisions)}), {self.mismatches} mismatches; stopped by a ruling "
                f"{dict(self.stopped)}; outcomes {dict(self.outcomes)}")


def _ruling(ours: G.Ours, a: int) -> str:
    """Why OpenSpiel's bot's move ``a`` (ours numbering, -1: none) is not legal here."""
    phase, taken = ours.phase, ours.taken()
    if phase == S.PH_WALL and a == MV.KNOCK:
        return "3.14 wall knock"
    if phase == S.PH_DISCARD and a == MV.KNOCK:
        return "3.14 knock"
    if phase == S.PH_KNOCK_DISCARD and 0 <= a < 52 and G.OS_ACTION[a] == taken:
        return "3.14 knock discard"
    if phase == S.PH_DISCARD and 0 <= a < 52 and G.OS_ACTION[a] == taken:
        return "3.14 discard"
    return ""


def play(hands: int, seed: int, gin_rules: GinRules = GinRules()) -> Agreement:
    game, ours = G.os_game(gin_rules), G.Ours(gin_rules)
    ours.rules[S.R_CHECK] = 0
    params = params_matrix(seat_strategies(["simple"], 2, GIN))
    scratch = P.new_scratch(ours.state.rules, ours.state.card_value)
    rng = random.Random(seed)
    tally = Agreement()
    n_deal = 2 * gin_rules.hand_size + 1
    for h in range(hands):
        deck = list(range(52))
        rng.shuffle(deck)
        s = game[1].clone()
        for c in deck[:n_deal]:
            s.apply_action(c)
        half = gin_rules.hand_size
        ours.set_position(0, deck[:half], deck[half:2 * half], deck[2 * half], list(reversed(deck[n_deal:])))
        bots = [pyspiel.make_simple_gin_rummy_bot(game[0].get_parameters(), q) for q in (0, 1)]
        stock = iter(deck[n_deal:])
        tally.hands += 1
        decision = 0
        while not s.is_terminal():
            player = s.current_player()
            assert player == ours.seat, f"seed {seed}, hand {h}: the player to act differs"
            mine = MV.forced_move(ours.state)
            if mine < 0:
                mine = int(P.choose(ours.state, params, player, scratch))
            phase = G.PHASE_NAMES[ours.phase]
            a = G.OUR_ACTION[bots[player].step(s)]
            if not MV.is_legal(ours.state, a):
                why = _ruling(ours, a)
                assert why, (f"seed {seed}, hand {h}, decision {decision} ({phase}): OpenSpiel's bot plays "
                             f"{G.OS_ACTION[a]}, illegal here and no ruling's; history {list(s.history())}")
                tally.stopped[why] += 1
                break
            tally.decisions[phase] += 1
            if mine != a:
                tally.mismatches += 1
                if len(tally.first_mismatches) < 5:
                    tally.first_mismatches.append(
                        f"seed {seed}, hand {h}, decision {decision} ({phase}, seat {player}): simple {mine} "
                        f"(OpenSpiel {G.OS_ACTION[mine] if mine >= 0 else mine}), OpenSpiel's bot "
                        f"{G.OS_ACTION[a]}; hand {G.card_names(ours.hand(player))}, upcard "
                        f"{G.card_names([ours.upcard()])}; history {list(s.history())}")
            s.apply_action(G.OS_ACTION[a])
            if s.is_chance_node():
                s.apply_action(next(stock))     # the mirror's stock top, as OpenSpiel's chance node
            MV.apply(ours.state, a)
            decision += 1
        else:
            assert [float(x) for x in s.returns()] == ours.returns(), f"seed {seed}, hand {h}: returns differ"
            tally.outcomes[ours.outcome()] += 1
    return tally


def _check(tally: Agreement, hands: int) -> None:
    print(tally)
    assert tally.mismatches == 0, "\n".join(tally.first_mismatches)
    assert tally.hands == hands
    assert sum(tally.stopped.values()) < hands / 50      # ruling 3.14 stops are rare


def test_simple_strategy_is_shipped_and_its_own_kind():
    s = load_strategy("simple", GIN)
    assert s.params[B.P_BOT] == B.BOT_SIMPLE and s.description


def test_best_group_is_openspiel_s_first_best_meld_group():
    """On random hands of 10 and 11 cards, ``simple.best_group`` is OpenSpiel's ``BestMeldGroup``
    (the very group, not only its value) and ``os_deadwood`` its ``MinDeadwood``."""
    ours = G.Ours(GinRules())
    rng = random.Random(5)
    for k in range(3000):
        n = 10 + k % 2
        cards = rng.sample(range(52), n) if k % 3 else _meldy(rng, n)
        mask = G.id_mask(cards)
        group = SIMPLE.best_group(ours.state, mask)[0]
        theirs = [c for meld in G.U.best_meld_group(sorted(cards)) for c in meld]
        assert G.os_cards(group) == sorted(theirs), (G.card_names(cards), G.os_cards(group), theirs)
        assert SIMPLE.os_deadwood(ours.state, mask) == G.U.min_deadwood(sorted(cards))


def _meldy(rng, n):
    """A hand rich in overlapping melds: a few ranks and a few suits."""
    ranks = rng.sample(range(13), 5)
    pool = [13 * s + r for s in range(4) for r in ranks]
    return rng.sample(pool, n)


def test_simple_decides_as_openspiel_s_bot():
    _check(play(300, seed=43), 300)


@pytest.mark.slow
def test_simple_decides_as_openspiel_s_bot_10000_hands():
    _check(play(10_000, seed=4343), 10_000)
