"""Negamax alpha-beta search and agents (arrives with issue 4)."""
