"""A game in play for the environments: one class per variant with the same calls (``reset``,
``seat``, ``legal``, ``observe``, ``play``, ``bot_move``), over the compiled rules layer.

A game is numbered like ``rummysim run``'s: ``reset(seed, game)`` deals what ``run --seed seed``
deals for game index ``game`` (hand after hand, Shanghai round after round), so a game played by
the shipped strategies through these calls gives ``run``'s rows (``tests/test_env.py``).
"""

from __future__ import annotations

import numpy as np

from ..rules import rules_from_mapping
from ..run import UsageError
from ..strategy import params_matrix, seat_strategies
from ..variants import variant_named

EPISODES = {"basic": ("game", "hand"), "shanghai": ("game",)}
REWARDS = ("points", "win")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise UsageError(f"reward = {reward!r}: allowed {', '.join(map(repr, REWARDS))}")
    return reward


def new_seed() -> int:
    """A fresh seed when none is given (0 .. 2**63 - 1)."""
    return int(np.random.SeedSequence().entropy % 2**63)


def resolve_rules(variant: str, rules, players: int):
    """The rules object of ``variant`` from None (defaults), a dict of options or a rules object."""
    v = variant_named(variant)
    if rules is None:
        rules = v.rules()
    elif isinstance(rules, dict):
        rules = rules_from_mapping(rules, variant=variant)
    if not isinstance(rules, v.rules):
        raise UsageError(f"rules: allowed a {v.rules.__name__}, a dict of rule options or None")
    low, high, _ = v.players
    if not isinstance(players, (int, np.integer)) or not low <= players <= high:
        raise UsageError(f"players = {players!r}: {v.title} takes {low} to {high}")
    rules.check_players(players)
    return rules


def strategy_params(variant: str, names, players: int) -> np.ndarray:
    """float64[players, N] parameters of the named strategies (one name for every seat, or one per seat)."""
    return params_matrix(seat_strategies(list(names), players, variant))


class MovesAsText:
    """The game in words for language-model agents (``rummysim.notation``, the notation ``rummysim play``
    uses): what a seat sees, the legal moves' names, a name back to its action."""

    def describe(self, seat: int) -> str:
        from .. import notation
        return notation.describe(self.state, seat, totals=self.scores, taken=self.taken_text())

    def legal_move_names(self) -> list[str]:
        """The names of the seat to act's legal moves, in ``legal()`` order."""
        from .. import notation
        return [name for _, name in notation.legal_move_names(self.state)] if not self.over else []

    def parse_move(self, text: str) -> int:
        """The action ``text`` names for the seat to act; ``notation.MoveError`` (one line) if none."""
        from .. import notation
        if self.over:
            raise notation.MoveError("the episode is over")
        return notation.parse_move(self.state, text)

    def taken_text(self):
        """What ``notation.describe`` is given of the cards each seat took from the pile and still holds."""
        raise NotImplementedError


class BasicGame(MovesAsText):
    """A Basic Rummy game to the target (``episode="game"``) or one hand (``episode="hand"``)."""

    variant = "basic"

    def __init__(self, players: int = 2, rules=None, episode: str = "game"):
        from ..variants.basic import bots, kernel, melds, moves
        from . import basic_core as C
        if episode not in EPISODES["basic"]:
            raise UsageError(f"episode = {episode!r}: allowed {', '.join(map(repr, EPISODES['basic']))}")
        self.players, self.episode, self.C, self.moves, self.kernel, self.bots = players, episode, C, moves, kernel, bots
        self.rules = resolve_rules("basic", rules, players)
        self.target = self.rules.target_for(players)
        self.num_actions = moves.NUM_ACTIONS
        self.obs_size = C.obs_size(players)
        self.ib, self.ub = np.zeros(C.IB_SIZE, dtype=np.int64), np.zeros(C.UB_SIZE, dtype=np.uint64)
        self.state, self.known, self.scores, self.legal_buf, self.rngs = C.packed_views(self.ib, self.ub, players)
        self.state.ints[self.C.I_PLAYERS] = players
        self.state.rules[:] = self.rules.to_array(players)
        self.state.card_value[:] = melds.CARD_VALUE
        self.scratch = (*bots.new_scratch(players)[:5], self.rngs)   # the bots' streams: the packed game's
        self.n_legal = 0
        self.unit_rows = (np.zeros(kernel.HAND_COLS, dtype=np.int32),
                          np.zeros((players, kernel.SEAT_COLS), dtype=np.int32))
        self.over = False
        self.units_done = 0   # hands (rounds) finished since the game began; ``unit_rows``: the last one's rows

    def reset(self, seed: int, game: int) -> None:
        self.seed, self.game, self.hand = seed, game, 0
        self.scores[:] = 0
        self.over = False
        self.units_done = 0
        self._deal()

    def _deal(self) -> None:
        self.n_legal = self.C.deal(self.state, self.known, self.seed, self.game, self.hand, self.rngs,
                                   self.legal_buf)

    @property
    def seat(self) -> int:
        """The seat to act."""
        return int(self.state.ints[self.C.I_SEAT])

    def legal(self) -> np.ndarray:
        """The legal moves of the seat to act (int64, in ``legal_moves`` order; empty once over)."""
        return self.legal_buf[:self.n_legal]

    def observe(self, seat: int, out: np.ndarray) -> None:
        self.C.observe_packed(self.ib, self.ub, seat, out)

    def play(self, move: int):
        """Play the seat to act's legal ``move``. Returns each seat's points of the hand it ended
        (int64[players]) or None; ``self.over`` says whether the episode ended."""
        self.n_legal = self.C.step_packed(self.ib, self.ub, move)
        if self.n_legal:
            return None
        points = np.zeros(self.players, dtype=np.int64)
        self.moves.scores(self.state, points)
        self.kernel.result_rows(self.state, *self.unit_rows)
        self.units_done += 1
        self.scores += points
        self.over = (self.episode == "hand" or self.scores.max() >= self.target
                     or self.hand + 1 >= self.kernel.MAX_HANDS_PER_GAME)
        if not self.over:
            self.hand += 1
            self._deal()
        return points

    def winners(self) -> list[int]:
        """The episode's winner as a list (none after a stalemate hand or the hands cap); a game's
        winner is the first seat with the highest score, as in ``rummysim run``."""
        if self.episode == "hand":
            w = int(self.state.ints[self.C.I_WINNER])
            return [w] if w >= 0 else []
        top = int(np.argmax(self.scores))
        return [top] if self.scores[top] >= self.target else []

    def taken_text(self) -> list[int]:
        """Card masks per seat (``known``, less what is on the table): the state's own record of the takes
        (``M_PICKED``) still names a card taken, thrown, reshuffled and drawn again unseen."""
        table = int(self.state.masks[self.C.M_TABLE])
        return [int(k) & ~table for k in self.known]

    def bot_move(self, params: np.ndarray) -> int:
        """The move the driver of ``rummysim run`` plays: the forced draw, else ``bots.choose``."""
        move = self.moves.forced_move(self.state)
        return int(move if move >= 0 else self.bots.choose(self.state, params, self.seat, self.scratch))


class ShanghaiGame(MovesAsText):
    """A Shanghai Rummy game of ten rounds (``episode="game"``); scores are penalty points."""

    variant = "shanghai"

    def __init__(self, players: int = 4, rules=None, episode: str = "game"):
        from ..variants.shanghai import bots, kernel, moves
        from ..variants.shanghai.state import ROUNDS
        from . import shanghai_core as C
        if episode not in EPISODES["shanghai"]:
            raise UsageError(f"episode = {episode!r}: allowed {', '.join(map(repr, EPISODES['shanghai']))}")
        self.players, self.episode, self.C, self.kernel, self.rounds = players, episode, C, kernel, ROUNDS
        self.moves, self.bots = moves, bots
        self.rules = resolve_rules("shanghai", rules, players)
        self.num_actions = moves.NUM_ACTIONS
        self.obs_size = C.obs_size(players)
        self.state = moves.new_state(players, self.rules.to_array(players),
                                     np.empty((0, moves.EV_WIDTH), dtype=np.int16))
        self.scratch = bots.new_scratch(players)
        self.known = np.zeros((players, 64), dtype=np.int64)
        self.table_before = np.zeros(64, dtype=np.int64)
        self.table_after = np.zeros(64, dtype=np.int64)
        self.legal_buf = np.empty(moves.MAX_LEGAL, dtype=np.int64)
        self.n_legal = 0
        self.scores = np.zeros(players, dtype=np.int64)
        self.unit_rows = (np.zeros(kernel.ROUND_COLS, dtype=np.int32),
                          np.zeros((players, kernel.SEAT_COLS), dtype=np.int32))
        self.over = False
        self.units_done = 0   # hands (rounds) finished since the game began; ``unit_rows``: the last one's rows

    def reset(self, seed: int, game: int) -> None:
        self.seed, self.game, self.round = seed, game, 1
        self.scores[:] = 0
        self.over = False
        self.units_done = 0
        self._deal()

    def _deal(self) -> None:
        self.n_legal = self.C.start(self.state, self.scratch, self.known, self.seed, self.game, self.round,
                                    self.legal_buf)

    @property
    def seat(self) -> int:
        return int(self.state.ints[self.C.I_SEAT])

    def legal(self) -> np.ndarray:
        return self.legal_buf[:self.n_legal]

    def observe(self, seat: int, out: np.ndarray) -> None:
        self.C.observe(self.state, self.known, self.scores, seat, out)

    def play(self, move: int):
        """Play the seat to act's legal ``move``. Returns each seat's penalty points of the round it
        ended (int64[players]) or None; ``self.over`` says whether the game ended."""
        self.n_legal = self.C.step(self.state, self.known, move, self.legal_buf, self.table_before,
                                   self.table_after)
        if self.state.ints[self.C.I_PHASE] != self.C.PH_OVER:
            return None
        points = np.zeros(self.players, dtype=np.int64)
        self.moves.scores(self.state, points)
        self.kernel.fill_rows(self.state, *self.unit_rows)
        self.units_done += 1
        self.scores += points
        self.over = self.round >= self.rounds
        if not self.over:
            self.round += 1
            self._deal()
        return points

    def winners(self) -> list[int]:
        """The seats with the lowest total (ties share the win, rules 2.7)."""
        return [int(q) for q in np.flatnonzero(self.scores == self.scores.min())]

    def taken_text(self) -> dict[int, list[int]]:
        """Per seat, the cards known to be in its hand (taken as the upcard or bought, not shown since)."""
        return {q: [c for c in range(64) for _ in range(int(self.known[q, c]))] for q in range(self.players)}

    def bot_move(self, params: np.ndarray) -> int:
        """The move the driver of ``rummysim run`` plays (``bots.choose``)."""
        return int(self.bots.choose(self.state, params, self.seat, self.scratch))


GAMES = {"basic": BasicGame, "shanghai": ShanghaiGame}


def new_game(variant: str, players: int, rules=None, episode: str = "game"):
    if variant not in GAMES:
        raise UsageError(f"variant = {variant!r}: allowed {', '.join(map(repr, GAMES))}")
    return GAMES[variant](players, rules, episode)

