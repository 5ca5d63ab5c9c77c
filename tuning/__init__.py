"""Matches, statistics and the Optuna tuner (arrive with issue 7)."""
