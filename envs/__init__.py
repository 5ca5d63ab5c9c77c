"""Gymnasium and PettingZoo environments (arrive with issue 6)."""
