"""Search the Basic Rummy bot family for a strong setting against greedy (how expert.toml was chosen).

    python tools/tune_expert.py --hands 20000 --seed 1

Every candidate plays a duplicate match against greedy on the same deals
(seed --seed); the best few are printed with their intervals. The winner must
then be re-confirmed on a fresh seed with `rummysim compare`: the best of many
candidates on one seed is lucky on those deals, so it is called better only
after it wins on fresh ones.
"""

import argparse
import itertools

from rummysim.analysis.compare import play_pair, summarise_pair
from rummysim.variants.basic.rules import BasicRules
from rummysim.run import warm_up
from rummysim.strategy import load_strategy, with_override

GRID = {
    "draw.mode": ["meld", "gain"],
    "draw.min_gain": ["1", "4"],
    "meld.mode": ["at_once", "hold_for_rummy"],
    "discard.mode": ["highest", "least_useful"],
    "discard.avoid_feeding": ["0", "15", "30"],
}
HOLD = {"meld.abandon_opponent_cards": ["1", "2", "3"], "meld.abandon_turn": ["8", "10", "14", "20"]}


def candidates():
    base = load_strategy("greedy")
    for combo in itertools.product(*GRID.values()):
        settings = dict(zip(GRID, combo))
        if settings["draw.mode"] == "meld" and settings["draw.min_gain"] != "1":
            continue
        holds = [{}] if settings["meld.mode"] == "at_once" else [dict(zip(HOLD, c)) for c in itertools.product(*HOLD.values())]
        for h in holds:
            s = base
            for k, v in {**settings, **h}.items():
                s = with_override(s, k, v)
            yield {**settings, **h}, s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    warm_up(args.players)
    greedy = load_strategy("greedy")
    rows = []
    for settings, s in candidates():
        res = summarise_pair(play_pair(s, greedy, args.players, args.seed, BasicRules(), None, args.hands), args.players)
        rows.append((res["win_share"]["estimate"], res["win_share"]["ci95"], res["points_per_hand_diff"]["estimate"], settings))
    rows.sort(key=lambda r: -r[0])
    for share, ci, pph, settings in rows[:12]:
        print(f"{share:.4f} [{ci[0]:.4f}, {ci[1]:.4f}] pph {pph:+.2f} {settings}")


if __name__ == "__main__":
    main()
