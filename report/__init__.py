"""Seeing results: failure attribution (and, to come, the HTML report and the leaderboard)."""
