"""The event log every variant's rules layer writes for replays: one int16 row per event, ``kind``
(``codes.EV_*``), player, card, meld, the count of cards that follow, the cards from column
``EV_CARDS`` (what they are per kind: the variant's ``moves``). A state that logs nothing has a log of
no rows, so the writers below return at once."""

from numba import njit

#: the first column of an event row's cards; column 4 holds how many follow
EV_CARDS = 5


@njit(cache=True, inline="always")
def open_event(ev, n_ev, kind, player, card, meld):
    """Start an event row at ``n_ev[0]`` of ``ev`` int16[rows, width]: its index, or -1 when the log
    is full or has no rows (not logging). The caller writes the cards, then ``close_event``."""
    i = n_ev[0]
    if i >= ev.shape[0]:
        return -1
    ev[i, 0] = kind
    ev[i, 1] = player
    ev[i, 2] = card
    ev[i, 3] = meld
    return i


@njit(cache=True, inline="always")
def close_event(ev, n_ev, i, n):
    """Finish event row ``i`` with its ``n`` cards written: the log now holds it."""
    ev[i, 4] = n
    n_ev[0] = i + 1
