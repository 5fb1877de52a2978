"""Basic Rummy in plain Python: the yardstick for what Numba buys.

Two players, the engine's default rules (docs/rules.md section 1: 10 cards each,
aces low, one ``shuffle_all`` reshuffle, rummy pays double, 1,000-turn cap),
both seats played by the *greedy* bot (``rummysim/strategies/greedy.toml``):

* draw: take the upcard only when it goes into a meld with the hand;
* meld: lay down the least-deadwood melds at once, lay off at once;
* discard: the highest-value card in no meld and no partial meld, ties to
  the highest card id.

Written the way a typical pure-Python engine is: cards are ints, hands are
sets, melds are frozensets, the table is a list; no numba, no numpy. It
follows the Numba kernels decision by decision (``rummysim.variants.basic.kernel``,
``core.bots``, ``core.melds``) and draws the same SplitMix64 streams
(``core.rng``), so hand ``g`` of ``measure``/``agreement`` is game ``g``,
hand 0 of ``rummysim.run.simulate(hands=N, players=2, seed=S)``.

    python benchmarks/pure_python.py [hands] [seed]    # hands/s on one core
    python benchmarks/pure_python.py --agreement [hands] [seed]
"""

from __future__ import annotations

import sys
import time

# ---------------------------------------------------------------- random streams
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
KIND_DEAL, KIND_BOT, KIND_RESHUFFLE = 1, 2, 3


def mix64(z: int) -> int:
    """SplitMix64 finaliser on a Python int kept to 64 bits."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, game: int, hand: int, kind: int, index: int) -> int:
    h = mix64((seed + GOLDEN) & MASK64)
    for salt, x in enumerate((game, hand, kind, index), start=1):
        h = mix64(h ^ ((x * GOLDEN + salt) & MASK64))
    return h


class Stream:
    """A SplitMix64 stream (the engine keeps its state in a uint64[1])."""

    def __init__(self, key: int):
        self.state = key

    def below(self, n: int) -> int:
        """Uniform int in [0, n), Lemire's rejection as in ``core.rng.below``."""
        while True:
            self.state = (self.state + GOLDEN) & MASK64
            m = (mix64(self.state) >> 32) * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= (0x100000000 - n) % n:
                return m >> 32

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------- cards and melds
# card id = 16 * suit + rank; rank 0 is the ace, 12 the king
DECK = [16 * s + r for s in range(4) for r in range(13)]
ALL_CARDS = frozenset(DECK)


def value(card: int) -> int:
    return min((card & 15) + 1, 10)


def hand_value(cards) -> int:
    return sum(value(c) for c in cards)


def list_melds(hand) -> list[frozenset]:
    """Every meld inside ``hand``, in the engine's order: sets by rank (a 4-set, then its
    3-subsets leaving out the lowest card first), then runs by first card and length."""
    cards = sorted(hand)
    by_rank = [[] for _ in range(13)]
    for c in cards:
        by_rank[c & 15].append(c)
    melds = []
    for same in by_rank:
        if len(same) >= 3:
            melds.append(frozenset(same))
            if len(same) == 4:
                melds.extend(frozenset(same) - {c} for c in same)
    for c in cards:
        if c & 15 <= 10 and c + 1 in hand and c + 2 in hand:
            end = c + 3
            melds.append(frozenset(range(c, end)))
            while end & 15 <= 12 and end in hand:
                end += 1
                melds.append(frozenset(range(c, end)))
    return melds


def has_meld(cards) -> bool:
    """Do some three of ``cards`` form a set or a run?"""
    per_rank = [0] * 13
    for c in cards:
        per_rank[c & 15] += 1
        if per_rank[c & 15] == 3 or (c & 15 <= 10 and c + 1 in cards and c + 2 in cards):
            return True
    return False


def melded_cards(hand) -> set:
    """The cards of ``hand`` in at least one of its melds."""
    out = set()
    for m in list_melds(hand):
        out |= m
    return out


def partial_cards(hand) -> set:
    """Cards in a partial meld: a pair, or two of a suit at most two ranks apart."""
    per_rank = [0] * 13
    for c in hand:
        per_rank[c & 15] += 1
    return {c for c in hand
            if per_rank[c & 15] >= 2
            or any(0 <= (c & 15) + d <= 12 and c + d in hand for d in (-2, -1, 1, 2))}


def best_split(hand) -> tuple[int, list[frozenset]]:
    """Least-deadwood split of ``hand`` into disjoint melds: ``(deadwood, melds)``.

    Depth-first on the lowest card left: it goes into one of the melds holding it
    (the last listed first) or it is deadwood. Among equal splits the first one
    found wins, exactly as ``core.melds.best_partition`` breaks ties; the melds
    come back in list order.
    """
    melds = list_melds(hand)
    if not melds:
        return hand_value(hand), []
    best = [1 << 30, []]

    def search(rest: frozenset, deadwood: int, chosen: list[int]) -> None:
        if deadwood >= best[0]:
            return
        if not rest:
            best[0], best[1] = deadwood, chosen
            return
        low = min(rest)
        for i in range(len(melds) - 1, -1, -1):
            if low in melds[i] and melds[i] <= rest:
                search(rest - melds[i], deadwood, chosen + [i])
        search(rest - {low}, deadwood + value(low), chosen)

    search(frozenset(hand), 0, [])
    return best[0], [melds[i] for i in sorted(best[1])]


class TableMeld:
    """A meld on the table: a set (same rank) or a run (one suit, aces low)."""

    def __init__(self, cards):
        self.cards = set(cards)
        self.is_set = len({c & 15 for c in cards}) == 1

    def layoffs(self) -> set:
        """Cards that would extend this meld."""
        if self.is_set:
            if len(self.cards) >= 4:
                return set()
            rank = min(self.cards) & 15
            return {16 * s + rank for s in range(4)} - self.cards
        low, high = min(self.cards), max(self.cards)
        return {c for c in (low - 1, high + 1) if c >> 4 == low >> 4 and 0 <= (c & 15) <= 12}


# ---------------------------------------------------------------- the greedy bot
def take_upcard(hand: set, upcard: int) -> bool:
    """Draw mode "meld": take the upcard only when it goes into a meld with the hand."""
    return upcard in melded_cards(hand | {upcard})


def legal_after(rest: set, drawn) -> bool:
    """A meld or lay-off may empty the hand, but never leave just the card drawn from the pile."""
    return not rest or rest != {drawn}


def next_play(hand: set, table: list[TableMeld], drawn):
    """The greedy bot's next meld (``("meld", cards)``), lay-off (``("layoff", card, meld)``) or None."""
    melded = set()
    _, melds = best_split(hand)
    if melds:
        for m in melds:
            melded |= m
        for m in melds:
            if legal_after(hand - m, drawn):
                return "meld", m
        # no meld of the best split may go down (it would strand the pile card): the most valuable legal one
        best, best_value = None, 0
        for m in list_melds(hand):
            if hand_value(m) > best_value and legal_after(hand - m, drawn):
                best, best_value = m, hand_value(m)
        if best is not None:
            return "meld", best
    layable = set()
    for t in table:
        layable |= t.layoffs()
    for c in sorted((hand & layable) - melded):
        if legal_after(hand - {c}, drawn):
            return "layoff", c, next(t for t in table if c in t.layoffs())
    return None


def choose_discard(hand: set, drawn) -> int:
    """The highest-value card in no meld and no partial meld; ties to the highest card id."""
    in_meld = melded_cards(hand)
    partial = partial_cards(hand)

    def score(c):
        level = 0 if c in in_meld else 1000 if c in partial else 2000
        return level + value(c), c

    return max((c for c in hand if c != drawn), key=score)


# ---------------------------------------------------------------- the hand
OUTCOMES = ("win", "stalemate_stock", "stalemate_blocked", "turn_limit")


def blocked(table: list[TableMeld], hands: list[set]) -> bool:
    """Rules 1.5: no reachable card can be laid off, and nobody can ever meld or finish."""
    on_table = set()
    layable = set()
    for t in table:
        on_table |= t.cards
        layable |= t.layoffs()
    reachable = ALL_CARDS - on_table
    if reachable & layable:
        return False
    if any(len(h) > 1 for h in hands):
        return not has_meld(reachable)
    return True


def play_hand(seed: int, game: int, hand_no: int = 0, players: int = 2,
              reshuffles: int = 1, rummy_multiplier: int = 2, turn_limit: int = 1000) -> dict:
    """Deal and play one hand of greedy against greedy; the result as a dict."""
    deck = list(DECK)
    Stream(stream_key(seed, game, hand_no, KIND_DEAL, 0)).shuffle(deck)
    dealer = (game + hand_no + players - 1) % players
    hands = [set() for _ in range(players)]
    n = (10 if players == 2 else 7) * players  # rules 1.1
    for i in range(n):
        hands[(dealer + 1 + i) % players].add(deck[i])
    pile = [deck[n]]                        # discard pile, top last
    stock = deck[:n:-1]                     # top last: deck[n + 1] is drawn first
    table: list[TableMeld] = []
    has_played = [False] * players          # melded or laid off in an earlier turn (rummy)
    done_reshuffles = 0
    turns = 0
    outcome, winner, points = "turn_limit", -1, 0
    p = (dealer + 1) % players
    while True:
        hand = hands[p]
        # 1. draw
        drawn = None
        if pile and (not stock or take_upcard(hand, pile[-1])):
            drawn = pile.pop()
            hand.add(drawn)
        else:
            hand.add(stock.pop())
        # 2-3. meld and lay off
        played = 0
        while hand:
            play = next_play(hand, table, drawn)
            if play is None:
                break
            if play[0] == "meld":
                table.append(TableMeld(play[1]))
                hand -= play[1]
            else:
                _, card, meld = play
                meld.cards.add(card)
                hand.discard(card)
            played += 1
        # 4. discard
        if hand:
            card = choose_discard(hand, drawn)
            hand.discard(card)
            pile.append(card)
        turns += 1
        if not hand:  # gone out
            outcome, winner = "win", p
            points = sum(hand_value(h) for h in hands)
            if not has_played[p]:
                points *= rummy_multiplier
            break
        if played:
            has_played[p] = True
        if not stock:  # rules 1.4
            if done_reshuffles >= reshuffles:
                outcome = "stalemate_stock"
                break
            stock, pile = pile, []
            Stream(stream_key(seed, game, hand_no, KIND_RESHUFFLE, done_reshuffles)).shuffle(stock)
            done_reshuffles += 1
        if blocked(table, hands):
            outcome = "stalemate_blocked"
            break
        if turns >= turn_limit:
            break
        p = (p + 1) % players
    return {"outcome": outcome, "winner": winner, "points": points, "turns": turns,
            "reshuffles": done_reshuffles, "going_rummy": outcome == "win" and not has_played[winner]}


# ---------------------------------------------------------------- measurements
def measure(hands: int = 2000, seed: int = 1) -> dict:
    """Hands/s of this engine on one core: hands 0..hands-1 (game g, hand 0) of ``seed``."""
    start = time.perf_counter()
    for g in range(hands):
        play_hand(seed, g)
    seconds = time.perf_counter() - start
    return {"hands": hands, "seconds": seconds, "hands_per_second": hands / seconds}


COMPARED = ("outcome", "winner", "points", "turns", "reshuffles", "going_rummy")


def agreement(hands: int = 2000, seed: int = 1, verbose: bool = False) -> float:
    """Share of hands where this engine and ``rummysim.run.simulate`` (2 greedy players, same
    seed) agree on outcome, winner, points, turns, reshuffles and going rummy."""
    from rummysim.run import simulate

    engine = simulate(hands=hands, players=2, strategies=["greedy"], seed=seed).hands
    engine = engine.sort_values("game").reset_index(drop=True)
    same = 0
    for g in range(hands):
        ours = play_hand(seed, g)
        row = engine.iloc[g]
        theirs = {k: row[k] for k in COMPARED}
        theirs["outcome"] = str(theirs["outcome"])
        if all(ours[k] == theirs[k] for k in COMPARED):
            same += 1
        elif verbose:
            print(f"game {g}: pure {ours} engine {theirs}")
    return same / hands


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n, s = (int(args[0]) if args else 2000), (int(args[1]) if len(args) > 1 else 1)
    if "--agreement" in sys.argv:
        print({"hands": n, "seed": s, "agreement": agreement(n, s, verbose=True)})
    else:
        print(measure(n, s))
