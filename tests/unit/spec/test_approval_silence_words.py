"""What a person's silence means, said as "if he doesn't answer by then just go ahead", is read on every
path a wait is read on (was: the wait read, silence taken as a no); a comment or to-do line that mentions a
sign-off ("// TODO: ... once HSE signs it off") is no approval. Tested in a bakery plan, a ferry runbook in
AsciiDoc, a clinic note and a newsroom checklist."""

from __future__ import annotations

import pytest

from orchestrator.spec.condition import approval_sentence, approval_timeout


@pytest.mark.parametrize(("text", "seconds", "then"), [
    ("Give him 45 min; if he doesn't answer by then just go ahead with the sheet as is.", 2700, "approve"),
    ("The editor gets 20 minutes. If nobody replies, proceed with the draft.", 1200, "approve"),
    ("Give her 15 min; if she does not answer we do not go ahead.", 900, "reject"),
    ("Wait up to 1 hour; if no one answers, we don't proceed.", 3600, "reject"),
])
def test_what_silence_means_is_read_with_the_wait(text: str, seconds: int, then: str) -> None:
    assert approval_timeout(text) == (seconds, then)


@pytest.mark.parametrize("line", [
    "// TODO: add the dangerous-goods check once HSE signs it off",
    "TODO - the head chef has to approve new suppliers (later)",
    "<!-- the editor must sign off before publishing, once we hire one -->",
    "%% FIXME: Marco needs to OK this before it goes out %%",
])
def test_a_comment_or_to_do_that_mentions_a_sign_off_is_no_approval(line: str) -> None:
    assert not approval_sentence(line)


def test_the_same_words_outside_a_comment_are_an_approval() -> None:
    assert approval_sentence("The head chef has to approve new suppliers.")
    assert approval_sentence("The editor must sign off before publishing.")
