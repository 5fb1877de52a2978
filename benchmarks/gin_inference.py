"""What the table says of the opponent's hidden cards in Gin Rummy: the weights of ``search.deals =
"inferred"`` (``rummysim.variants.gin.search.INFER_WEIGHT``), measured.

Games of STRATEGY against itself (games to 100, seed 12345, the run's own deals); at every draw
decision, for the seat to act, every card it has not seen (not in its hand, the pile, the table, nor
among the cards the opponent took and holds) is put in one of eight cells by whether it is near
(``bots.near_cards``: a pair or a near run with) a card the opponent threw this hand (``M_THREW``),
an upcard it passed on (``M_PASSED``), a card it took and holds (``M_HELD``); per cell, the share of
those cards that are in the opponent's hand. A cell's weight is its share over the share of the cell
near none of the three.

    python benchmarks/gin_inference.py [--strategy expert] [--games 300]
"""

from __future__ import annotations

import argparse
import collections

import numpy as np

from rummysim.cards import cards_of
from rummysim.engine.melds import FULL_DECK
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants import variant_named
from rummysim.variants.gin import bots as B
from rummysim.variants.gin.game import Game
from rummysim.variants.gin.state import I_PHASE, M_HAND, M_HELD, M_PASSED, M_PILE, M_TABLE, M_THREW, PH_DRAW


def cell_counts(strategy: str, games: int, seed: int = 12345) -> dict[int, list[int]]:
    """Per cell (4 near a throw + 2 near a pass + 1 near a held card): [in the opponent's hand, unseen]."""
    gin = variant_named("gin")
    params = params_matrix(seat_strategies([strategy], 2, gin))
    game = Game(2, gin.rules().to_array(2))
    counts = collections.defaultdict(lambda: [0, 0])
    for g in range(games):
        game.reset(seed, g)
        while True:
            while not game.unit_over:
                masks, p = game.state.masks, game.seat
                if int(game.state.ints[I_PHASE]) == PH_DRAW:
                    q = 1 - p
                    seen = int(masks[M_HAND + p] | masks[M_TABLE] | masks[M_PILE] | masks[M_HELD + q])
                    near = [int(B.near_cards(masks[m + q])) for m in (M_THREW, M_PASSED, M_HELD)]
                    theirs = int(masks[M_HAND + q])
                    for c in cards_of(int(FULL_DECK) & ~seen):
                        b = 1 << c
                        cell = 4 * bool(near[0] & b) + 2 * bool(near[1] & b) + bool(near[2] & b)
                        counts[cell][0] += bool(theirs & b)
                        counts[cell][1] += 1
                game.play(game.bot_move(params))
            game.finish()
            if game.over:
                break
            game.next_unit()
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="expert")
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    counts = cell_counts(args.strategy, args.games)
    base = counts[0][0] / counts[0][1]
    print(f"{args.strategy} against itself, {args.games} games: share of unseen cards in the opponent's hand")
    print("| near a throw | near a pass | near a held card | in hand / unseen | share | weight |")
    print("|---|---|---|---|---|---|")
    for cell in range(8):
        a, n = counts[cell]
        print(f"| {'yes' if cell & 4 else 'no'} | {'yes' if cell & 2 else 'no'} | {'yes' if cell & 1 else 'no'} "
              f"| {a:,} / {n:,} | {a / n:.4f} | {a / n / base:.2f} |")
    print("INFER_WEIGHT =", np.round([counts[c][0] / counts[c][1] / base for c in range(8)], 2).tolist())


if __name__ == "__main__":
    main()
