"""The approver's time said as what they "have", and their silence as "not said yes by then" (`spec.list35`)."""

from __future__ import annotations

from orchestrator.spec.list35 import not_yes_skips, person_has


def test_the_approver_s_own_time_in_a_volunteer_note_a_shift_handover_and_a_lab_booking() -> None:
    assert person_has("Message her, she has till the end of tea (20 min).") == 1200
    assert person_has("Ring the duty manager; he's got 2 hours to come back to you.") == 7200
    assert person_has("Email the PI - they have up to 3 days to sign.") == 3 * 86400


def test_negatives_a_clock_time_a_thing_not_a_person_no_unit() -> None:
    assert person_has("The site has till 5pm.") is None
    assert person_has("she has till the end of the shift") is None
    assert person_has("The oven has 20 min left on it.") is None


def test_not_yes_by_then_skips_the_step_in_a_choir_note_a_purchase_memo_and_a_release_checklist() -> None:
    assert not_yes_skips("If she hasn't said yes by then, DON'T print -- we'll sort it next week.")
    assert not_yes_skips("If he hasn't OK'd it by then: do not order, we'll use the old stock.")
    assert not_yes_skips("If nobody has signed it off in time, don't deploy; the release goes next week.")


def test_negatives_a_stop_a_yes_and_no_deadline() -> None:
    assert not not_yes_skips("If she hasn't said yes by then, don't send, and stop the run.")
    assert not not_yes_skips("If she has said yes by then, print.")
    assert not not_yes_skips("If she hasn't said yes, ask again.")


def test_no_reply_by_then_stays_a_no() -> None:
    # a missing reply ("has not replied by then, do not book") keeps the older reading, a no; a missing yes skips
    assert not not_yes_skips("If she has not replied by then, do not book, we will talk at lunch.")
    assert not not_yes_skips("If nobody has answered in time, don't send it.")
    assert not_yes_skips("If he hasn't OK'd it by then, don't order.")
