"""/deck save|list|show|delete: a player's own decks, checked against the deck rules, shown only to them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.catalog import Catalog, Deck
from tests.discord.conftest import ALICE, BOB, Harness
from tests.discord.groups import group_payload


def typed(catalog: Catalog, deck: Deck, *, english: bool = False) -> str:
    def name(card_id: str) -> str:
        card = catalog.get(card_id)
        return card.name_en if english and card.name_en else card.name

    entries = [name(a) for a in deck.arcastella]  # the deck file's leader comes first in each shipped deck
    entries += [f"{name(e.code)} @ {name(e.arcastella)}" for e in deck.equipment]
    entries += [f"{e.count} {name(e.id)}" for e in deck.cards]
    return "、".join(entries)


async def decks(harness: Harness, sub: str, *, user: int = ALICE, locale: str = "ja", **options: Any) -> None:
    harness.recorder.clear()
    await harness.deliver(group_payload("deck", sub, options, user=user, locale=locale))


async def saved(harness: Harness, user: int = ALICE) -> list[str]:
    service = harness.bot.service
    return [d.name for d in await service.on_worker(service.store.decks.of_user, user)]


async def test_a_typed_deck_is_saved_and_only_its_owner_sees_it(harness: Harness, catalog: Catalog) -> None:
    deck = catalog.decks["tidal-veil"]
    assert deck.arcastella[0] == deck.leader
    await decks(harness, "save", name="潮", cards=typed(catalog, deck))
    [answer] = harness.recorder.messages()
    assert answer.ephemeral
    assert "デッキ「潮」を保存しました（30 枚）" in answer.text
    assert "リーダー: 水葉のミズハ" in answer.text and "3 × " in answer.text
    assert await saved(harness) == ["潮"]

    await decks(harness, "list", locale="en-US")
    [listing] = harness.recorder.messages()
    assert listing.ephemeral and "**潮** — leader Mizuha" in listing.text and "30 cards" in listing.text

    await decks(harness, "show", name="潮", locale="en-US")
    [shown] = harness.recorder.messages()
    assert shown.ephemeral and "Sephirot code: " in shown.text and "30 cards in the deck" in shown.text

    await decks(harness, "list", user=BOB)
    [other] = harness.recorder.messages()
    assert "保存したデッキはありません" in other.text
    await decks(harness, "show", user=BOB, name="潮")
    [refused] = harness.recorder.messages()
    assert refused.ephemeral and "「潮」" in refused.text


async def test_an_english_list_with_the_same_name_replaces_the_deck(harness: Harness, catalog: Catalog) -> None:
    await decks(harness, "save", name="water", cards=typed(catalog, catalog.decks["tidal-veil"]))
    await decks(harness, "save", name="ｗａｔｅｒ", cards=typed(catalog, catalog.decks["solar-vanguard"], english=True))
    [answer] = harness.recorder.messages()
    assert "デッキ「water」を置き換えました" in answer.text
    assert await saved(harness) == ["water"]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda t: t.replace("3 ", "2 ", 1), "The deck has 29 cards; it must have exactly 30."),
        (lambda t: t + "、3 Blazing Unicorn", "There is no card named “Blazing Unicorn”"),
        (lambda t: t.split("、", 1)[1], "exactly three different Arcastella; this list has 2"),
    ],
)
async def test_a_list_that_breaks_the_deck_rules_is_refused_and_nothing_is_saved(
    harness: Harness, catalog: Catalog, change: Any, says: str
) -> None:
    await decks(harness, "save", locale="en-US", name="bad", cards=change(typed(catalog, catalog.decks["tidal-veil"])))
    [answer] = harness.recorder.messages()
    assert answer.ephemeral and says in answer.text
    assert await saved(harness) == []


async def test_a_deck_is_deleted_and_deleting_it_again_says_there_is_none(harness: Harness, catalog: Catalog) -> None:
    await decks(harness, "save", name="潮", cards=typed(catalog, catalog.decks["tidal-veil"]))
    await decks(harness, "delete", name="潮")
    [answer] = harness.recorder.messages()
    assert answer.ephemeral and "デッキ「潮」を削除しました" in answer.text
    assert await saved(harness) == []
    await decks(harness, "delete", name="潮", locale="en-US")
    [again] = harness.recorder.messages()
    assert again.ephemeral and "You have no saved deck named “潮”." in again.text


async def test_show_and_delete_offer_only_the_askers_own_decks(harness: Harness, catalog: Catalog) -> None:
    text = typed(catalog, catalog.decks["tidal-veil"])
    await decks(harness, "save", name="潮A", cards=text)
    await decks(harness, "save", name="炎", cards=typed(catalog, catalog.decks["solar-vanguard"]))
    await decks(harness, "save", user=BOB, name="潮B", cards=text)
    harness.recorder.clear()
    await harness.deliver(group_payload("deck", "show", {"name": "潮"}, focused="name"))
    [answer] = [s for s in harness.recorder.sent if s.is_callback]
    assert answer.payload is not None
    assert answer.payload["data"]["choices"] == [{"name": "潮A", "value": "潮A"}]


async def test_a_deck_list_file_is_read_and_a_file_that_is_not_text_is_refused(
    harness: Harness, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "deck.txt": typed(catalog, catalog.decks["starlit-night"]).replace("、", "\n").encode(),
        "deck.png": b"\x89PNG\r\n\x1a\n\xff\xfe",
    }

    async def from_cdn(url: str) -> bytes:  # the CDN download: the one network door the harness lacks
        return files[url.rsplit("/", 1)[1]]

    monkeypatch.setattr(harness.bot.http, "get_from_cdn", from_cdn)
    for filename in files:
        harness.recorder.clear()
        attachment_id = "910000000000099999"
        resolved = {
            "attachments": {
                attachment_id: {
                    "id": attachment_id,
                    "filename": filename,
                    "size": len(files[filename]),
                    "url": f"https://cdn.example/attachments/{filename}",
                    "proxy_url": f"https://cdn.example/attachments/{filename}",
                }
            }
        }
        option = {"name": "file", "type": 11, "value": attachment_id}
        await harness.deliver(
            group_payload("deck", "save", {"name": filename}, typed=[option], resolved=resolved, locale="en-US")
        )
        [answer] = harness.recorder.messages()
        assert answer.ephemeral
        if filename == "deck.txt":
            assert "Saved the deck “deck.txt” (30 cards)." in answer.text
        else:
            assert "The file is not UTF-8 text." in answer.text
    assert await saved(harness) == ["deck.txt"]


async def test_no_list_at_all_is_refused(harness: Harness) -> None:
    await decks(harness, "save", name="empty", locale="en-US")
    [answer] = harness.recorder.messages()
    assert answer.ephemeral and "Give the deck's cards in the cards option or as a text file." in answer.text


async def test_a_saved_deck_the_rules_no_longer_allow_is_shown_with_why(harness: Harness) -> None:
    # saved by an older referee, before a card left the catalog
    await harness.bot.service.save_deck(ALICE, "古い", ["mizuha", "kiri-no-sei", "rei-glacia", "retired-card"])
    await decks(harness, "show", name="古い", locale="en-US")
    [answer] = harness.recorder.messages()
    assert answer.ephemeral and "retired-card" in answer.text
    assert "⚠ This deck no longer fits the current cards or deck rules:" in answer.text
    assert "There is no card named “retired-card”" in answer.text
