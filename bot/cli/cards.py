"""`referee cards check|show|list|schema`: validate, look up and document the card data."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.catalog import Catalog, CatalogError, Deck, UnknownCard, load_catalog
from bot.catalog.cards import CARD_TYPES, Card
from bot.catalog.describe import describe_card
from bot.catalog.loader import Loader, TomlUnreadable, is_deck_file, read_toml
from bot.catalog.names import normalize_name
from bot.catalog.schema import stale_schemas, write_schemas
from bot.i18n import bilingual, t
from bot.paths import data_folder
from bot.settings import Settings


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "cards",
        help="カードデータの検証と表示 / check and show card data",
        description="カードとデッキのデータ (cards/) / the card and deck data (cards/)",
    )
    commands = parser.add_subparsers(dest="cards_command", required=True, metavar="SUBCOMMAND")

    check = commands.add_parser(
        "check",
        help="カード・デッキファイルを検証 / validate card and deck files",
        description="フォルダかファイルを検証し、問題をすべて表示する / validate a folder or file "
        "and list every problem with file, card and field",
    )
    # str, not Path: Path("") would quietly mean the current folder
    check.add_argument("path", nargs="?", help="フォルダかファイル (既定: カードフォルダ) / folder or file")
    check.add_argument("--cards", type=Path, help="デッキを照合するカードフォルダ / cards folder for a deck file")
    check.set_defaults(func=run_check)

    show = commands.add_parser("show", help="カードを表示 / print a card (or a deck)")
    show.add_argument("name", nargs="+", help="id、日本語名、英語名 / id, Japanese or English name")
    show.add_argument("--cards", type=Path, help="カードフォルダ / cards folder")
    show.add_argument("--locale", choices=("ja", "en"), default=None, help="表示言語 / display language")
    show.set_defaults(func=run_show)

    listing = commands.add_parser("list", help="カードとデッキの一覧 / list cards and decks")
    listing.add_argument(
        "--type",
        dest="card_type",
        default=None,
        choices=(*CARD_TYPES, "deck"),
        help="種類で絞る / only this card type",
    )
    listing.add_argument("--cards", type=Path, help="カードフォルダ / cards folder")
    listing.set_defaults(func=run_list)

    schema = commands.add_parser("schema", help="JSON Schema を再生成 / regenerate cards/schema.json")
    schema.add_argument("--cards", type=Path, help="書き出すフォルダ / folder to write into")
    schema.add_argument("--check", action="store_true", help="書かずに最新か確かめる / only check it is current")
    schema.set_defaults(func=run_schema)


def _folder(args: argparse.Namespace, settings: Settings) -> Path:
    override: Path | None = args.cards or settings.cards_dir
    return data_folder("cards", override)


def _is_deck(path: Path) -> bool:
    """A deck file lives in a decks/ folder, or names a leader at its top level."""
    if is_deck_file(path):
        return True
    try:
        return "leader" in read_toml(path)
    except TomlUnreadable:
        return False  # the card-file path reports the reading problem


def run_check(args: argparse.Namespace, settings: Settings) -> int:
    if args.path is not None and not args.path.strip():
        print(bilingual("cards.check.empty_path"), file=sys.stderr)
        return 2
    target = Path(args.path) if args.path is not None else _folder(args, settings)
    if not target.exists():
        print(bilingual("cards.check.not_found", path=target), file=sys.stderr)
        return 2
    if not target.is_dir():
        try:  # a device, a pipe or a huge file is bad input, not a card problem: refused before reading on
            read_toml(target)
        except TomlUnreadable as exc:
            if exc.message_key.startswith("common.file."):
                print(exc.bilingual(), file=sys.stderr)
                return 2
    if target.is_dir():
        loader = Loader(target)
        loader.add_folder(target)
    elif _is_deck(target):
        root = args.cards or (target.parent.parent if is_deck_file(target) else _folder(args, settings))
        loader = Loader(root)
        for path in sorted(root.rglob("*.toml")):
            if not is_deck_file(path, root):
                loader.add_card_file(path)
        loader.add_deck_file(target)
    else:
        loader = Loader(target.parent)
        loader.add_card_file(target)
    problems = loader.check()
    if problems:
        print(CatalogError(problems).bilingual(), file=sys.stderr)
        return 1
    if target.is_dir():
        print(bilingual("cards.check.ok", cards=len(loader.cards), decks=len(loader.decks), path=target))
    else:
        print(bilingual("cards.check.ok_file", path=target))
    return 0


def _name(item: Card | Deck, locale: str) -> str:
    """The printed name in the reader's language (Japanese when there is no English name)."""
    return item.name_en if locale == "en" and item.name_en else item.name


def _deck_lines(deck: Deck, catalog: Catalog, locale: str) -> list[str]:
    def name(card_id: str) -> str:
        card = catalog.cards.get(card_id)
        return card_id if card is None else _name(card, locale)

    title = _name(deck, locale)
    lines = [t("cards.show.deck_heading", locale, name=title, id=deck.id, leader=name(deck.leader))]
    if deck.text:
        lines.append(deck.text)
    lines.append(t("cards.show.deck_arcastella", locale, names=", ".join(name(a) for a in deck.arcastella)))
    lines.extend(
        t("cards.show.deck_equipment", locale, wearer=name(e.arcastella), code=name(e.code)) for e in deck.equipment
    )
    lines.extend(t("cards.show.deck_entry", locale, count=e.count, name=name(e.id), id=e.id) for e in deck.cards)
    lines.append(t("cards.show.deck_size", locale, size=deck.size))
    return lines


def run_show(args: argparse.Namespace, settings: Settings) -> int:
    catalog = load_catalog(args.cards or settings.cards_dir)
    locale = args.locale or settings.default_locale
    name = " ".join(args.name).strip()
    if not normalize_name(name):  # an empty search would match every card
        print(bilingual("cards.show.empty_name"), file=sys.stderr)
        return 2
    card = catalog.find(name)
    deck = catalog.find_deck(name) if card is None else None
    if card is None and deck is None:  # an exact deck name wins over a card that merely contains it
        matches = catalog.search(name)
        if len(matches) > 1:
            names = ", ".join(f"{_name(m, locale)} ({m.id})" for m in matches)
            print(t("cards.show.candidates", locale, name=name, names=names), file=sys.stderr)
            return 1
        if not matches:
            print(UnknownCard(card=name).bilingual(), file=sys.stderr)
            print(bilingual("cards.show.see_list"), file=sys.stderr)
            return 2
        card = matches[0]
    if card is not None:
        item_id = card.id
        lines = [card.rules_text(), "", *describe_card(card, locale)]
    else:
        assert deck is not None
        item_id = deck.id
        lines = _deck_lines(deck, catalog, locale)
    source, notice = catalog.source(item_id), catalog.notice(item_id)
    if source:
        lines.append(t("cards.show.source", locale, file=source))
    if notice:
        lines.append(notice)
    print("\n".join(lines))
    return 0


def run_list(args: argparse.Namespace, settings: Settings) -> int:
    catalog = load_catalog(args.cards or settings.cards_dir)
    for card in sorted(catalog, key=lambda c: (c.type, c.id)):
        if args.card_type in (None, card.type):
            print(f"{card.type:<14} {card.id:<22} {card.name}" + (f" / {card.name_en}" if card.name_en else ""))
    if args.card_type in (None, "deck"):
        for deck in catalog.decks.values():
            print(f"{'deck':<14} {deck.id:<22} {deck.name}" + (f" / {deck.name_en}" if deck.name_en else ""))
    return 0


def run_schema(args: argparse.Namespace, settings: Settings) -> int:
    folder = _folder(args, settings)
    if args.check:
        stale = stale_schemas(folder)
        for path in stale:
            print(bilingual("cards.schema.stale", path=path), file=sys.stderr)
        if not stale:
            print(bilingual("cards.schema.current", path=folder))
        return 1 if stale else 0
    for path in write_schemas(folder):
        print(bilingual("cards.schema.written", path=path))
    return 0
