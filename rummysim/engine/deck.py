"""Dealing, shared by every variant (compiled)."""

from numba import njit


@njit(cache=True)
def dealer_of(game, hand, players):
    """Dealer of hand ``hand`` of game ``game``; the starter is the next seat."""
    return (game + hand + players - 1) % players
