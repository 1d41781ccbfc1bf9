"""Adjustments that move cards, for the sample manual effects: イェソド・チェイン's discard from hand and
a skill's "look at the top three cards of your deck and put them back in any order"."""

from __future__ import annotations

from typing import Any

from bot.engine import Adjust, Charge, GameState, LookAtDeck, NoBlock, UseSkill, replay
from bot.render.events import render_events

from .conftest import Table, pass_until, refused
from .sample_table import sample_table


def _yesod_chain_broken() -> Table:
    """Bob's 水刃 hits alice's 鉄壁のヴォルク, whose イェソド・チェイン breaks on a 2: a manual discard."""
    t = sample_table(equipment={"garde-volk": "yesod-chain"})
    pass_until(t, "charge", turn=2)
    t.do(Charge(player="bob", card="tide-bullet", use_ether_effect=False))
    pass_until(t, "main", turn=2)
    t.do(UseSkill(player="bob", unit="p2.mizuha", skill="water-blade", target="p1.garde-volk"), 6, 6)
    new = t.do(NoBlock(player="alice"), 2)
    manual = [e for e in new if e.type == "manual_effect"]
    assert [e.card for e in manual] == ["yesod-chain"] and "手札を1枚選んで捨てる" in manual[0].text
    return t


def test_the_owner_discards_a_named_card_from_hand_to_the_cemetery_face_up() -> None:
    t = _yesod_chain_broken()
    assert t.state.active == 1  # bob holds priority; alice applies her own card's effect anyway
    new = t.do(Adjust(player="alice", subject="alice", field="discard", value=1, cards=("counter-flame",)))
    alice = t.player(0)
    assert alice.hand == ["spark-arrow", "spark-arrow", "counter-flame", "spark-arrow"]
    assert alice.cemetery == ["yesod-chain", "counter-flame"]  # the broken code went there first
    (event,) = new
    assert (event.field, event.old, event.new, event.cards) == ("discard", 5, 4, ("counter-flame",))
    assert t.state.active == 1  # priority did not move


def _before(t: Table, new: list[Any]) -> GameState:
    return replay(t.events[: len(t.events) - len(new)])


def test_two_copies_may_be_discarded_at_once_but_not_more_than_the_hand_holds() -> None:
    t = _yesod_chain_broken()
    err = refused(t, Adjust(player="alice", subject="alice", field="discard", value=3, cards=("counter-flame",)))
    assert err.message_key == "engine.adjust_out_of_range" and "1 から 2" in err.message("ja")
    t.do(Adjust(player="alice", subject="alice", field="discard", value=2, cards=("counter-flame",)))
    assert t.player(0).cemetery == ["yesod-chain", "counter-flame", "counter-flame"]
    assert "counter-flame" not in t.player(0).hand


def test_only_the_owner_may_discard_and_only_a_card_in_hand() -> None:
    t = _yesod_chain_broken()
    err = refused(t, Adjust(player="bob", subject="alice", field="discard", value=1, cards=("counter-flame",)))
    assert err.message_key == "engine.adjust_own_cards_only"
    err = refused(t, Adjust(player="alice", subject="alice", field="discard", value=1, cards=("blaze-lance",)))
    assert err.message("ja") == "烈火の槍 は手札にありません。"
    err = refused(t, Adjust(player="alice", subject="alice", field="discard", value=1))
    assert err.message_key == "engine.discard_names_one_card"
    err = refused(t, Adjust(player="alice", subject="p1.garde-volk", field="hp", value=30, cards=("spark-arrow",)))
    assert err.message_key == "engine.adjust_no_cards"


def _looked(
    deck: tuple[str, ...] = ("spark-arrow", "counter-flame", "spark-arrow", "counter-flame", "spark-arrow") * 2,
) -> Table:
    """Alice's 星詠みのテラ・ミナ uses 星読み (look at the top three) and alice looks at three cards."""
    t = sample_table(deck, arcastella=("ignis-hart", "tera-mina", "garde-volk"))
    t.do(Charge(player="alice", card="spark-arrow", use_ether_effect=False))
    pass_until(t, "main", turn=1)
    t.do(UseSkill(player="alice", unit="p1.tera-mina", skill="stargazing"))
    t.do(LookAtDeck(player="alice", count=3))
    return t


def test_the_top_of_the_deck_goes_back_in_the_order_named_and_is_drawn_in_it() -> None:
    t = _looked()
    assert t.player(0).deck[:3] == ["spark-arrow", "counter-flame", "spark-arrow"]
    new = t.do(
        Adjust(
            player="alice",
            subject="alice",
            field="deck_top",
            value=3,
            cards=("counter-flame", "spark-arrow", "spark-arrow"),
        )
    )
    assert new[0].cards == ("counter-flame", "spark-arrow", "spark-arrow")
    assert t.player(0).deck[:5] == ["counter-flame", "spark-arrow", "spark-arrow", "counter-flame", "spark-arrow"]
    assert "counter-flame" not in " ".join(render_events(new, _before(t, new), "en"))  # the order stays hidden
    pass_until(t, "charge", turn=3)
    assert t.player(0).hand[-1] == "counter-flame"  # turn 3's draw took the new top card


def test_a_reorder_must_name_exactly_the_cards_on_top() -> None:
    t = _looked()
    wrong = ("spark-arrow", "spark-arrow", "spark-arrow")
    err = refused(t, Adjust(player="alice", subject="alice", field="deck_top", value=3, cards=wrong))
    assert err.message_key == "engine.deck_top_same_cards" and "3 枚" in err.message("ja")
    err = refused(t, Adjust(player="bob", subject="alice", field="deck_top", value=1, cards=("spark-arrow",)))
    assert err.message_key == "engine.adjust_own_cards_only"
