"""Statistics over results: duplicate-deal comparisons, the rating list, sweeps, tuning, saved-result tables
(the intervals and summaries they print are ``rummysim.base.intervals`` and ``rummysim.base.summary``)."""
