"""OpenSpiel's ``gin_rummy`` as a second implementation of rummysim's Gin Rummy rules layer: the
translation of cards and actions, the rulings that explain every allowed difference, and the driver
that plays one hand move by move in both (used by tests/test_gin_openspiel.py; needs ``pyspiel``).

Translation (docs/rules.md section 4; ``rummysim.variants.gin.moves`` docstring)
    OpenSpiel's card is ``13 * os_suit + rank`` with suits s c d h; rummysim's card index (its card
    actions 0-51) is ``13 * suit + rank`` with suits C D H S and its card id ``16 * suit + rank``:
    ``os = 13 * moves.OS_SUIT[suit] + rank`` with ``OS_SUIT = (1, 2, 3, 0)``. Actions 52 (take the
    upcard), 53 (the stock), 54 (pass), 55 (knock) and the meld actions 56 + j (``MELD_TABLE`` is in
    OpenSpiel's order) are the same numbers; card actions translate by their card. 241 (big gin)
    has no counterpart (option ``big_gin_bonus``, off here). OpenSpiel's player 0 is rummysim's
    starter (the seat offered the first upcard), player 1 the dealer; OpenSpiel's deal order is the
    starter's 10 cards, the dealer's 10, the upcard, then one chance node per draw from the stock.

Allowed differences (each a ruling of docs/rules.md section 3; any other difference is a failure)
    3.14  The card taken from the discard pile may not be discarded in the same turn (Hoyle-style
          rule books: "If the upcard is taken, the discard must be different"); OpenSpiel allows it
          (and ends the hand 0-0 after two take-and-throw-backs in a row, which therefore never
          arises here). OpenSpiel's discard and knock-discard lists hold that card more, and it
          offers its knock, in the turn and at the wall, when only that discard gets within the
          knock card.
    3.15  A knock is offered when some allowed discard leaves deadwood within the knock card (the
          books: the deadwood "does not exceed the value of 10"); OpenSpiel judges 11 cards by a
          shortcut (``GinRummyUtils.min_deadwood`` of 11 cards: the first best meld group its search
          meets, less that group's highest unmelded card) that is sometimes higher than the best
          discard's, so it omits a knock that is allowed. With ``hand_size`` 2, 5 or 8 its count
          can also be lower: ``hand_size + 1`` cards all in melds of three count 0, though every
          discard breaks a meld, and OpenSpiel offers a knock after which it has no legal move.
    3.16  A defender lays off any number of cards on a run, at either end (the books: "to the
          knocker's melds as he/she chooses"); OpenSpiel stops at two cards per run end
          (``GinRummyUtils.all_layoffs``).
Every claimed ruling is verified, not with rummysim's code, but with OpenSpiel's own meld utilities
(``GinRummyUtils``) and, for 3.16, a Python statement of the ruling (``book_layoffs``): a difference
is excused only when OpenSpiel's rule and the ruling both account for it.
"""

from __future__ import annotations

import collections
import random

import numpy as np
import pyspiel

from rummysim.engine import melds as EM
from rummysim.engine.codes import OUT_STALEMATE_STOCK, OUT_TURN_LIMIT, OUT_WIN
from rummysim.variants.gin import kernel as K
from rummysim.variants.gin import moves as MV
from rummysim.variants.gin import state as S
from rummysim.variants.gin.rules import GinRules

KNOCK, PASS, DRAW_UPCARD, DRAW_STOCK = MV.KNOCK, MV.PASS, MV.DRAW_UPCARD, MV.DRAW_STOCK

#: OpenSpiel's meld utilities (the default deck and hand)
U = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
_UTILS = {10: U}


def utils(hand_size):
    """OpenSpiel's meld utilities for hands of ``hand_size`` (its 11-card shortcut is for
    ``hand_size + 1`` cards)."""
    if hand_size not in _UTILS:
        _UTILS[hand_size] = pyspiel.gin_rummy.GinRummyUtils(13, 4, hand_size)
    return _UTILS[hand_size]


# ------------------------------------------------------------------ translation
_RS_SUIT = (3, 0, 1, 2)          # OpenSpiel's suit s c d h -> rummysim's S C D H


def os_card_of_id(card):
    """rummysim card id (16 * suit + rank) -> OpenSpiel card."""
    return 13 * MV.OS_SUIT[card >> 4] + (card & 15)


def id_of_os_card(c):
    """OpenSpiel card -> rummysim card id."""
    return 16 * _RS_SUIT[c // 13] + c % 13


#: OpenSpiel's action of each rummysim action (241, big gin, has none: -1) and back
OS_ACTION = [13 * MV.OS_SUIT[a // 13] + a % 13 if a < 52 else a for a in range(MV.NUM_ACTIONS)]
OS_ACTION[MV.BIG_GIN] = -1
OUR_ACTION = [OS_ACTION.index(a) for a in range(241)]
assert sorted(OUR_ACTION[:52]) == list(range(52))


def os_cards(mask):
    """The OpenSpiel cards of a rummysim card mask, ascending."""
    m, out = int(mask), []
    while m:
        low = m & -m
        out.append(os_card_of_id(low.bit_length() - 1))
        m ^= low
    return sorted(out)


def id_mask(os_card_list):
    """The rummysim card mask of OpenSpiel cards."""
    m = 0
    for c in os_card_list:
        m |= 1 << id_of_os_card(c)
    return np.uint64(m)


def card_names(cards):
    return " ".join(U.card_string(c) for c in sorted(cards))


#: OpenSpiel's phase -> rummysim's phases (its knock and layoff phases are two of ours each)
PHASES = {"FIRST_UPCARD": (S.PH_FIRST_UPCARD,), "DRAW": (S.PH_DRAW,), "DISCARD": (S.PH_DISCARD,),
          "KNOCK": (S.PH_KNOCK_DISCARD, S.PH_KNOCK_MELD), "LAYOFF": (S.PH_LAYOFF, S.PH_DEFENDER_MELD),
          "WALL": (S.PH_WALL,), "GAME_OVER": (S.PH_OVER,)}
PHASE_NAMES = {getattr(S, n): n for n in dir(S) if n.startswith("PH_")}


# ------------------------------------------------------------------ rummysim's side
class Ours:
    """rummysim's compiled rules layer driven from Python: one ``state.State`` (card check on)."""

    def __init__(self, gin_rules: GinRules):
        self.rules = gin_rules.to_array(2)
        self.rules[S.R_CHECK] = 1
        self.state = K.new_state(self.rules, EM.CARD_VALUE, np.zeros((0, MV.EV_WIDTH), np.int16))
        self.out = np.zeros(MV.MAX_LEGAL, np.int64)
        self.buf = np.zeros(64, np.uint64)
        self.first = 0

    def set_position(self, first, starter_cards, dealer_cards, upcard, stock):
        """A new hand from OpenSpiel cards: seat ``first`` holds ``starter_cards``, the other seat
        ``dealer_cards``, ``upcard`` on the pile, ``stock`` (top last) the stock."""
        st = self.state
        st.masks[:] = 0
        st.ints[:] = 0
        st.ints[S.I_PLAYERS] = 2
        st.masks[S.M_HAND + first] = id_mask(starter_cards)
        st.masks[S.M_HAND + 1 - first] = id_mask(dealer_cards)
        for k, c in enumerate(stock):
            S.stock_view(st)[k] = id_of_os_card(c)
        st.ints[S.I_STOCK_N] = len(stock)
        up = id_of_os_card(upcard)
        S.pile_view(st)[0] = up
        st.ints[S.I_PILE_N] = 1
        st.masks[S.M_PILE] = np.uint64(1 << up)
        st.ints[S.I_KNOCK_CARD] = K.knock_card_of(self.rules, up)
        MV.begin(st, first)
        MV.check_cards(st)
        self.first = first

    def deal(self, seed, game):
        """Hand 0 of game ``game`` dealt by ``kernel.start_hand``."""
        self.first = int(K.start_hand(self.state, seed, game, 0, np.zeros((2, 1), np.uint64)))

    def deck_order(self):
        """The OpenSpiel chance outcomes that deal this hand: the starter's cards, the dealer's, the
        upcard, then the stock from the top."""
        st = self.state
        n = int(st.ints[S.I_STOCK_N])
        return (os_cards(st.masks[S.M_HAND + self.first]) + os_cards(st.masks[S.M_HAND + 1 - self.first])
                + [os_card_of_id(int(S.pile_view(st)[0]))] + [os_card_of_id(int(S.stock_view(st)[k])) for k in range(n - 1, -1, -1)])

    def stock_top_to(self, c):
        """Put OpenSpiel card ``c`` (still in the stock) on top: the order of unseen cards is free."""
        st, n, card = self.state, int(self.state.ints[S.I_STOCK_N]), id_of_os_card(c)
        k = [int(S.stock_view(st)[i]) for i in range(n)].index(card)
        S.stock_view(st)[k], S.stock_view(st)[n - 1] = S.stock_view(st)[n - 1], S.stock_view(st)[k]

    def stock_os(self):
        st = self.state
        return sorted(os_card_of_id(int(S.stock_view(st)[k])) for k in range(int(st.ints[S.I_STOCK_N])))

    def legal(self):
        n = MV.legal_moves(self.state, self.out)
        return self.out[:n].tolist()

    @property
    def phase(self):
        return int(self.state.ints[S.I_PHASE])

    @property
    def seat(self):
        return int(self.state.ints[S.I_SEAT])

    def hand(self, seat):
        return os_cards(self.state.masks[S.M_HAND + seat])

    def taken(self):
        """The OpenSpiel card taken from the discard pile this turn, or None."""
        t = int(self.state.ints[S.I_TAKEN])
        return os_card_of_id(t) if t >= 0 else None

    def upcard(self):
        st = self.state
        return os_card_of_id(int(S.pile_view(st)[int(st.ints[S.I_PILE_N]) - 1]))

    def returns(self):
        """OpenSpiel's returns of this finished hand: the winner + points, the loser - points (a
        knock with equal deadwood, ruling 3.17: the knocker wins 0, so 0-0; no winner: 0-0)."""
        ints = self.state.ints
        r = [0.0, 0.0]
        if ints[S.I_WINNER] >= 0:
            w = (int(ints[S.I_WINNER]) - self.first) % 2
            r[w] = float(ints[S.I_POINTS])
            r[1 - w] = -float(ints[S.I_POINTS])
        return r

    def outcome(self):
        """How the finished hand ended, in words."""
        ints = self.state.ints
        o = int(ints[S.I_OUTCOME])
        if o == OUT_WIN:
            if ints[S.I_GIN]:
                return "gin"
            if ints[S.I_UNDERCUT]:
                return "undercut"
            return "knock, equal deadwood (3.17)" if ints[S.I_POINTS] == 0 else "knock"
        return {OUT_STALEMATE_STOCK: "wall pass", OUT_TURN_LIMIT: "50th upcard"}.get(o, f"outcome {o}")


# ------------------------------------------------------------------ the rulings
class Mismatch(AssertionError):
    """A difference between OpenSpiel and rummysim that no ruling explains."""


def _best_discard(u, hand11, allowed):
    """The least deadwood (OpenSpiel's exact count of ``hand_size`` cards) that a discard among
    ``allowed`` leaves."""
    return min(u.min_deadwood([x for x in hand11 if x != c]) for c in allowed)


def ruling_3_14_discard(phase, only_os_cards, taken):
    """3.14: OpenSpiel's discards hold the card just taken from the pile more."""
    return phase == S.PH_DISCARD and taken is not None and only_os_cards == {taken}


def ruling_3_14_knock_discard(u, phase, only_os_cards, taken, hand, knock_card):
    """3.14: after a knock, OpenSpiel's legal discards hold the taken card more (when its discard
    keeps the knocker within the knock card, OpenSpiel's ``legal_discards``)."""
    return (phase == S.PH_KNOCK_DISCARD and taken is not None and only_os_cards == {taken}
            and taken in u.legal_discards(hand, knock_card))


def ruling_3_14_knock(u, hand11, taken, knock_card):
    """3.14: OpenSpiel offers a knock (its 11-card deadwood within the knock card) although only the
    discard of the taken card gets there: every other discard leaves more than the knock card."""
    others = [c for c in hand11 if c != taken]
    return (taken is not None and u.min_deadwood(hand11) <= knock_card
            and u.min_deadwood(others) <= knock_card and _best_discard(u, hand11, others) > knock_card)


def ruling_3_15_knock(u, hand11, taken, knock_card):
    """3.15: OpenSpiel's 11-card deadwood is above the knock card, but a discard allowed here (not
    the taken card, 3.14) leaves at most the knock card: rummysim offers the knock, OpenSpiel not."""
    allowed = [c for c in hand11 if c != taken]
    return u.min_deadwood(hand11) > knock_card and _best_discard(u, hand11, allowed) <= knock_card


def ruling_3_15_knock_openspiel_lower(u, hand11, knock_card):
    """3.15, the other way: OpenSpiel's shortcut counts 0 for a hand of ``hand_size + 1`` cards all in
    melds of three (possible when ``hand_size`` is 2, 5 or 8), although every discard breaks a meld;
    it offers a knock that no discard allows (and then has no legal knock discard: OpenSpiel's
    ``legal_discards`` is empty). rummysim offers no knock."""
    return (u.min_deadwood(hand11) <= knock_card and _best_discard(u, hand11, hand11) > knock_card
            and not u.legal_discards(hand11, knock_card))


def book_layoffs(meld_ids, layoffs):
    """The cards that extend the knocker's melds ``meld_ids`` (OpenSpiel meld numbers) after the
    lay-offs ``layoffs`` (in the order laid), by the book (3.16): a 3-card set takes its 4th card, a
    run any card next to either end of the run as extended so far; a card extends every meld it fits."""
    out = set()
    for mid in meld_ids:
        cards = set(U.int_to_meld[mid])
        is_set = len({c % 13 for c in cards}) == 1
        for c in layoffs:
            if c in _ends(cards, is_set):
                cards.add(c)
        out |= _ends(cards, is_set)
    return out


def _ends(cards, is_set):
    if is_set:
        r = next(iter(cards)) % 13
        return {13 * s + r for s in range(4)} - cards if len(cards) == 3 else set()
    lo, hi = min(cards), max(cards)
    return ({lo - 1} if lo % 13 > 0 else set()) | ({hi + 1} if hi % 13 < 12 else set())


def ruling_3_16_layoff(os_state, extra, hand):
    """3.16: every lay-off rummysim offers more is in the defender's hand, extends a knocker's run
    by the book and is past OpenSpiel's two cards per run end (``all_layoffs``)."""
    knocker = list(os_state.knocked()).index(True)
    melds, lay = os_state.layed_melds()[knocker], os_state.layoffs()
    book, theirs = book_layoffs(melds, lay), set(U.all_layoffs(melds, lay))
    return all(c in hand and c in book and c not in theirs for c in extra)


def explain(ours, os_state, only_os, only_ours):
    """Name the ruling of every action in which the two legal sets differ (OpenSpiel numbering):
    ``{action: ruling}``; raise ``Mismatch`` when a difference has none."""
    phase, taken, kc = ours.phase, ours.taken(), int(ours.state.ints[S.I_KNOCK_CARD])
    hand = ours.hand(ours.seat)
    u = utils(int(ours.rules[S.R_HAND_SIZE]))
    named = {}
    os_cards_only = {a for a in only_os if a < 52}
    if os_cards_only:
        if ruling_3_14_discard(phase, os_cards_only, taken):
            named.update(dict.fromkeys(os_cards_only, "3.14 discard"))
        elif ruling_3_14_knock_discard(u, phase, os_cards_only, taken, hand, kc):
            named.update(dict.fromkeys(os_cards_only, "3.14 knock discard"))
    if KNOCK in only_os or KNOCK in only_ours:
        if phase == S.PH_DISCARD:
            hand11, where = hand, "knock"
        elif phase == S.PH_WALL:
            taken = ours.upcard()
            hand11, where = sorted(hand + [taken]), "wall knock"
        else:
            hand11 = None
        if hand11 is not None and KNOCK in only_os and ruling_3_14_knock(u, hand11, taken, kc):
            named[KNOCK] = "3.14 " + where
        elif hand11 is not None and KNOCK in only_os and ruling_3_15_knock_openspiel_lower(u, hand11, kc):
            named[KNOCK] = f"3.15 {where} (OpenSpiel's count lower)"
        if hand11 is not None and KNOCK in only_ours and ruling_3_15_knock(u, hand11, taken, kc):
            named[KNOCK] = "3.15 " + where
    ours_cards_only = {a for a in only_ours if a < 52}
    if ours_cards_only and phase == S.PH_LAYOFF and ruling_3_16_layoff(os_state, ours_cards_only, hand):
        named.update(dict.fromkeys(ours_cards_only, "3.16 lay-off"))
    left = (set(only_os) | set(only_ours)) - set(named)
    if left:
        raise Mismatch(f"no ruling for {sorted(left)}")
    return named


# ------------------------------------------------------------------ policies (rummysim numbering)
def uniform(rng, ours, choices):
    return rng.choice(choices)


def knock_seeking(rng, ours, choices):
    """Knocks often (so that knocks, gins, undercuts and lay-offs are common), as the research's
    greedy policy: knock with probability 0.4 when it may, else discard to least deadwood, take an
    upcard that makes a meld; uniform in the knock and lay-off phases and 10 % of the time."""
    phase = ours.phase
    if rng.random() < 0.1 or phase in (S.PH_KNOCK_DISCARD, S.PH_KNOCK_MELD, S.PH_LAYOFF, S.PH_DEFENDER_MELD):
        return rng.choice(choices)
    if KNOCK in choices and rng.random() < 0.4:
        return KNOCK
    st = ours.state
    hand = st.masks[S.M_HAND + ours.seat]
    if phase == S.PH_DISCARD:
        cards = [a for a in choices if a < 52]
        dw = [MV.deadwood(st, hand & ~np.uint64(1 << MV.card_of_index(a))) for a in cards]
        best = min(dw)
        return rng.choice([a for a, d in zip(cards, dw) if d == best])
    if DRAW_UPCARD in choices:
        up = np.uint64(1 << id_of_os_card(ours.upcard()))
        n = EM.list_melds(hand | up, False, ours.buf)
        if any(ours.buf[k] & up for k in range(n)):
            return DRAW_UPCARD
        return DRAW_STOCK if DRAW_STOCK in choices else PASS
    return rng.choice(choices)


POLICIES = {"uniform": uniform, "knock-seeking": knock_seeking}


# ------------------------------------------------------------------ the driver
class Tally:
    """What a run saw: hands by outcome, uses of each ruling, hands stopped by a ruling."""

    def __init__(self):
        self.outcomes = collections.Counter()
        self.rulings = collections.Counter()
        self.stopped = collections.Counter()
        self.decisions = 0

    def __repr__(self):
        return (f"{self.decisions} decisions; outcomes {dict(self.outcomes)}; rulings {dict(self.rulings)}; "
                f"stopped {dict(self.stopped)}")


def os_game(gin_rules: GinRules):
    """OpenSpiel's gin_rummy with the same options, and its initial state (cloned per hand: making a
    new one costs 1.5 ms)."""
    game = pyspiel.load_game("gin_rummy", {"knock_card": gin_rules.knock_card, "gin_bonus": gin_rules.gin_bonus,
                                           "undercut_bonus": gin_rules.undercut_bonus,
                                           "oklahoma": gin_rules.oklahoma,
                                           "hand_size": gin_rules.hand_size})
    return game, game.new_initial_state()


def play_hand(game, ours, driver, policy, rng, tally, tag, deal=None, script=(), sweep=False):
    """Play one hand in OpenSpiel and rummysim together, comparing at every decision; returns how it
    ended (``Ours.outcome``, or "stopped").

    ``driver`` "openspiel": OpenSpiel draws the deal and every stock card from its chance outcomes
    (uniform, ``rng``; ``deal`` = the 21 OpenSpiel cards to force instead) and rummysim is set to
    the same deal, its starter a random seat (the stock card OpenSpiel draws is put on top of
    rummysim's stock, whose unseen order is free); the move is chosen among OpenSpiel's legal moves
    less those a ruling excludes (= the moves legal in both).
    ``driver`` "rummysim": ``ours`` holds the deal already (``Ours.deal``, ``Ours.set_position``)
    and OpenSpiel's chance nodes are forced to it; the move is chosen among rummysim's legal moves,
    and a move OpenSpiel does not have (a ruling's) stops following the hand there (counted in
    ``tally.stopped`` by ruling).
    ``script``: OpenSpiel actions played first (each must be legal in rummysim), then ``policy``.
    ``sweep``: also check ``moves.is_legal`` of every action number against ``legal_moves``.
    At every decision: the player to act, the phase, the knock card and the two legal sets (through
    the translation; a difference must be a ruling's, ``explain``); at every stock draw, the stock;
    at the end, the returns, the hands left, the knocker and both deadwood counts.
    Raises ``Mismatch`` naming ``tag`` and the decision on any difference no ruling explains."""
    s = game[1].clone()
    n = 2 * game[0].get_parameters()["hand_size"] + 1
    if driver == "rummysim":
        for c in ours.deck_order()[:n]:
            s.apply_action(c)
    else:
        dealt = []
        for k in range(n):
            c = deal[k] if deal is not None else rng.choice([a for a, _ in s.chance_outcomes()])
            dealt.append(c)
            s.apply_action(c)
        rest = sorted(set(range(52)) - set(dealt))
        h = n // 2
        ours.set_position(rng.randrange(2) if deal is None else 0, dealt[:h], dealt[h:2 * h], dealt[2 * h], rest)
    first = ours.first
    ints = ours.state.ints
    script = list(script)
    decision = 0
    wall_knock = False

    def fail(why):
        raise Mismatch(f"{tag}, decision {decision} ({PHASE_NAMES.get(ours.phase)}, seat {ours.seat}, "
                       f"OpenSpiel player {s.current_player()}): {why}\n  history (OpenSpiel actions): "
                       f"{list(s.history())}\n  hands (starter, dealer): "
                       f"{[card_names(ours.hand(q)) for q in (first, 1 - first)]}")

    while True:
        over = ours.phase == S.PH_OVER
        if s.is_terminal() or over:
            if not (s.is_terminal() and over):
                fail(f"OpenSpiel over {s.is_terminal()}, rummysim over {over}")
            if sweep and (ours.legal() or any(MV.is_legal(ours.state, a) for a in range(-1, MV.NUM_ACTIONS + 1))):
                fail("a legal move after the end")
            if [float(x) for x in s.returns()] != ours.returns():
                fail(f"returns: OpenSpiel {list(s.returns())}, rummysim {ours.returns()} "
                     f"(winner {ints[S.I_WINNER]}, points {ints[S.I_POINTS]})")
            if [sorted(h) for h in s.hands()] != [ours.hand(first), ours.hand(1 - first)]:
                fail(f"hands left: OpenSpiel {s.hands()}")
            out = ours.outcome()
            knocked = list(s.knocked())
            if out in ("knock", "gin", "undercut", "knock, equal deadwood (3.17)"):
                k = (int(ints[S.I_KNOCKER]) - first) % 2
                dw = list(s.deadwood())
                if knocked != [k == 0, k == 1] or dw[k] != ints[S.I_KNOCKER_DEADWOOD] \
                        or dw[1 - k] != ints[S.I_DEFENDER_DEADWOOD]:
                    fail(f"knocker/deadwood: OpenSpiel {knocked} {dw}, rummysim knocker {ints[S.I_KNOCKER]} "
                         f"{ints[S.I_KNOCKER_DEADWOOD]} {ints[S.I_DEFENDER_DEADWOOD]}")
                tally.outcomes["(knocked at the wall)"] += wall_knock
                tally.outcomes["(with lay-offs)"] += bool(ints[S.I_LAID_OFF_SEAT] + ints[S.I_LAID_OFF_SEAT + 1])
            elif any(knocked):
                fail(f"OpenSpiel knocked {knocked}, rummysim: {out}")
            tally.outcomes[out] += 1
            return out
        if s.current_player() != (ours.seat - first) % 2:
            fail("the player to act differs")
        if ours.phase not in PHASES[s.current_phase().name]:
            fail(f"phase: OpenSpiel {s.current_phase().name}")
        if ints[S.I_KNOCK_CARD] != s.knock_card():
            fail(f"knock card: OpenSpiel {s.knock_card()}")
        os_legal = sorted(s.legal_actions())
        mine = ours.legal()
        if sweep:
            accepted = [a for a in range(-1, MV.NUM_ACTIONS + 1) if MV.is_legal(ours.state, a)]
            if accepted != mine:
                fail(f"is_legal accepts {accepted}, legal_moves lists {mine}")
        mine_os = sorted(OS_ACTION[a] for a in mine)
        named = {}
        if os_legal != mine_os:
            if sorted(s.hands()[s.current_player()]) != ours.hand(ours.seat):
                fail(f"hands differ: OpenSpiel {s.hands()}")
            only_os, only_ours = set(os_legal) - set(mine_os), set(mine_os) - set(os_legal)
            try:
                named = explain(ours, s, only_os, only_ours)
            except Mismatch as e:
                fail(f"legal moves differ, {e}\n  OpenSpiel: {os_legal}\n  rummysim:  {mine_os}"
                     f"\n  only OpenSpiel: {[s.action_to_string(s.current_player(), a) for a in sorted(only_os)]}"
                     f"\n  only rummysim:  {sorted(only_ours)}")
            for ruling in set(named.values()):
                tally.rulings[ruling] += 1
            for a in only_os:
                if MV.is_legal(ours.state, OUR_ACTION[a]):
                    fail(f"is_legal accepts {a} (OpenSpiel's), legal_moves does not list it")
        if script:
            a = OUR_ACTION[script.pop(0)]
            if a not in mine:
                fail(f"scripted action {OS_ACTION[a]} is not legal in rummysim")
        else:
            choices = mine if driver == "rummysim" else [OUR_ACTION[x] for x in os_legal if x not in named]
            a = policy(rng, ours, choices)
        if OS_ACTION[a] in named:
            tally.stopped[named[OS_ACTION[a]]] += 1
            return "stopped"
        if not MV.is_legal(ours.state, a):
            fail(f"is_legal refuses {a}, which legal_moves lists")
        wall_knock |= ours.phase == S.PH_WALL and a == KNOCK
        s.apply_action(OS_ACTION[a])
        if s.is_chance_node():              # a draw from the stock: the same card in both
            outcomes = sorted(x for x, _ in s.chance_outcomes())
            if outcomes != ours.stock_os():
                fail(f"OpenSpiel's stock {outcomes} is not rummysim's {ours.stock_os()}")
            if driver == "rummysim":
                c = os_card_of_id(int(S.stock_view(ours.state)[int(ints[S.I_STOCK_N]) - 1]))
            else:
                c = rng.choice(outcomes)
                ours.stock_top_to(c)
            s.apply_action(c)
        MV.apply(ours.state, a)
        tally.decisions += 1
        decision += 1


def run(gin_rules, driver, policy, hands, seed, tally=None, sweep=0):
    """Play ``hands`` hands (see ``play_hand``; the first ``sweep`` of them with ``sweep``) with
    ``random.Random(seed)``, the "rummysim" driver dealing game h's first hand
    (``kernel.start_hand(seed, h, 0)``, so the starter alternates); returns the ``Tally``."""
    tally = tally if tally is not None else Tally()
    game, ours = os_game(gin_rules), Ours(gin_rules)
    rng = random.Random(seed)
    pol = POLICIES[policy]
    for h in range(hands):
        tag = f"driver {driver}, policy {policy}, {gin_rules}, seed {seed}, hand {h}"
        if driver == "rummysim":
            tag += f" (kernel.start_hand(seed={seed}, game={h}, hand=0))"
        if driver == "rummysim":
            ours.deal(seed, h)
        play_hand(game, ours, driver, pol, rng, tally, tag, sweep=h < sweep)
    return tally
