"""An adjustment of the other player's things is a request: nothing changes until that player confirms
it (or a moderator makes the correction); no request ends a game. One's own things change at once."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Adjust, ConfirmAdjust, ModeratorAdjust, RejectAdjust, RuleViolation
from bot.render.events import render_events

from .conftest import refused
from .sample_table import sample_table


def test_an_opponent_cannot_knock_out_a_leader_alone_on_turn_one() -> None:
    t = sample_table()
    assert t.state.turn == 1 and t.state.active == 0  # alice's turn, bob holds no priority
    new = t.do(Adjust(player="bob", subject="p1.ignis-hart", field="hp", value=0, note="misread"))
    assert [e.type for e in new] == ["adjust_requested"]
    assert not t.state.over and t.state.find_unit("p1.ignis-hart").hp == 30  # type: ignore[union-attr]
    assert t.state.pending_adjust is not None and t.state.pending_adjust.owner == 0
    line = " ".join(render_events(new, t.state, "en"))
    assert "bob asks to adjust" in line and "takes effect when alice confirms" in line


def test_the_owner_confirms_and_the_log_says_who_asked_and_who_confirmed() -> None:
    t = sample_table()
    t.do(Adjust(player="bob", subject="p1.garde-volk", field="hp", value=20, note="riddle"))
    err = refused(t, ConfirmAdjust(player="bob"))
    assert err.message_key == "engine.adjust_owner_confirms" and "alice" in err.message("en")
    before = t.state
    new = t.do(ConfirmAdjust(player="alice"))
    (event,) = new
    assert (event.type, event.seat, event.confirmed_by, event.old, event.new) == ("adjusted", 1, 0, 38, 20)
    assert t.state.find_unit("p1.garde-volk").hp == 20  # type: ignore[union-attr]
    assert t.state.pending_adjust is None
    assert render_events(new, before, "en") == [
        "bob adjusts Volk the Iron Wall(alice) HP: 38 → 20 (riddle) — confirmed by alice."
    ]


def test_a_confirmed_zero_on_the_leader_ends_the_game_but_a_rejected_one_changes_nothing() -> None:
    t = sample_table()
    t.do(Adjust(player="bob", subject="p1.ignis-hart", field="hp", value=0))
    new = t.do(RejectAdjust(player="alice"))
    assert [e.type for e in new] == ["adjust_rejected"] and t.state.pending_adjust is None
    assert refused(t, ConfirmAdjust(player="alice")).message_key == "engine.no_adjust_pending"
    t.do(Adjust(player="bob", subject="p1.ignis-hart", field="hp", value=0))
    t.do(ConfirmAdjust(player="alice"))
    assert t.state.over and t.state.winner == 1


def test_the_asker_may_withdraw_and_only_one_request_waits_at_a_time() -> None:
    t = sample_table()
    t.do(Adjust(player="alice", subject="bob", field="ether", value=5))
    err = refused(t, Adjust(player="alice", subject="p2.mizuha", field="tapped", value=1))
    assert err.message_key == "engine.adjust_already_pending" and "bob" in err.message("en")
    new = t.do(RejectAdjust(player="alice"))
    assert "alice withdraws their request" in render_events(new, t.state, "en")[0]
    assert t.player(1).ether == 2  # the second player's starting ether, untouched


def test_each_kind_of_the_opponents_thing_waits_for_confirmation() -> None:
    t = sample_table()
    for subject, field, value in (
        ("p2.mizuha", "hp", 1),
        ("p2.kiri-no-sei", "tapped", 1),
        ("p2.rei-glacia", "def_turn", -5),
        ("bob", "ether", 9),
        ("bob", "astral_rights", 9),
    ):
        before = t.state
        new = t.do(Adjust(player="alice", subject=subject, field=field, value=value))
        assert [e.type for e in new] == ["adjust_requested"]
        assert t.state.model_copy(update={"pending_adjust": None}) == before
        t.do(RejectAdjust(player="bob"))


def test_ones_own_things_change_at_once_even_without_priority() -> None:
    t = sample_table()
    new = t.do(Adjust(player="bob", subject="p2.mizuha", field="hp", value=10))
    assert [(e.type, e.confirmed_by) for e in new] == [("adjusted", None)]
    t.do(Adjust(player="bob", subject="p2.mizuha", field="hp", value=0))
    assert t.state.over and t.state.winner == 0  # bob's own leader: it is his to give up


def test_a_request_is_checked_again_when_confirmed() -> None:
    t = sample_table()
    t.do(Adjust(player="bob", subject="p1.garde-volk", field="hp", value=20))
    t.do(Adjust(player="alice", subject="p1.garde-volk", field="hp", value=0))  # knocked out meanwhile
    assert refused(t, ConfirmAdjust(player="alice")).message_key == "engine.unit_knocked_out"


def test_a_moderator_correction_takes_effect_at_once_and_names_the_moderator() -> None:
    t = sample_table()
    before = t.state
    new = t.do(ModeratorAdjust(moderator="999", subject="p1.garde-volk", field="hp", value=30, note="fix"))
    (event,) = new
    assert (event.seat, event.moderator) == (0, "999") and t.state.find_unit("p1.garde-volk").hp == 30  # type: ignore[union-attr]
    assert render_events(new, before, "en") == ["Moderator 999 adjusts Volk the Iron Wall(alice) HP: 38 → 30 (fix)."]
    err = refused(t, ModeratorAdjust(moderator="999", subject="alice", field="discard", value=1))
    assert err.message_key == "engine.adjust_own_cards_only"


_SUBJECTS = {
    "hp": ["p1.ignis-hart", "p1.sola-lyne", "p1.garde-volk", "p2.mizuha", "p2.kiri-no-sei", "p2.rei-glacia"],
    "tapped": ["p1.ignis-hart", "p2.mizuha"],
    "def_turn": ["p1.garde-volk", "p2.rei-glacia"],
    "ether": ["alice", "bob"],
    "astral_rights": ["alice", "bob"],
}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["alice", "bob"]),
            st.sampled_from(sorted(_SUBJECTS)),
            st.integers(0, 5),
            st.integers(-12, 40),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_no_unconfirmed_adjustment_ever_changes_the_other_players_things(
    tries: list[tuple[str, str, int, int]],
) -> None:
    """Whatever mix of adjustments both players send, the other player's things change only by a
    confirmation, and the game never ends before one."""
    t = sample_table()
    for player, field, pick, value in tries:
        subjects = _SUBJECTS[field]
        subject = subjects[pick % len(subjects)]
        owner = "alice" if subject in ("alice",) or subject.startswith("p1.") else "bob"
        before = t.state
        try:
            new = t.do(Adjust(player=player, subject=subject, field=field, value=value))
        except RuleViolation:
            continue
        if owner != player:
            assert [e.type for e in new] == ["adjust_requested"]
            assert t.state.model_copy(update={"pending_adjust": None}) == before.model_copy(
                update={"pending_adjust": None}
            )
            assert not t.state.over
            t.do(RejectAdjust(player=owner))
        if t.state.over:
            assert owner == player  # only one's own leader can be set to 0 without a confirmation
            return
