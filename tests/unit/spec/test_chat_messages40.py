"""Round 40: a messaging app's export reads each of the proposer's later messages as a note of its own
(a choir's and a bakery's chat: a success check said in the message after a limit, an approval said
in the message after a retry), each message its own block for the readers of the whole document and of
dropped approvals (`spec.transcript`, `spec.chat_export`, `spec.whole_doc`, `spec.approval_hold`); and a
success check said twice, the second time after "i.e." / "in other words", read by its plain words
(`spec.success_words`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_hold import _block
from orchestrator.spec.chat_export import message_text
from orchestrator.spec.source import Source
from orchestrator.spec.success_words import plain_restatement
from orchestrator.spec.transcript import read_transcript
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.success_probe import success_checks as _checks

_VOCAB = Vocabulary.of([(n, None) for n in ("print-scores", "book-hall", "mix-dough", "bake-loaf", "box-order")])

# a choir's chat: the limit and the success check are two messages of the proposer after the last step
_CHOIR = """02/03/2026, 18:00 - Messages and calls are end-to-end encrypted. Tap to learn more.
02/03/2026, 18:01 - Maeve: Right, the concert prep, so anyone can set it off:
02/03/2026, 18:02 - Maeve: 1) run print-scores for every part
02/03/2026, 18:03 - Tom: 👍
02/03/2026, 18:04 - Maeve: 2) then book-hall once the scores are printed
02/03/2026, 18:05 - Maeve: All of it should take 20 minutes tops, otherwise stop it
02/03/2026, 18:05 - Maeve: and we're finished when the hall hands back a booking ref
"""


def _skill_doc(outputs: str) -> str:
    return f"---\nname: x\ndescription: x\n---\nOutputs: {outputs}.\n"


def test_a_later_message_of_the_proposer_is_a_note_of_its_own_under_the_step() -> None:
    out = read_transcript(_CHOIR)
    assert out is not None
    lines = out.split("\n")
    assert lines[4].startswith("2. ")
    assert lines[5].lstrip().startswith("- All of it") and lines[6].lstrip().startswith("- and we're finished")


def test_a_wrapped_line_of_one_message_stays_in_its_message_not_a_note() -> None:
    text = ("05/06/2026, 07:00 - Ana: Bread plan:\n"
            "05/06/2026, 07:01 - Ana: 1) mix-dough first thing\n"
            "05/06/2026, 07:02 - Ana: 2) bake-loaf at 220, if the oven errors try again twice\n"
            "and leave it a minute between\n"
            "05/06/2026, 07:03 - Ben: ok\n"
            "05/06/2026, 07:04 - Ana: 3) box-order when it's cooled\n")
    out = read_transcript(text)
    assert out is not None
    wrapped = out.split("\n")[3]
    assert wrapped.strip().startswith("and leave it") and not wrapped.strip().startswith("-")


_OUTPUTS = {"print-scores": frozenset({"scores"}), "book-hall": frozenset({"booking_ref", "hall"})}


def test_the_success_check_in_the_message_after_the_limit_is_read_at_its_line() -> None:
    vocab = _VOCAB.with_outputs(lambda skill: _OUTPUTS.get(skill, frozenset()))
    spec = parse_spec_text(_CHOIR, "choir.txt", "markdown", vocab)
    assert "booking_ref" in _checks(spec).get("step-2", {})
    at7 = [w for w in spec.warnings if w.line == 7]
    assert at7 and all("not read" not in w.message for w in at7)  # read there, not also said unread


def test_without_the_outputs_the_check_is_still_said_at_its_own_line() -> None:
    spec = parse_spec_text(_CHOIR, "choir.txt", "markdown", _VOCAB)
    assert any(w.line == 7 and "success check" in w.message for w in spec.warnings)
    assert not any(w.line == 6 and "success check" in w.message for w in spec.warnings)


def test_a_chat_message_is_a_block_of_its_own_with_its_date_and_sender_cut_off() -> None:
    src = Source("12/05/2025, 09:10 - Jo: 2) waitlist-x for the late ones, sorry Femi\n"
                 "12/05/2025, 09:16 - Jo: the couple has to approve before it's placed\n", "c.txt")
    text, first, last = _block(src, 1)
    assert (text, first, last) == ("2) waitlist-x for the late ones, sorry Femi", 1, 1)
    assert _block(src, 2)[0] == "the couple has to approve before it's placed"


def test_a_message_head_is_cut_off_android_and_ios_and_no_other_line() -> None:
    assert message_text("12/05/2025, 09:16 - Nkechi (Bloom Weddings): if the total is over 9k") == "if the total is over 9k"
    assert message_text("[14/01/2026, 08:31:10] Dr Okafor: thaw the samples") == "thaw the samples"
    assert message_text("Note: 12/05/2025, 09:16 is when we met") is None
    assert message_text("12/05/2025 meeting: notes") is None  # a date, no time, no sender


def test_a_check_said_twice_is_read_by_its_plain_second_wording() -> None:
    text = ("# Month end\n\n## Steps\n\n### Step 1: Post\n- Skill: `post-ledger`\n- Output: `journal_no`, `posted`\n\n"
            "## Done\n\nWe're finished when the books are closed, i.e. step 1 gives back a journal number.\n")
    assert "journal_no" in _checks(parse_spec_text(text, "m.md", "markdown")).get("step-1", {})
    text2 = ("# Dispatch\n\n## Steps\n\n### Step 1: Ship\n- Skill: `ship-parcel`\n- Output: `tracking_no`\n\n"
             "## Done\n\nDone when the parcel is on its way, in other words step 1 hands back a tracking number.\n")
    assert "tracking_no" in _checks(parse_spec_text(text2, "d.md", "markdown")).get("step-1", {})


def test_a_clause_with_no_restatement_is_read_whole() -> None:
    assert plain_restatement("the log has an entry and step 2 hands back a log id") == (
        "the log has an entry and step 2 hands back a log id")
    assert plain_restatement("i.e. nothing before it") == "i.e. nothing before it"
    assert plain_restatement("the log has an entry, i.e.") == "the log has an entry, i.e."
    assert plain_restatement("the lid is on, in other words the box is shut") == "the box is shut"
