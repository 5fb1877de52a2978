"""rummysim's Gin Rummy bots against OpenSpiel's own (``simple_gin_rummy_bot``), played in OpenSpiel's
engine (``pip install open_spiel``).

Each deal (a shuffled deck: the starter's 10 cards, the dealer's 10, the upcard, then the stock from
the top) is played twice, the rummysim bot the starter once and the dealer once, so the luck of the
cards cancels within a pair. OpenSpiel plays the hand: its legal moves, its scoring. rummysim's seat
follows it in a mirror (``tests/gin_openspiel.py``: the translation of cards and actions, OpenSpiel's
player 0 the starter), where our bot chooses with what its seat may see; the move goes back through
the translation. Where OpenSpiel does not offer what our rules do (docs/rules.md rulings 3.14-3.16),
our bot's move is replaced: a knock OpenSpiel refuses (3.15) by the bot's own discard, a lay-off
past two cards on a run end (3.16) by the next lay-off, else a pass; each replacement is counted. A
hand in which OpenSpiel's bot throws back the card it took from the pile (allowed there, not here:
3.14) cannot be followed by the mirror; it is counted and its pair is left out.

Figures, for the rummysim seat, with 95% intervals over the pairs of hands (``rummysim.base.intervals``):
its share of the hands won (a hand with no winner counts a half) and its points a hand (OpenSpiel's
returns: the winner's score, the loser's negative).

    python benchmarks/gin_openspiel_bot.py --pairs 5000 --strategy greedy
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

import numpy as np
import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from gin_openspiel import OS_ACTION, OUR_ACTION, Ours, os_game  # noqa: E402  (the tests' translation)

from rummysim.base.intervals import mean_ci, share_ci  # noqa: E402
from rummysim.strategy import params_matrix, seat_strategies  # noqa: E402
from rummysim.variants import variant_named  # noqa: E402
from rummysim.variants.gin import bots as B  # noqa: E402
from rummysim.variants.gin import moves as MV  # noqa: E402
from rummysim.variants.gin import policy as P  # noqa: E402
from rummysim.variants.gin import state as S  # noqa: E402
from rummysim.variants.gin.rules import GinRules  # noqa: E402

GIN = variant_named("gin")


class Abandoned(Exception):
    """OpenSpiel's bot made a move rummysim's rules do not allow (ruling 3.14)."""


def our_move(ours: Ours, params, seat: int, scratch, os_legal: set, tally: collections.Counter) -> int:
    """Our bot's move at seat ``seat``, replaced by the nearest move OpenSpiel offers (module docstring)."""
    state = ours.state
    move = MV.forced_move(state)
    if move < 0:
        move = int(P.choose(state, params, seat, scratch))
    if OS_ACTION[move] in os_legal:
        return move
    legal = np.zeros(MV.MAX_LEGAL, dtype=np.int64)
    n = MV.legal_moves(state, legal)
    if move == MV.KNOCK:        # 3.15: OpenSpiel's shortcut counts more deadwood; the bot discards instead
        tally["knock refused by OpenSpiel (3.15)"] += 1
        if state.ints[S.I_PHASE] == S.PH_WALL:
            return MV.PASS
        cards = np.array([a for a in legal[:n] if a < 52], dtype=np.int64)
        return int(B.discard(state, params, seat, state.masks[S.M_HAND + seat], cards, len(cards), False))
    if move < 52 and state.ints[S.I_PHASE] == S.PH_LAYOFF:   # 3.16: past two cards on a run end
        tally["lay-off refused by OpenSpiel (3.16)"] += 1
        others = [a for a in legal[:n] if a < 52 and a != move and OS_ACTION[a] in os_legal]
        return others[0] if others else MV.PASS
    raise AssertionError(f"our move {move} is not OpenSpiel's ({sorted(os_legal)})")


def play_hand(game, ours: Ours, params, scratch, deck: list[int], our_player: int,
              tally: collections.Counter) -> float:
    """One hand dealt from ``deck`` (OpenSpiel cards in chance order), rummysim's bot OpenSpiel's
    player ``our_player``; returns our points (OpenSpiel's return for that player)."""
    s = game[1].clone()
    for c in deck[:21]:
        s.apply_action(c)
    ours.set_position(0, deck[:10], deck[10:20], deck[20], list(reversed(deck[21:])))
    theirs = pyspiel.make_simple_gin_rummy_bot(game[0].get_parameters(), 1 - our_player)
    theirs.restart()
    stock = iter(deck[21:])
    while not s.is_terminal():
        player = s.current_player()
        if player == our_player:
            move = our_move(ours, params, player, scratch, set(s.legal_actions()), tally)
        else:
            move = OUR_ACTION[theirs.step(s)]
            if not MV.is_legal(ours.state, move):
                raise Abandoned
        s.apply_action(OS_ACTION[move])
        if s.is_chance_node():
            s.apply_action(next(stock))     # the stock's top, as the mirror's
        MV.apply(ours.state, move)
    returns = s.returns()
    if [float(x) for x in returns] != ours.returns():
        raise AssertionError(f"OpenSpiel's returns {returns} are not the mirror's {ours.returns()}")
    return float(returns[our_player])


def match(strategy: str, pairs: int, seed: int) -> dict:
    """``pairs`` deals, each played with our bot as the starter and as the dealer."""
    game, ours = os_game(GinRules()), Ours(GinRules())
    ours.rules[S.R_CHECK] = 0
    params = params_matrix(seat_strategies([strategy], 2, GIN))
    scratch = P.new_scratch(ours.state.rules, ours.state.card_value)
    scratch[1][:, 0] = (seed, seed + 1)     # the bots' streams (a rule-based bot draws none)
    rng = random.Random(seed)
    tally: collections.Counter = collections.Counter()
    points, shares = [], []
    for _ in range(pairs):
        deck = list(range(52))
        rng.shuffle(deck)
        try:
            pts = [play_hand(game, ours, params, scratch, deck, player, tally) for player in (0, 1)]
        except Abandoned:
            tally["pairs left out: OpenSpiel's bot threw back the card it took (3.14)"] += 1
            continue
        points.append(sum(pts) / 2)
        shares.append(sum(0.5 if p == 0 else float(p > 0) for p in pts) / 2)
        for p in pts:
            tally["hands won" if p > 0 else "hands lost" if p < 0 else "hands with no points"] += 1
    return {"strategy": strategy, "pairs": len(shares), "share": share_ci(np.array(shares)),
            "points": mean_ci(np.array(points)), "tally": dict(tally)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5000, help="deals, each played twice (default 5,000)")
    parser.add_argument("--strategy", default="greedy", help="rummysim's Gin strategy (name or file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = match(args.strategy, args.pairs, args.seed)
    share, pts = r["share"], r["points"]
    print(f"{r['strategy']} against OpenSpiel's simple_gin_rummy_bot, {r['pairs']:,} pairs of hands "
          f"(seed {args.seed}):")
    print(f"  share of hands won {share[0]:.3f} [{share[1]:.3f}, {share[2]:.3f}]; "
          f"points a hand {pts[0]:+.2f} [{pts[1]:+.2f}, {pts[2]:+.2f}]")
    for k, v in sorted(r["tally"].items()):
        print(f"  {k}: {v:,}")


if __name__ == "__main__":
    main()
