"""Round 49's phrasings (holdout32 196, none in the fixture's words): a value to go on with after "carry on
with" (`spec.grammar_families15`), another go and again a time after that (two retries, the same wait: one
fixed wait, `spec.effect`), a value named in words and then as code in brackets ("the fee (quote.fee)") as an
approval's condition, and "hold it for up to N" as an approval's wait (`spec.condition`)."""

from __future__ import annotations

from orchestrator.spec.condition import approval_condition, approval_timeout
from orchestrator.spec.effect import retry_of
from orchestrator.spec.phrase import read_phrase


def _went_on_with(text: str) -> object:
    said = read_phrase(text).statement
    return said.on_failure.value if said.on_failure is not None else None


def test_carry_on_with_a_field_and_its_value_is_the_value_to_go_on_with() -> None:
    assert _went_on_with('if the lookup is not back in 20 s, carry on with region "unknown"') == {"region": "unknown"}
    assert _went_on_with("should it fail, just go ahead with score 0") == {"score": 0}
    assert _went_on_with("if it fails carry on with page 2 of the form") is None  # near miss: no value


def test_another_go_and_again_after_that_are_two_retries_with_that_wait() -> None:
    for text in ("if the upload fails have another go in 2 min, and again 2 min after that",
                 "when it errors, give it one more try after 30 s, once more 30 s later"):
        said = read_phrase(text).statement
        retry, _ = retry_of(said)
        assert retry is not None and retry.max_retries == 2, text
        assert retry.delays_s == (said.wait.seconds[0],), text  # the same wait each time: that one wait
    near = read_phrase("if it fails have another go in 30 s")  # near miss: one retry
    assert near.statement.wait is not None and near.statement.wait.kind == "fixed"


def test_a_value_named_then_written_as_code_in_brackets_is_that_field() -> None:
    assert approval_condition("if the fee (quote.fee) is over 900 the partner has to OK it first")[0] == \
        "fee is over 900"
    assert approval_condition("when its total (order.total_usd) exceeds 50, Sam must sign off")[0] == \
        "total_usd exceeds 50"
    # near miss: brackets that hold examples, no `x.field`, are left as they were
    assert "heparin" not in (approval_condition("if any swap is a high-alert drug (heparin, insulin) the "
                                                "pharmacist must approve it first")[0] or "")


def test_hold_it_for_up_to_a_time_is_the_approvals_wait_not_a_refusal() -> None:
    assert approval_timeout("ping the duty manager and hold it for up to 3 hours; no answer by then, go ahead "
                            "anyway") == (10800, "approve")
    assert approval_timeout("hold them for 45 minutes, and if nobody replies it's a no") == (2700, "reject")
    assert approval_timeout("don't post - hold it") == (None, None)  # near miss: a refusal, no wait
