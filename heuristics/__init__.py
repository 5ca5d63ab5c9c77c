"""Board evaluators with named, tunable weights (arrives with issue 3)."""
