"""The mistakes a user can make, each a ``ValueError`` whose message is one line saying what is wrong
and what is allowed. The command line prints ``rummysim: error: <message>`` and exits with 2; the
Python API raises them as they are."""


class UsageError(ValueError):
    """A bad argument to the Python API or the command line."""


class RuleError(UsageError):
    """A rule option that is unknown or has a bad value."""


class StrategyError(UsageError):
    """A strategy file or name that cannot be used."""


class MoveError(UsageError):
    """Text that is not a legal move now (``rummysim play``, the environments' ``parse_move``)."""


class UnknownVariant(UsageError):
    """A variant name that is not registered."""
