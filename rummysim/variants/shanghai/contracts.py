"""Shanghai contracts (docs/rules.md 2.2, 2.3, 2.7): does a hand meet one, and the best way to lay it.

A Shanghai hand is ``counts`` int64[64] (how many of each natural card id,
several decks) plus a number of jokers. Run positions of a suit are 0 (ace
low) .. 12 (king) and, when aces may be high, 13 (ace above the king); a run
never holds both 0 and 13 (no K-A-2).

``best_contract`` is exact and recursion-free, and follows the plain
reference ``tests/shanghai_reference.py`` step for step:

1. list every run the hand could lay: each suit, each block of positions at
   least the contract's run length, each choice of jokers (a position whose
   natural is missing must hold one; a held natural may give way to a joker,
   which frees it for a set or another run), with naturals >= jokers;
2. try every multiset of ``n_runs`` of them that the hand can pay for and
   whose same-suit runs do not touch end to end (they would be one run);
3. on what is left, try every multiset of ``n_sets`` set ranks: a rank hosting
   s sets needs 2s naturals and jokers up to 3s; every other natural of a
   hosting rank joins its sets, and spare jokers go into sets up to one per
   natural there (an unplaced joker costs 25).

The best laying leaves the least value in hand.
"""

import numpy as np
from numba import njit

JOKER_VALUE = 25
MAX_RUN_CANDIDATES = 16384

#: ``(n_sets, n_runs, run_min_len)`` of rounds 1..10 (index 0 unused); sets need 3 cards.
CONTRACTS = np.array([
    (0, 0, 0),
    (2, 0, 0), (1, 1, 4), (0, 2, 4), (3, 0, 0), (1, 1, 7),
    (2, 1, 5), (0, 3, 4), (1, 1, 10), (3, 1, 5), (0, 3, 5),
], dtype=np.int64)

#: Shanghai value of each natural card id (rules 2.7): 2-9 face, 10/J/Q/K 10, ace 15.
SHANGHAI_VALUE = np.zeros(64, dtype=np.int64)
for _s in range(4):
    for _r in range(13):
        SHANGHAI_VALUE[16 * _s + _r] = 15 if _r == 0 else min(_r + 1, 10)

# run candidate columns (int64[MAX_RUN_CANDIDATES, RUN_COLS])
RC_SUIT, RC_LO, RC_HI, RC_JOKER_POS, RC_JOKERS, RC_VALUE = range(6)
RUN_COLS = 6


@njit(cache=True, inline="always")
def card_at(suit, pos):
    """Natural card id at run position ``pos`` (13 is the ace) of ``suit``."""
    return 16 * suit + (0 if pos == 13 else pos)


@njit(cache=True, inline="always")
def next_multiset(idx, k, n):
    """Advance ``idx[:k]`` (non-decreasing values in ``0..n-1``) to the next multiset in order;
    False when it was the last."""
    t = k - 1
    while t >= 0 and idx[t] == n - 1:
        t -= 1
    if t < 0:
        return False
    idx[t] += 1
    for u in range(t + 1, k):
        idx[u] = idx[t]
    return True


@njit(cache=True, _nrt=False)
def run_candidates(counts, jokers, min_len, ace_high, out, solver):
    """Every run the hand could lay (step 1), written to ``out`` int64[MAX_RUN_CANDIDATES, RUN_COLS]
    (suit, lo, hi, joker position bitmask, jokers, natural value); returns how many. ``solver``
    int64[SOLVER_WORK] scratch."""
    n = 0
    top = 13 if ace_high else 12
    held_pos = solver[SV_HELD:SV_HELD + 14]
    pick = solver[SV_PICK:SV_PICK + 14]
    for s in range(4):
        for lo in range(0, top + 1):
            for hi in range(lo + min_len - 1, top + 1):
                if lo == 0 and hi == 13:
                    continue  # never round the corner
                size = hi - lo + 1
                n_held = 0
                held_value = 0
                for p in range(lo, hi + 1):
                    if counts[card_at(s, p)] > 0:
                        held_pos[n_held] = p
                        n_held += 1
                        held_value += SHANGHAI_VALUE[card_at(s, p)]
                forced = size - n_held
                # k held naturals give way to jokers: every k-subset, while jokers last
                for k in range(0, min(jokers - forced, n_held) + 1):
                    j = forced + k
                    if 2 * j > size:
                        break
                    for t in range(k):
                        pick[t] = t
                    while True:
                        window = (1 << (hi + 1)) - (1 << lo)
                        natural = 0
                        for t in range(n_held):
                            natural |= 1 << held_pos[t]
                        value = held_value
                        for t in range(k):
                            natural &= ~(1 << held_pos[pick[t]])
                            value -= SHANGHAI_VALUE[card_at(s, held_pos[pick[t]])]
                        if n >= out.shape[0]:
                            raise ValueError("too many possible runs to list (more jokers than the solver supports)")
                        out[n, RC_SUIT] = s
                        out[n, RC_LO] = lo
                        out[n, RC_HI] = hi
                        out[n, RC_JOKER_POS] = window & ~natural
                        out[n, RC_JOKERS] = j
                        out[n, RC_VALUE] = value
                        n += 1
                        # next k-combination of the held positions
                        t = k - 1
                        while t >= 0 and pick[t] == n_held - k + t:
                            t -= 1
                        if t < 0:
                            break
                        pick[t] += 1
                        for u in range(t + 1, k):
                            pick[u] = pick[u - 1] + 1
    return n


@njit(cache=True, _nrt=False)
def _take_run(counts, cand, k, sign):
    """Add (sign=+1) or remove (sign=-1) the naturals of run candidate ``k`` from ``counts``;
    returns False (after undoing) if removing would go below zero."""
    s = cand[k, RC_SUIT]
    jpos = cand[k, RC_JOKER_POS]
    for p in range(cand[k, RC_LO], cand[k, RC_HI] + 1):
        if not (jpos >> p) & 1:
            c = card_at(s, p)
            counts[c] -= sign
            if counts[c] < 0:
                for q in range(cand[k, RC_LO], p + 1):  # undo
                    if not (jpos >> q) & 1:
                        counts[card_at(s, q)] += sign
                return False
    return True


@njit(cache=True, _nrt=False)
def _touch(cand, a, b):
    """Two runs of one suit that touch end to end (rules 2.2: they could be joined)."""
    if cand[a, RC_SUIT] != cand[b, RC_SUIT]:
        return False
    return cand[a, RC_HI] + 1 == cand[b, RC_LO] or cand[b, RC_HI] + 1 == cand[a, RC_LO]


# layout of ``_best_sets``' scratch ``sw`` int64[SETS_WORK] (allocated once per solver call, not per
# choice of runs): a multiset of positions among the hosting ranks first (``next_multiset`` advances
# ``sw[:n_sets]``), then the naturals held and their value per rank, the ranks that can host a set
SW_IDX, SW_N, SW_V, SW_RANKS = 0, 3, 16, 29
SETS_WORK = 42

# layout of the solver's scratch ``solver`` int64[SOLVER_WORK], the caller's (``State.solver``,
# ``BotScratch.solver``): the solver allocates nothing, so the rules and the bots that call it are
# compiled without reference counting (docs/development.md "Reference counting")
SV_HAND = 0                       # int64[64]: the hand, runs taken out and put back
SV_SETS = SV_HAND + 64            # int64[SETS_WORK]: ``_best_sets``' scratch
SV_TRIAL = SV_SETS + SETS_WORK    # int64[3]: the set ranks of the laying tried
SV_IDX = SV_TRIAL + 3             # int64[4]: the runs chosen, a multiset of candidates
SV_JOKERS_LEFT = SV_IDX + 4       # int64[4]: jokers left before choosing run t (``first_contract``)
SV_VALUE = SV_JOKERS_LEFT + 4     # int64[4]: value placed before choosing run t (``first_contract``)
SV_HELD = SV_VALUE + 4            # int64[14]: ``run_candidates``: the held positions of a block
SV_PICK = SV_HELD + 14            # int64[14]: ``run_candidates``: the held naturals given way to jokers
SOLVER_WORK = SV_PICK + 14


@njit(cache=True, _nrt=False)
def _best_sets(counts, jokers, n_sets, set_ranks, sw):
    """Step 3: the best ``n_sets`` set ranks on ``counts``; fills ``set_ranks`` int64[>=3]
    (non-decreasing) and returns ``(placed value, jokers used)``, or ``(-1, 0)`` if none fits.
    ``sw`` int64[SETS_WORK] scratch."""
    if n_sets == 0:
        return 0, 0
    n_ranks = 0
    for r in range(13):
        n = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
        sw[SW_N + r] = n
        sw[SW_V + r] = (counts[r] * SHANGHAI_VALUE[r] + counts[16 + r] * SHANGHAI_VALUE[16 + r]
                        + counts[32 + r] * SHANGHAI_VALUE[32 + r] + counts[48 + r] * SHANGHAI_VALUE[48 + r])
        if n >= 2:  # a rank that can host a set (two naturals or more)
            sw[SW_RANKS + n_ranks] = r
            n_ranks += 1
    if n_ranks == 0:
        return -1, 0
    for t in range(3):  # a multiset of positions among the hosting ranks, non-decreasing
        sw[SW_IDX + t] = 0
    best = -1
    best_j = 0
    while True:
        ok = True
        need = 0
        capacity = 0
        value = 0
        i = 0
        while i < n_sets:
            r = sw[SW_RANKS + sw[SW_IDX + i]]
            s_r = 1
            while i + s_r < n_sets and sw[SW_IDX + i + s_r] == sw[SW_IDX + i]:
                s_r += 1
            n = sw[SW_N + r]
            if n < 2 * s_r:
                ok = False
                break
            need += max(0, 3 * s_r - n)
            capacity += n
            value += sw[SW_V + r]
            i += s_r
        if ok and need <= jokers:
            used = min(jokers, capacity)
            placed = value + JOKER_VALUE * used
            if placed > best:
                best = placed
                best_j = used
                for t in range(n_sets):
                    set_ranks[t] = sw[SW_RANKS + sw[SW_IDX + t]]
        if not next_multiset(sw, n_sets, n_ranks):
            break
    return best, best_j


@njit(cache=True, inline="always")
def _hand_copy(counts, solver):
    """A copy of the hand ``counts`` int64[64] in ``solver``, to take runs out of."""
    work = solver[SV_HAND:SV_HAND + 64]
    for c in range(64):
        work[c] = counts[c]
    return work


@njit(cache=True, inline="always")
def _zeroed(solver, at, n):
    """``solver[at:at + n]``, zeroed."""
    out = solver[at:at + n]
    for i in range(n):
        out[i] = 0
    return out


@njit(cache=True, _nrt=False)
def best_contract(counts, jokers, round_no, ace_high, cand, chosen_runs, set_ranks, solver):
    """Exact best laying of the contract of ``round_no`` (1..10).

    ``counts`` int64[64] natural counts (left unchanged; index 63 is ignored), ``jokers`` >= 0;
    scratch ``cand`` int64[MAX_RUN_CANDIDATES, RUN_COLS] and ``solver`` int64[SOLVER_WORK]. On success fills
    ``chosen_runs`` int64[3] (rows of ``cand``) and ``set_ranks`` int64[3]
    and returns ``(value_left, jokers_in_sets)``; returns ``(-1, 0)`` when the
    contract cannot be met. Jokers in runs are given by ``cand[k, RC_JOKERS]``.
    """
    n_sets = CONTRACTS[round_no, 0]
    n_runs = CONTRACTS[round_no, 1]
    run_min = CONTRACTS[round_no, 2]
    total = JOKER_VALUE * jokers
    n_cards = jokers
    for c in range(63):  # id 63 is where a Shanghai hand keeps its jokers: counted apart
        total += counts[c] * SHANGHAI_VALUE[c]
        n_cards += counts[c]
    if n_cards < 3 * n_sets + run_min * n_runs:
        return -1, 0
    work = _hand_copy(counts, solver)
    sw = solver[SV_SETS:SV_SETS + SETS_WORK]
    trial_ranks = _zeroed(solver, SV_TRIAL, 3)
    best_placed = -1
    best_set_j = 0
    if n_runs == 0:
        placed, used = _best_sets(work, jokers, n_sets, set_ranks, sw)
        if placed < 0:
            return -1, 0
        return total - placed, used
    n_cand = run_candidates(work, jokers, run_min, ace_high, cand, solver)
    if n_cand == 0:
        return -1, 0
    idx = _zeroed(solver, SV_IDX, 3)
    while True:
        # pay for runs idx[0] <= ... <= idx[n_runs-1]
        j_left = jokers
        run_value = 0
        paid = 0
        for t in range(n_runs):
            k = idx[t]
            ok = cand[k, RC_JOKERS] <= j_left
            for u in range(t):
                if ok and _touch(cand, idx[u], k):
                    ok = False
            if not ok or not _take_run(work, cand, k, 1):
                break
            paid += 1
            j_left -= cand[k, RC_JOKERS]
            run_value += cand[k, RC_VALUE] + JOKER_VALUE * cand[k, RC_JOKERS]
        if paid == n_runs:
            placed, used = _best_sets(work, j_left, n_sets, trial_ranks, sw)
            if placed >= 0 and run_value + placed > best_placed:
                best_placed = run_value + placed
                best_set_j = used
                for t in range(n_runs):
                    chosen_runs[t] = idx[t]
                for t in range(n_sets):
                    set_ranks[t] = trial_ranks[t]
        for t in range(paid):
            _take_run(work, cand, idx[t], -1)
        if best_placed == total:
            break  # nothing left in hand: cannot do better
        # run idx[paid] could not be paid after idx[:paid], nor in any multiset sharing the prefix
        # idx[:paid + 1]: skip to the next prefix (the multisets left are tried in the same order,
        # so the same laying wins)
        prefix = min(paid + 1, n_runs)
        if not next_multiset(idx, prefix, n_cand):
            break
        for u in range(prefix, n_runs):
            idx[u] = idx[prefix - 1]
    if best_placed < 0:
        return -1, 0
    return total - best_placed, best_set_j


@njit(cache=True, _nrt=False)
def first_contract(counts, jokers, round_no, ace_high, cand, chosen_runs, set_ranks, solver, min_jokers=0):
    """A laying of the contract of ``round_no`` if one exists, found fast: depth first over the run
    candidates (``run_candidates`` order, a multiset as in ``best_contract``), abandoning a
    partial choice of runs as soon as the hand cannot pay for it, then ``_best_sets`` on what is
    left; the first choice of runs that leaves room for the sets wins. Same arguments and answer
    as ``best_contract`` (``(value_left, jokers_in_sets)`` or ``(-1, 0)``), but not the best
    laying: the legal-move layer only needs one (``moves.propose_contract``). With ``min_jokers``
    = 1 only a laying holding a joker counts (a joker swap before the contract, ruling 3.8); exact
    for 0 and 1 (a set rank takes up to one joker per natural, two or more)."""
    n_sets = CONTRACTS[round_no, 0]
    n_runs = CONTRACTS[round_no, 1]
    run_min = CONTRACTS[round_no, 2]
    total = JOKER_VALUE * jokers
    n_cards = jokers
    for c in range(63):
        total += counts[c] * SHANGHAI_VALUE[c]
        n_cards += counts[c]
    if n_cards < 3 * n_sets + run_min * n_runs:
        return -1, 0
    work = _hand_copy(counts, solver)
    sw = solver[SV_SETS:SV_SETS + SETS_WORK]
    if n_runs == 0:
        placed, used = _best_sets(work, jokers, n_sets, set_ranks, sw)
        if placed < 0 or used < min_jokers:
            return -1, 0
        return total - placed, used
    n_cand = run_candidates(work, jokers, run_min, ace_high, cand, solver)
    idx = _zeroed(solver, SV_IDX, 4)
    j_left = _zeroed(solver, SV_JOKERS_LEFT, 4)
    value = _zeroed(solver, SV_VALUE, 4)
    j_left[0] = jokers
    depth = 0
    while True:
        if depth == n_runs:
            placed, used = _best_sets(work, j_left[depth], n_sets, set_ranks, sw)
            if placed >= 0 and jokers - j_left[depth] + used >= min_jokers:
                for t in range(n_runs):
                    chosen_runs[t] = idx[t]
                return total - value[depth] - placed, used
            depth -= 1
            _take_run(work, cand, idx[depth], -1)
            idx[depth] += 1
            continue
        k = idx[depth]
        if k >= n_cand:
            if depth == 0:
                return -1, 0
            depth -= 1
            _take_run(work, cand, idx[depth], -1)
            idx[depth] += 1
            continue
        ok = cand[k, RC_JOKERS] <= j_left[depth]
        for u in range(depth):
            if ok and _touch(cand, idx[u], k):
                ok = False
        if ok and _take_run(work, cand, k, 1):
            j_left[depth + 1] = j_left[depth] - cand[k, RC_JOKERS]
            value[depth + 1] = value[depth] + cand[k, RC_VALUE] + JOKER_VALUE * cand[k, RC_JOKERS]
            depth += 1
            idx[depth] = k
        else:
            idx[depth] += 1


def contract(round_no: int, short: bool = False) -> str:
    """The contract of a round in words ("1 set + 1 run of 4") or ``short`` ("S+R4"); sets need 3 cards."""
    sets, runs, length = (int(x) for x in CONTRACTS[round_no])
    if short:
        return "+".join(f"{'' if n == 1 else n}{what}" for n, what in ((sets, "S"), (runs, f"R{length}")) if n)
    return " + ".join(f"{n} {what}{'s' if n > 1 else ''}" + (f" of {length}" if what == "run" else "")
                      for n, what in ((sets, "set"), (runs, "run")) if n)
