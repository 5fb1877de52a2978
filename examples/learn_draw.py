"""A tabular agent learns Basic Rummy's draw decision against ``greedy`` through ``rummysim.env.single``.

At each draw (docs/rules.md 1.3.1) the agent takes the upcard or draws from the stock; every other
decision of its seat is played by ``greedy`` (``game.bot_move``), so only the draw is learned. What it
sees of the draw is three numbers read off its observation: how many cards of the upcard's rank it holds
(0, 1, 2+), how many cards of its suit within two ranks (0, 1, 2+) and whether its hand is small
(fewer than 6 cards): 18 situations x 2 actions. It starts knowing nothing (both actions worth 0, ties
broken at random, so at first it takes the pile half the time), plays two-player hands
(``episode="hand"``, ``reward="win"``: 1 for winning the hand), and moves each value it used toward the
hand's result (every-visit Monte Carlo: each value is the mean result of the hands it was used in;
10% of the draws explore at random).

    python examples/learn_draw.py                 # 30,000 hands (a few minutes), writes learn_draw.png
    python examples/learn_draw.py --hands 6000    # shorter

The plot is the agent's share of the hands won in each block of training hands with its 95% exact
interval, against greedy playing itself (one half, the line) and the share the agent reached.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from rummysim.base.intervals import proportion_ci
from rummysim.env import single
from rummysim.variants.basic.env_core import layout
from rummysim.variants.basic.moves import DRAW_STOCK, TAKE_DISCARD

ACTIONS = (DRAW_STOCK, TAKE_DISCARD)


def blocks(players: int = 2) -> dict[str, slice]:
    """Where each block of the observation lies (``rummysim.variants.basic.env_core.layout``)."""
    out, o = {}, 0
    for name, rows, cols in layout(players):
        out[name] = slice(o, o + rows * cols)
        o += rows * cols
    return out


B = blocks()


def situation(obs: np.ndarray) -> int:
    """The draw situation (0..17) from the agent's observation."""
    hand = obs[B["hand"]].reshape(4, 13)
    up = int(np.argmax(obs[B["upcard"]]))
    suit, rank = divmod(up, 13)
    same_rank = int(hand[:, rank].sum())
    near = int(sum(hand[suit, r] for r in range(max(0, rank - 2), min(13, rank + 3)) if r != rank))
    small = int(hand.sum() < 6)
    return (min(same_rank, 2) * 3 + min(near, 2)) * 2 + small


def train(hands: int, seed: int = 1, block: int = 2000, explore: float = 0.1):
    """Train for ``hands`` hands; returns ``(q, wins per block, hands per block)``."""
    env = single(variant="basic", opponents=["greedy"], episode="hand", reward="win")
    game = env.unwrapped.game
    rng = np.random.default_rng(seed)
    q = np.zeros((18, 2))
    n = np.zeros((18, 2))
    wins, played = [], []
    obs, _ = env.reset(seed=seed)
    won = 0
    for h in range(hands):
        if h:
            obs, _ = env.reset()
        visits, done, reward = [], game.over, 0.0   # over already: an opponent went out on its first turn
        while not done:
            mask = obs["action_mask"]
            if mask[DRAW_STOCK] and mask[TAKE_DISCARD]:
                s = situation(obs["observation"])
                best = np.flatnonzero(q[s] == q[s].max())
                a = int(rng.integers(2)) if rng.random() < explore else int(rng.choice(best))
                visits.append((s, a))
                move = ACTIONS[a]
            else:
                move = game.bot_move(env.params)   # greedy's move for the agent's seat
            obs, reward, done, _, _ = env.step(move)
        for s, a in visits:
            n[s, a] += 1
            q[s, a] += (reward - q[s, a]) / n[s, a]
        won += reward == 1.0
        if (h + 1) % block == 0:
            wins.append(won)
            played.append(block)
            won = 0
    return q, np.array(wins), np.array(played)


def plot(wins: np.ndarray, played: np.ndarray, block: int, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    share = wins / played
    lo, hi = proportion_ci(wins, played)
    x = (np.arange(len(wins)) + 1) * block
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(x, lo, hi, alpha=0.25, label="95% exact (Clopper-Pearson) interval")
    ax.plot(x, share, marker="o", label="agent's share of the hands won")
    ax.axhline(0.5, color="grey", linestyle="--", label="one half (greedy against itself)")
    ax.set_xlabel("training hands")
    ax.set_ylabel(f"hands won, per block of {block:,}")
    ax.set_title("A tabular draw decision learned against greedy (Basic Rummy, 2 players)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(hands: int = 30_000, seed: int = 1, block: int = 2000, out: Path | None = None):
    q, wins, played = train(hands, seed, block)
    lo, hi = proportion_ci(wins, played)
    for k, (w, n, a, b) in enumerate(zip(wins, played, lo, hi)):
        print(f"hands {k * block + 1:>6,}-{(k + 1) * block:>6,}: won {w / n:.3f} [{a:.3f}, {b:.3f}]")
    takes = int((q[:, 1] > q[:, 0]).sum())
    print(f"learned: take the upcard in {takes} of 18 situations")
    if out is not None:
        plot(wins, played, block, out)
        print(f"plot: {out}")
    return q, wins, played


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--block", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("learn_draw.png"))
    a = parser.parse_args()
    main(a.hands, a.seed, a.block, a.out)
