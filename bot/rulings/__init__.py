"""The rulebook behind `/ruling`: the rules corpus parsed into passages, indexed with SQLite FTS5 over
Japanese morphological segmentation, and searched from Japanese or English questions.

Entry point: `Rulebook.open(settings)` (bot/rulings/rulebook.py), then `rulebook.search(question)`.
"""
