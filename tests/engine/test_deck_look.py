"""A look at one's own deck: only while a manual effect that says so is applied (星読み: "look at the top
three cards"), by its controller, up to its number, logged in public; the reorder only after the look."""

from __future__ import annotations

from bot.engine import Adjust, Charge, LookAtDeck, Pass, UseSkill
from bot.engine.looks import look_count
from bot.render.events import render_events

from .conftest import Table, pass_until, refused
from .sample_table import sample_table

TERA = ("ignis-hart", "tera-mina", "garde-volk")


def _stargazing() -> Table:
    """Alice's 星詠みのテラ・ミナ uses 星読み in her first main phase: a manual effect naming a look at 3."""
    t = sample_table(arcastella=TERA)
    t.do(Charge(player="alice", card="spark-arrow", use_ether_effect=False))
    pass_until(t, "main", turn=1)
    new = t.do(UseSkill(player="alice", unit="p1.tera-mina", skill="stargazing"))
    (manual,) = [e for e in new if e.type == "manual_effect"]
    assert manual.look == 3
    return t


def test_a_look_is_refused_without_an_effect_that_allows_it() -> None:
    t = sample_table()
    assert refused(t, LookAtDeck(player="alice", count=1)).message_key == "engine.no_deck_look"
    assert refused(t, LookAtDeck(player="alice", count=25)).message_key == "engine.no_deck_look"


def test_the_effect_allows_its_controller_a_logged_look_up_to_its_number() -> None:
    t = _stargazing()
    assert refused(t, LookAtDeck(player="bob", count=1)).message_key == "engine.no_deck_look"
    err = refused(t, LookAtDeck(player="alice", count=4))
    assert err.message_key == "engine.deck_look_count" and "1 to 3" in err.message("en")
    before = t.state
    new = t.do(LookAtDeck(player="alice", count=3))
    assert render_events(new, before, "en") == [
        "alice looks at the top 3 card(s) of their deck (Tera Mina the Stargazer)."
    ]
    assert before.players[0].deck == t.state.players[0].deck  # a look moves nothing


def test_the_reorder_comes_after_the_look_and_the_look_ends_with_the_phase() -> None:
    t = _stargazing()
    top = tuple(t.player(0).deck[:3])
    order = tuple(reversed(top))
    err = refused(t, Adjust(player="alice", subject="alice", field="deck_top", value=3, cards=order))
    assert err.message_key == "engine.deck_top_needs_look"  # naming cards unseen would probe the deck
    t.do(LookAtDeck(player="alice", count=2))
    err = refused(t, Adjust(player="alice", subject="alice", field="deck_top", value=4, cards=order))
    assert err.message_key == "engine.adjust_out_of_range"
    t.do(Adjust(player="alice", subject="alice", field="deck_top", value=3, cards=order))
    assert tuple(t.player(0).deck[:3]) == order and t.state.deck_look is None
    assert refused(t, LookAtDeck(player="alice", count=1)).message_key == "engine.no_deck_look"
    t2 = _stargazing()
    t2.do(Pass(player="alice"))
    pass_until(t2, "charge", turn=2)
    assert refused(t2, LookAtDeck(player="alice", count=1)).message_key == "engine.no_deck_look"


def test_the_number_is_read_from_the_manual_text() -> None:
    assert look_count("自分のデッキの上から3枚を見て、好きな順番でデッキの上に戻す。") == 3
    assert look_count("山札の上から二枚を見る。") == 2
    assert look_count("x", "Look at the top five cards of your deck.") == 5
    assert look_count("相手は手札を1枚捨てる。", "The opponent discards a card.") == 0
    assert look_count("デッキの上から" + "9" * 5000 + "枚を見る") == 10  # capped, never a huge int
