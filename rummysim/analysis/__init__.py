"""Statistics over results: intervals, summaries, duplicate-deal comparisons, sweeps, saved-result tables."""
