"""Round 54: a time-out pictured, then a retry said for errors, is the step's own retry (`spec.error_retry54`);
and the run's success check said as the state its work ends in (`spec.success_done54`)."""

from __future__ import annotations

from orchestrator.policy import ErrorClass
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.success_done54 import done_state_cue


def _said(text: str) -> dict[str, object]:
    return read_phrase(text).statement.model_dump(exclude_defaults=True)


def test_a_retry_said_for_errors_beside_a_pictured_timeout_is_for_every_failure() -> None:
    got = _said("The API stalls now and then, cap it at 3 min, and on any error have another go twice, 20s apart")
    assert got.get("applies_to") in (None, "any") and got["retries"] == 2 and got["timeout_s"] == 180
    got = _said("It can hang - give it 2 mins max; if it fails try again 3 times with 10s between")
    assert got.get("applies_to") is None and got["retries"] == 3 and got["timeout_s"] == 120


def test_a_pictured_slowness_with_its_limit_is_that_limit_alone() -> None:
    got = _said("the label printer is painfully slow; if nothing after 45s, kill it")
    assert got == {"timeout_s": 45.0}


def test_a_retry_said_for_timeouts_alone_keeps_its_rule() -> None:  # near-misses
    assert _said("If it times out, retry 3 times")["applies_to"] is ErrorClass.TIMEOUT
    assert _said("It can hang, give it 5 mins max; on timeout try it twice more")["applies_to"] is ErrorClass.TIMEOUT


def test_the_runs_check_said_as_the_state_its_work_ends_in() -> None:
    assert done_state_cue("the order is shipped once pack-box returns shipped=true") == "pack-box returns shipped=true"
    assert done_state_cue("The claim is filed only when submit-claim says filed is true.") == \
        "submit-claim says filed is true"
    # run on after another sentence with no stop between (comment lines)
    assert done_state_cue("all of it inside 10 minutes it's posted when ledger-post comes back ok == 1") == \
        "ledger-post comes back ok == 1"
    # near-misses: a participle that ends no work; a clause that compares nothing
    assert done_state_cue("it's needed when mode == fast") is None
    assert done_state_cue("it's booked when Jess says so") is None
