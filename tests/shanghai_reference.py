"""A plain, slow, exact reference for Shanghai Rummy contracts (docs/rules.md 2.2, 2.3, 2.7).

Nothing here is fast or clever on purpose: no numba, no bit tricks. The
future Numba contract solver is tested against these functions.

Cards
-----
A natural card id is ``16 * suit + rank`` exactly as in ``rummysim.cards``:
suits C, D, H, S are 0..3, rank 0 is the ace, 1..9 are 2..10, 10/11/12 are
J/Q/K. A Shanghai hand is a *multiset* of natural ids (several decks, so a
card may be held two or three times) plus a number of jokers. In text a joker
is ``JK``: ``parse_hand("H7 H7 S7 JK") == ([39, 39, 55], 1)``.

Run positions
-------------
A run lives on the positions of one suit: 0 is the ace below the 2, 1..12
are 2..K (the rank), and, when the ``ace`` option is ``"high_or_low"``, 13 is
the ace above the king. A run is a block of consecutive positions, each
holding one card (a natural of that suit and position, or a joker), and never
both 0 and 13 (no K-A-2). With ``ace="low"`` position 13 does not exist.

Contracts (rules 2.2)
---------------------
``CONTRACTS[round_no] == (n_sets, n_runs, run_min_len)``; a set needs at
least ``SET_MIN`` = 3 cards. ``run_min_len`` is 0 when the contract has no
run. The laying must have exactly that many sets and runs; each is at least
its minimum size; every meld holds at least as many naturals as jokers; two
runs of one suit may not touch end to end (``hi1 + 1 == lo2``), since they
would then be one run. Overlapping runs of one suit (which need duplicate
cards) are allowed.

Best laying
-----------
``best_contract`` returns the laying that leaves the least value in hand
(rules 2.7: 2-9 face, 10/J/Q/K 10, ace 15, joker 25). How it stays exact:

1. Every run the hand could lay is listed: each suit, each block of
   positions at least ``run_min_len`` long, each choice of which positions
   hold a joker (a position whose natural is missing *must* hold one; a
   position whose natural is held *may* hold one, which frees that natural
   for a set or another run). Every combination of ``n_runs`` of them that
   the hand can pay for (natural counts, jokers) and that passes the
   same-suit rule is tried, in canonical order (each multiset once).
2. For each such choice of runs, the sets are solved exactly on what is
   left, using two facts that follow straight from rules 2.3:
   - a set of rank r may always take every other natural of rank r that is
     left (more naturals only helps "naturals >= jokers"), so the best
     choice places *all* remaining naturals of every rank that hosts a set;
   - a set holding n naturals needs n >= 2; if n == 2 it needs 1 joker, and
     it can hold up to n jokers. So ranks hosting the sets (a rank may host
     several: six 7s make two sets) are feasible when each rank r hosting
     s_r sets has c_r >= 2 * s_r naturals and the jokers cover
     sum(max(0, 3 * s_r - c_r)); then every spare joker (up to the number of
     naturals in sets) goes into the sets too, since an unplaced joker costs
     25. Every multiset of hosting ranks is tried.
   Spare jokers could also go into runs; those choices are all in step 1.

``validate_laying`` checks any answer (for example the Numba solver's) against
the rules from scratch: meld by meld, card by card.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

from rummysim.cards import card_id, card_name

JOKER = "JK"
JOKER_VALUE = 25
SET_MIN = 3
ACE_HIGH_POS = 13

#: ``CONTRACTS[round_no] = (n_sets, n_runs, run_min_len)``, rounds 1..10 (index 0 unused).
CONTRACTS = (
    None,
    (2, 0, 0),  # 1: 2 sets of 3
    (1, 1, 4),  # 2: 1 set of 3 + 1 run of 4
    (0, 2, 4),  # 3: 2 runs of 4
    (3, 0, 0),  # 4: 3 sets of 3
    (1, 1, 7),  # 5: 1 set of 3 + 1 run of 7
    (2, 1, 5),  # 6: 2 sets of 3 + 1 run of 5
    (0, 3, 4),  # 7: 3 runs of 4
    (1, 1, 10),  # 8: 1 set of 3 + 1 run of 10
    (3, 1, 5),  # 9: 3 sets of 3 + 1 run of 5
    (0, 3, 5),  # 10: 3 runs of 5
)


# ---------------------------------------------------------------- cards


def suit_of(card: int) -> int:
    return int(card) // 16


def rank_of(card: int) -> int:
    return int(card) % 16


def card_value(card: int) -> int:
    """Rules 2.7: 2-9 face value, 10/J/Q/K 10, ace 15 (a joker is ``JOKER_VALUE``)."""
    rank = rank_of(card)
    if rank == 0:
        return 15
    return min(rank + 1, 10)


def hand_value(naturals, jokers: int = 0) -> int:
    return sum(card_value(c) for c in naturals) + JOKER_VALUE * jokers


def fewest_cards(round_no: int) -> int:
    """The fewest cards that can meet a contract (the last column of rules 2.2)."""
    n_sets, n_runs, run_min_len = CONTRACTS[round_no]
    return SET_MIN * n_sets + run_min_len * n_runs


def parse_hand(text: str | list[str]) -> tuple[list[int], int]:
    """``"H7 H7 S7 JK"`` -> ``([natural ids], n_jokers)``."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    naturals = [card_id(t) for t in items if t.strip().upper() != JOKER]
    return naturals, len(items) - len(naturals)


def format_meld(meld: dict) -> str:
    """``"H5 H6 JK H8"`` for a run (in position order), ``"H7 S7 JK"`` for a set."""
    if meld["kind"] == "run":
        return " ".join(c if c == JOKER else card_name(c) for _, c in meld["positions"])
    return " ".join([card_name(c) for c in meld["naturals"]] + [JOKER] * meld["jokers"])


def _ace_high(ace) -> bool:
    if ace not in ("low", "high_or_low"):
        raise ValueError(f"unknown ace rule: {ace!r} (allowed 'low' or 'high_or_low')")
    return ace == "high_or_low"


def _card_at(suit: int, pos: int) -> int:
    """The natural that sits at run position ``pos`` (13 is the ace again)."""
    return 16 * suit + (0 if pos == ACE_HIGH_POS else pos)


def _blocks(min_len: int, ace_high: bool):
    """Every block ``(lo, hi)`` of run positions at least ``min_len`` long.

    Positions run 0..12, or 0..13 with high aces; a block never holds both 0
    and 13 (that would be K-A-2 round the corner, or the ace twice).
    """
    top = ACE_HIGH_POS if ace_high else ACE_HIGH_POS - 1
    for lo in range(0, top + 1):
        for hi in range(lo + max(min_len, 1) - 1, top + 1):
            if lo == 0 and hi == ACE_HIGH_POS:
                continue
            yield lo, hi


# ---------------------------------------------------------------- single melds


def is_set(naturals, jokers: int, min_size: int = SET_MIN) -> bool:
    """Rules 2.3: min_size+ cards of one rank, any suits, duplicates allowed; naturals >= jokers."""
    naturals = list(naturals)
    if jokers < 0 or not naturals or len(naturals) < jokers:
        return False
    if len(naturals) + jokers < min_size:
        return False
    return len({rank_of(c) for c in naturals}) == 1


def run_layouts(naturals, jokers: int, ace: str = "high_or_low", min_len: int = 3) -> list[list]:
    """Every way to lay these cards as one run: lists of ``(position, id or "JK")``.

    The run is exactly ``len(naturals) + jokers`` long; all naturals one suit,
    each on its own position (an ace on 0, or on 13 with high aces); jokers
    fill the rest, including either end. Empty when it is not a run.
    """
    ace_high = _ace_high(ace)
    naturals = sorted(int(c) for c in naturals)
    length = len(naturals) + jokers
    if jokers < 0 or not naturals or len(naturals) < jokers or length < max(min_len, 3):
        return []
    if len({suit_of(c) for c in naturals}) != 1:
        return []
    suit = suit_of(naturals[0])
    layouts = []
    for lo, hi in _blocks(length, ace_high):
        if hi - lo + 1 != length:
            continue
        taken = {}
        fits = True
        for c in naturals:
            rank = rank_of(c)
            spots = [rank] + ([ACE_HIGH_POS] if rank == 0 else [])
            spots = [p for p in spots if lo <= p <= hi and p not in taken]
            if not spots:
                fits = False
                break
            taken[spots[0]] = c  # a block never holds both 0 and 13: at most one spot
        if fits:
            layouts.append([(p, taken.get(p, JOKER)) for p in range(lo, hi + 1)])
            assert all(c == JOKER or c == _card_at(suit, p) for p, c in layouts[-1])
    return layouts


def is_run(naturals, jokers: int, ace: str = "high_or_low", min_len: int = 3) -> bool:
    return len(run_layouts(naturals, jokers, ace, min_len)) > 0


def is_meld(naturals, jokers: int = 0, ace: str = "high_or_low") -> bool:
    """Rules 2.3: a set or a run of 3+ cards, jokers wild, at least as many naturals as jokers."""
    _ace_high(ace)
    return is_set(naturals, jokers) or is_run(naturals, jokers, ace)


# ---------------------------------------------------------------- contracts


class _Run:
    """One run the hand could lay: a suit, a block lo..hi, the joker positions."""

    def __init__(self, suit: int, lo: int, hi: int, joker_positions):
        self.suit, self.lo, self.hi = suit, lo, hi
        self.joker_positions = frozenset(joker_positions)
        self.jokers = len(self.joker_positions)
        self.naturals = Counter(
            _card_at(suit, p) for p in range(lo, hi + 1) if p not in self.joker_positions
        )
        self.value = sum(card_value(c) * k for c, k in self.naturals.items()) + JOKER_VALUE * self.jokers

    def touches(self, other: "_Run") -> bool:
        """Two runs of one suit end to end would make one run: not allowed (rules 2.2)."""
        return self.suit == other.suit and (self.hi + 1 == other.lo or other.hi + 1 == self.lo)

    def as_meld(self) -> dict:
        positions = [
            (p, JOKER if p in self.joker_positions else _card_at(self.suit, p)) for p in range(self.lo, self.hi + 1)
        ]
        return {
            "kind": "run",
            "naturals": sorted(self.naturals.elements()),
            "jokers": self.jokers,
            "positions": positions,
        }


def _run_candidates(hand: Counter, jokers: int, min_len: int, ace_high: bool) -> list[_Run]:
    """Every run of ``min_len``+ cards the hand can lay on its own (with <= ``jokers`` jokers)."""
    out = []
    for suit in range(4):
        for lo, hi in _blocks(min_len, ace_high):
            positions = range(lo, hi + 1)
            missing = [p for p in positions if hand[_card_at(suit, p)] == 0]
            held = [p for p in positions if hand[_card_at(suit, p)] > 0]
            if len(missing) > jokers:
                continue  # (a longer block from this lo misses at least as many)
            for extra in range(0, jokers - len(missing) + 1):
                for swapped in combinations(held, extra):
                    joker_positions = set(missing) | set(swapped)
                    if len(positions) - len(joker_positions) < len(joker_positions):
                        continue  # naturals >= jokers
                    out.append(_Run(suit, lo, hi, joker_positions))
    return out


def _choose_runs(candidates, n_runs, hand: Counter, jokers: int):
    """Every multiset of ``n_runs`` candidates the hand can pay for, same-suit runs not touching."""
    chosen: list[_Run] = []
    used: Counter = Counter()

    def explore(first: int, jokers_left: int):
        if len(chosen) == n_runs:
            yield list(chosen), jokers_left
            return
        for i in range(first, len(candidates)):
            run = candidates[i]
            if run.jokers > jokers_left:
                continue
            if any(used[c] + k > hand[c] for c, k in run.naturals.items()):
                continue
            if any(run.touches(other) for other in chosen):
                continue
            chosen.append(run)
            used.update(run.naturals)
            yield from explore(i, jokers_left - run.jokers)  # i, not i + 1: a run may repeat (duplicates)
            used.subtract(run.naturals)
            chosen.pop()

    yield from explore(0, jokers)


def _best_sets(remaining: Counter, jokers: int, n_sets: int):
    """The most value ``n_sets`` sets can place from ``remaining`` naturals and ``jokers``.

    Returns ``(placed_value, set_melds)`` or ``None`` when no ``n_sets`` sets exist.
    See the module docstring for why this is exact.
    """
    if n_sets == 0:
        return 0, []
    by_rank: dict[int, list[int]] = {}
    for c in sorted(remaining.elements()):
        by_rank.setdefault(rank_of(c), []).append(c)
    ranks = [r for r in sorted(by_rank) if len(by_rank[r]) >= 2]
    best = None
    for hosts in combinations_with_replacement(ranks, n_sets):
        sets_of = Counter(hosts)  # rank -> how many sets it hosts
        if any(len(by_rank[r]) < 2 * s for r, s in sets_of.items()):
            continue
        needed = sum(max(0, 3 * s - len(by_rank[r])) for r, s in sets_of.items())
        if needed > jokers:
            continue
        in_sets = sum(len(by_rank[r]) for r in sets_of)
        placed_jokers = min(jokers, in_sets)
        value = sum(card_value(c) for r in sets_of for c in by_rank[r]) + JOKER_VALUE * placed_jokers
        if best is None or value > best[0]:
            best = (value, sets_of, placed_jokers)
    if best is None:
        return None
    value, sets_of, placed_jokers = best

    # Lay it out: per rank, s groups of 3 (a group of 2 plus a joker when the
    # rank is short), every extra natural in the first group; then spare
    # jokers wherever naturals > jokers.
    groups = []  # [naturals, jokers]
    for r in sorted(sets_of):
        cards, s = by_rank[r], sets_of[r]
        twos = max(0, 3 * s - len(cards))
        sizes = [2] * twos + [3] * (s - twos)
        sizes[-1] += len(cards) - sum(sizes)
        start = 0
        for size in sizes:
            groups.append([cards[start : start + size], 1 if size == 2 else 0])
            start += size
    spare = placed_jokers - sum(j for _, j in groups)
    for g in groups:
        add = min(spare, len(g[0]) - g[1])
        g[1] += add
        spare -= add
    assert spare == 0
    melds = [{"kind": "set", "naturals": list(nat), "jokers": j, "positions": None} for nat, j in groups]
    return value, melds


def best_contract(naturals, jokers: int, round_no: int, ace: str = "high_or_low"):
    """The contract of ``round_no`` laid to leave the least value, or ``None`` if it cannot be met.

    Returns ``(value_left, melds)``: ``value_left`` counts the naturals left in
    hand (rules 2.7) plus 25 for each joker left; ``melds`` lists the sets
    then the runs, each ``{"kind", "naturals" (sorted ids), "jokers",
    "positions"}``; for a run ``positions`` is ``[(position, id or "JK"), ...]``
    in position order (0 = ace low .. 13 = ace high), for a set it is ``None``.
    When several layings tie, one of them is returned.
    """
    ace_high = _ace_high(ace)
    if round_no not in range(1, len(CONTRACTS)):
        raise ValueError(f"no such round: {round_no} (rounds are 1..10)")
    n_sets, n_runs, run_min_len = CONTRACTS[round_no]
    naturals = [int(c) for c in naturals]
    hand = Counter(naturals)
    total = hand_value(naturals, jokers)
    if len(naturals) + jokers < fewest_cards(round_no):
        return None

    candidates = _run_candidates(hand, jokers, run_min_len, ace_high) if n_runs else []
    best = None
    for runs, jokers_left in _choose_runs(candidates, n_runs, hand, jokers):
        remaining = hand.copy()
        for run in runs:
            remaining.subtract(run.naturals)
        sets = _best_sets(+remaining, jokers_left, n_sets)
        if sets is None:
            continue
        placed = sum(run.value for run in runs) + sets[0]
        if best is None or placed > best[0]:
            best = (placed, sets[1] + [run.as_meld() for run in runs])
            if placed == total:
                break  # nothing left in hand: cannot do better
    if best is None:
        return None
    return total - best[0], best[1]


def meets_contract(naturals, jokers: int, round_no: int, ace: str = "high_or_low") -> bool:
    return best_contract(naturals, jokers, round_no, ace) is not None


# ---------------------------------------------------------------- checking an answer


def validate_laying(naturals, jokers: int, round_no: int, value_left: int, melds, ace: str = "high_or_low") -> None:
    """Check a claimed laying of the contract against the rules, from scratch.

    Raises ``AssertionError`` naming the problem. Does not check that the
    laying is the best one (compare ``value_left`` with ``best_contract``).
    """
    n_sets, n_runs, run_min_len = CONTRACTS[round_no]
    kinds = Counter(m["kind"] for m in melds)
    assert kinds == Counter({"set": n_sets, "run": n_runs}) - Counter(), f"wrong melds for round {round_no}: {kinds}"
    hand = Counter(int(c) for c in naturals)
    used = Counter()
    used_jokers = 0
    runs = []
    for m in melds:
        nat, j = [int(c) for c in m["naturals"]], m["jokers"]
        used.update(nat)
        used_jokers += j
        if m["kind"] == "set":
            assert is_set(nat, j), f"not a set: {format_meld(m)}"
            continue
        pos = m["positions"]
        assert len(pos) == len(nat) + j >= run_min_len, f"run too short or miscounted: {format_meld(m)}"
        assert sorted(c for _, c in pos if c != JOKER) == sorted(nat), f"run cards differ: {format_meld(m)}"
        assert sum(1 for _, c in pos if c == JOKER) == j, f"run jokers miscounted: {format_meld(m)}"
        layouts = [[(p, c) for p, c in lay] for lay in run_layouts(nat, j, ace, run_min_len)]
        assert [tuple(x) for x in pos] in layouts, f"not a run: {format_meld(m)} at {pos}"
        runs.append((suit_of(nat[0]), pos[0][0], pos[-1][0]))
    for a, b in combinations(runs, 2):
        assert not (a[0] == b[0] and (a[2] + 1 == b[1] or b[2] + 1 == a[1])), f"runs join into one: {a} {b}"
    assert not (used - hand), f"cards not in hand: {[card_name(c) for c in (used - hand).elements()]}"
    assert used_jokers <= jokers, f"{used_jokers} jokers used, {jokers} held"
    left = hand_value((hand - used).elements(), jokers - used_jokers)
    assert left == value_left, f"value left is {left}, claimed {value_left}"


# ---------------------------------------------------------------- lay-offs and joker swaps (rules 2.5, ruling 3.13)
#
# A table meld is a dict as ``best_contract`` returns them: a run with its ``positions``
# ``[(position, id or "JK"), ...]``, a set with its ``naturals`` and ``jokers``. A hand is a
# ``Counter`` of natural ids and ``"JK"``. A move of a player who has gone down is
# ``("layoff", card, k, where)`` or ``("swap", natural, k, k2, where)`` (the natural takes the place
# of a joker of meld k; the freed joker goes onto meld k2 of the table after the swap); ``where`` is
# where a joker goes: ``"set"``, or the end of a run, ``"low"`` or ``"high"``: ruling 3.13 lets the
# player choose when both are open. A natural goes where its card belongs (``where`` None): on a run
# 2..K an ace below the 2 or above the king makes a run of the same thirteen cards either way.


def _run_ends(meld: dict, ace_high: bool) -> list[tuple[str, int]]:
    """The places next to a run: ``("low", lo - 1)`` and ``("high", hi + 1)`` where they exist
    (positions 0..12, 13 with high aces; a run never holds both 0 and 13: ruling 3.11)."""
    positions = [p for p, _ in meld["positions"]]
    lo, hi = min(positions), max(positions)
    top = ACE_HIGH_POS if ace_high else ACE_HIGH_POS - 1
    ends = []
    if lo - 1 >= 0 and not (lo - 1 == 0 and hi == ACE_HIGH_POS):
        ends.append(("low", lo - 1))
    if hi + 1 <= top and not (lo == 0 and hi + 1 == ACE_HIGH_POS):
        ends.append(("high", hi + 1))
    return ends


def _run_suit(meld: dict) -> int:
    return suit_of(next(c for _, c in meld["positions"] if c != JOKER))


def joker_places(meld: dict, ace_high: bool) -> list[str]:
    """Where one more joker may go (rules 2.3: naturals >= jokers after it): ``["set"]`` in a set, each
    open end of a run (ruling 3.13), or nowhere."""
    if len(meld["naturals"]) < meld["jokers"] + 1:
        return []
    if meld["kind"] == "set":
        return ["set"]
    return [end for end, _ in _run_ends(meld, ace_high)]


def natural_fits(meld: dict, card: int, ace_high: bool) -> bool:
    """Rules 2.5: a natural joins a set of its rank, or a run of its suit at a free place next to it."""
    if meld["kind"] == "set":
        return rank_of(card) == rank_of(meld["naturals"][0])
    suit = _run_suit(meld)
    return any(_card_at(suit, p) == card for _, p in _run_ends(meld, ace_high))


def swapped(meld: dict, card: int) -> dict | None:
    """Rules 2.5 (joker swap): the meld with natural ``card`` in place of a joker standing for it (in a
    run the card of its position, in a set a card of its rank), or None."""
    if meld["jokers"] == 0:
        return None
    if meld["kind"] == "set":
        if rank_of(card) != rank_of(meld["naturals"][0]):
            return None
        return {**meld, "naturals": sorted(meld["naturals"] + [card]), "jokers": meld["jokers"] - 1}
    suit = _run_suit(meld)
    for i, (p, c) in enumerate(meld["positions"]):
        if c == JOKER and _card_at(suit, p) == card:
            positions = meld["positions"][:i] + [(p, card)] + meld["positions"][i + 1:]
            return {**meld, "positions": positions, "naturals": sorted(meld["naturals"] + [card]),
                    "jokers": meld["jokers"] - 1}
    return None


def may_leave(hand: Counter, card, drawn=None, must_discard: bool = False) -> bool:
    """Rules 2.6 and ruling 3.1: may ``card`` leave the hand before the discard? What is left must hold a
    card other than the upcard taken this turn (``drawn``, and its copies), or be empty (not with
    ``must_discard_to_go_out``)."""
    left = [c for c, n in (hand - Counter([card])).items() if n > 0]
    return any(c != drawn for c in left) or (not left and not must_discard)


def play_moves(melds: list[dict], hand: Counter, ace: str = "high_or_low", swaps: bool = True, drawn=None,
               must_discard: bool = False) -> set:
    """Every lay-off and joker swap of a player who went down on an earlier turn (rules 2.5, rulings 3.1
    and 3.13), as a set of moves (see above)."""
    ace_high = _ace_high(ace)
    moves = set()
    for card, n in hand.items():
        if n == 0 or not may_leave(hand, card, drawn, must_discard):
            continue
        for k, meld in enumerate(melds):
            if card == JOKER:
                moves |= {("layoff", JOKER, k, where) for where in joker_places(meld, ace_high)}
                continue
            if natural_fits(meld, card, ace_high):
                moves.add(("layoff", card, k, None))
            after = swapped(meld, card) if swaps else None
            if after is not None:
                table = melds[:k] + [after] + melds[k + 1:]
                for k2, home in enumerate(table):
                    moves |= {("swap", card, k, k2, where) for where in joker_places(home, ace_high)}
    return moves
