"""`referee ruling QUESTION`: quote the rules passages that decide a question, with their sources."""

from __future__ import annotations

import argparse
from typing import Any

from bot.i18n import t
from bot.paths import data_folder
from bot.rulings.cards import MAX_CARDS, card_notes
from bot.rulings.corpus import load_asked, load_chatter, load_corpus
from bot.rulings.errors import RulingsError
from bot.rulings.query import check_readable
from bot.rulings.render import answer_json, render_answer
from bot.rulings.search import Rulebook
from bot.settings import Settings

MAX_K = 20


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "ruling",
        help="ルールの記述を引用して答える / quote the rules passages that answer a question",
        description="ルールの記述を出典つきで引用して答えます / quotes the rules passages that answer a question",
    )
    parser.add_argument("question", nargs="?", default="", metavar="QUESTION", help="質問 / the question (ja or en)")
    parser.add_argument("--json", action="store_true", help="JSON で出力 / print one JSON object")
    parser.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    parser.add_argument("-k", type=int, default=3, help=f"表示する件数 1-{MAX_K} / how many results (default 3)")
    parser.add_argument("--game", default=None, help="ゲームで絞り込む / only this game (horizonnotes, lorcana)")
    parser.add_argument(
        "--card",
        action="append",
        default=[],
        metavar="NAME",
        help=f"カードを質問に加える（{MAX_CARDS} 枚まで） / add a card from cards/ to the question (up to {MAX_CARDS})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="コーパスを検査して配置できない行を報告 / report lines the parser could not place",
    )
    parser.set_defaults(func=ruling)


def _check(args: argparse.Namespace, settings: Settings) -> int:
    rules_dir = data_folder("rules", settings.rules_dir)
    documents, _ = load_corpus(rules_dir)
    load_asked(rules_dir, documents)  # a broken asked.toml or chatter.toml is reported here, not at the first question
    load_chatter(rules_dir)
    locale = args.locale or settings.default_locale
    unplaced = [u for d in documents for u in d.unplaced]
    counts = {
        "documents": len(documents),
        "passages": sum(len(d.passages) for d in documents),
        "glossary": sum(len(d.glossary) for d in documents),
    }
    if not unplaced:
        print(t("rulings.check_ok", locale, **counts))
        return 0
    print(t("rulings.check_problems", locale, count=len(unplaced), **counts))
    for u in unplaced:
        print(t("rulings.check_line", locale, document=u.document, line=u.line, reason=u.reason, text=u.text))
    return 1


def ruling(args: argparse.Namespace, settings: Settings) -> int:
    if args.check:
        return _check(args, settings)
    question = str(args.question)
    check_readable(question)
    if not question.strip():
        raise RulingsError("rulings.empty_question")
    if not 1 <= args.k <= MAX_K:
        raise RulingsError("rulings.bad_k", k=args.k, max=MAX_K)
    cards = card_notes(args.card, cards_dir=settings.cards_dir)
    rules_dir = data_folder("rules", settings.rules_dir)
    rulebook = Rulebook.open(settings.cache_dir, rules_dir)
    try:
        if not rulebook.documents:  # a misplaced corpus, not a question the rules are silent on
            raise RulingsError("rulings.empty_corpus", path=rules_dir)
        games = sorted({d.game for d in rulebook.documents.values()})
        if args.game is not None and args.game not in games:
            raise RulingsError("rulings.unknown_game", game=args.game, known=", ".join(games))
        answer = rulebook.search(question, k=args.k, game=args.game, cards=cards)
    finally:
        rulebook.close()
    print(answer_json(answer) if args.json else render_answer(answer, args.locale or settings.default_locale))
    return 0
