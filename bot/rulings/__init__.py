"""The rulebook behind `/ruling`: the rules corpus parsed into passages, segmented with Japanese
morphological analysis and indexed in SQLite (each term's passages by their BM25F weight; FTS5 for
quoted phrases), and searched from Japanese or English questions.

Entry point: `Rulebook.open(cache_dir, rules_dir)` (bot/rulings/search.py), then `rulebook.search(question)`.
"""
