"""An email thread pasted as text (`spec.email_thread`, `spec.email_changes`): quoting, headers and
signatures are not text; a later message's change of a step's policy wins, warned with both lines."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.email_thread import email_thread
from orchestrator.spec.vocabulary import Vocabulary

OUTLOOK = """From: Dana Whitfield <dana@example.org>
Sent: Tuesday, 4 March 2025 09:12
To: Ravi Patel
Subject: FW: RE: plate reads

Ravi - one change: for the plate reader, retry 5 times, 1 minute apart instead of 2 tries.

Thanks,
Dana
Lab Manager | Building 4
"This email is confidential"

-----Original Message-----
From: Ravi Patel
Sent: Monday, 3 March 2025 17:40
To: Dana Whitfield
Subject: RE: plate reads

> Proposed run:
>
> 1. Thaw the samples with `thaw-samples`.
> 2. Read the plate with `read-plate`. Retry 2 times, 30 seconds apart.
> 3. Score the wells with `score-wells`.
>
> Ravi
"""


def _spec(text: str, *skills: str):  # type: ignore[no-untyped-def]
    vocabulary = Vocabulary.of((s, None) for s in skills)
    return parse_spec_text(text, "mail.txt", "markdown", vocabulary=vocabulary)


def test_an_outlook_forward_chain_reads_the_quoted_plan_as_its_steps() -> None:
    spec = _spec(OUTLOOK, "thaw-samples", "read-plate", "score-wells")
    assert [s.mentions[0].text for s in spec.steps] == ["thaw-samples", "read-plate", "score-wells"]
    assert [s.where for s in spec.steps] == ["mail.txt:21", "mail.txt:22", "mail.txt:23"]
    warned = {w.line for w in spec.warnings}
    assert not warned & {1, 2, 3, 4, 8, 9, 10, 11, 13, 14, 15, 16, 17, 25}  # headers, signature, sign-off


def test_a_later_message_s_retry_is_handed_first_and_its_old_value_cut() -> None:
    spec = _spec(OUTLOOK, "thaw-samples", "read-plate", "score-wells")
    read = spec.steps[1]
    lines = [t.line for t in read.texts]
    assert 6 in lines and lines.index(6) < lines.index(22)
    [changed] = [t for t in read.texts if t.line == 6]
    assert "instead of" not in changed.text and "retry 5 times, 1 minute apart" in changed.text
    assert any(w.line == 6 and "old value" in w.message for w in spec.warnings)


GMAIL = """Sounds good. One thing: the send should time out after 45 seconds rather than 2 minutes.
And the proofread - if it takes more than 10 minutes just give up on it.

Cheers,
Mo

On Fri, 7 Mar 2025 at 10:02, Jo Reyes <jo@paper.example> wrote:
> Here's the Friday issue plan:
> 1. `collect-links` gathers this week's links.
> 2. `draft-issue` writes the issue from them.
> 3. `send-issue` mails it out. Time out after 2 minutes.
>> On Thu, 6 Mar 2025 at 18:00, Mo <mo@paper.example> wrote:
>> can you write the newsletter steps down?
"""


def test_a_newsletter_reply_with_on_wrote_lines_changes_the_send_timeout() -> None:
    spec = _spec(GMAIL, "collect-links", "draft-issue", "send-issue")
    assert [s.mentions[0].text for s in spec.steps] == ["collect-links", "draft-issue", "send-issue"]
    send = spec.steps[2]
    assert send.texts[0].line == 1
    assert send.texts[0].text.endswith("time out after 45 seconds.")  # "rather than 2 minutes" cut
    assert any(w.line == 1 and "'rather than 2 minutes' is read as the old value" in w.message for w in spec.warnings)
    # the proofread line names no step: warned, never dropped silently
    assert any(w.line == 2 and "names no step" in w.message for w in spec.warnings)
    assert not {w.line for w in spec.warnings} & {4, 5, 7, 12}


def test_text_with_a_quote_but_no_mail_header_is_no_thread() -> None:
    assert email_thread("# Notes\n\n> a quote from the book\n\n1. Run `a-b`.\n") is None


def test_quote_marks_and_signatures_are_blanked_and_lines_keep_their_numbers() -> None:
    text = ("From: A\nTo: B\n\nok go.\n\nRegards,\nA\n\n> From: B\n> Date: today\n>\n> 1. Do `x-y`.\n"
            ">> From: A\n>> Subject: hi\n>> can we?\n")
    thread = email_thread(text)
    assert thread is not None
    lines = thread.text.split("\n")
    assert len(lines) == len(text.split("\n"))
    assert lines[3] == "ok go." and lines[5] == "" and lines[6] == "" and lines[11] == "1. Do `x-y`."
    assert lines[0] == "" and lines[8] == "" and lines[14] == "can we?"
    assert [thread.message_of[n] for n in (4, 12, 15)] == [0, 1, 2]


PODCAST = """Re: ep 112 run sheet

From: Priya <priya@pod.example>
Sent: 12 March 2025 08:30
Subject: Re: ep 112 run sheet

Looks right. For step 2 give it 3 tries, 10 seconds apart.

--
Priya | Producer

> From: Sam <sam@pod.example>
> Sent: 11 March 2025 22:10
> Subject: ep 112 run sheet
>
> - First `pull-audio` grabs the raw takes.
> - Then `level-audio` evens the loudness. No retries.
> - Finally `post-episode` publishes it.
>
> Sam
>> From: Priya
>> Sent: 11 March 2025 09:00
>> write the run sheet?
"""


def test_a_podcast_run_sheet_reply_naming_a_step_number_overrides_its_no_retry() -> None:
    spec = _spec(PODCAST, "pull-audio", "level-audio", "post-episode")
    assert [s.mentions[0].text for s in spec.steps] == ["pull-audio", "level-audio", "post-episode"]
    level = spec.steps[1]
    assert level.texts[0].line == 7
    assert not {w.line for w in spec.warnings} & {3, 4, 5, 9, 10, 12, 13, 14, 20, 21, 22}
