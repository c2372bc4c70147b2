"""A messaging app's exported group chat (a podcast team's, a lab group's on iOS, an HR team's with
ISO dates, a bakery's) where a plan is agreed: the app's own lines and the chatter are no step's
text, a numbered message proposes the skill it names, a step's text ends where the next step is
proposed, and another member's rule is kept (`spec.chat_export`, `spec.transcript`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.chat_export import chatter, is_export, system_line
from orchestrator.spec.transcript import read_transcript
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "pull-guest-bio", "cut-intro", "publish-feed", "thaw-samples", "read-plate",
    "create-accounts", "book-induction", "weigh-flour", "bake-loaf", "box-order")])

_PODCAST = """03/02/2026, 10:00 - Messages and calls are end-to-end encrypted. Tap to learn more.
03/02/2026, 10:00 - Priya created group "Ep 41 edit"
03/02/2026, 10:01 - Priya: hiya team 👋
03/02/2026, 10:02 - Sam: hey!
03/02/2026, 10:03 - Priya: Plan for the edit, so anyone can run it:
03/02/2026, 10:04 - Priya: 1) pull-guest-bio from the booking form, give it 30 seconds max
03/02/2026, 10:05 - Sam: 😂
03/02/2026, 10:05 - Priya: 2) cut-intro from the raw audio
03/02/2026, 10:06 - Priya: haha yes
03/02/2026, 10:07 - Priya: 3) publish-feed once the intro is cut, retry twice if it errors
03/02/2026, 10:08 - Sam: nice one
"""


def _texts(step: object) -> str:
    return " ".join(t.text for t in step.texts)  # type: ignore[attr-defined]


def test_a_podcast_team_s_export_reads_a_step_per_numbered_message_at_its_line() -> None:
    spec = parse_spec_text(_PODCAST, "chat.txt", "markdown", _VOCAB)
    steps = spec.steps
    assert [s.where.rsplit(":", 1)[1] for s in steps] == ["6", "8", "10"]
    assert [sorted({m.text for m in s.mentions})[0] for s in steps] == ["pull-guest-bio", "cut-intro", "publish-feed"]
    assert steps[0].timeout_s == 30 or any(r.where == "chat.txt:6" for r in spec.readings)
    assert "haha" not in _texts(steps[1]) and "nice one" not in _texts(steps[2])


def test_the_app_s_lines_and_the_greetings_are_blank_in_the_rewritten_chat() -> None:
    out = read_transcript(_PODCAST)
    assert out is not None
    lines = out.split("\n")
    assert lines[0] == lines[1] == lines[2] == lines[3] == lines[6] == lines[8] == ""
    assert lines[5].startswith("1. ") and lines[9].startswith("3. ")


def test_a_lab_group_s_ios_export_with_seconds_reads_its_other_case() -> None:
    text = ("[14/01/2026, 08:30:02] Dr Okafor: Morning all\n"
            "[14/01/2026, 08:31:10] Dr Okafor: 1) thaw-samples as soon as you're in\n"
            "[14/01/2026, 08:31:40] Lee: will do\n"
            "[14/01/2026, 08:32:05] Dr Okafor: 2) if the freezer log shows a gap, box-order a fresh kit\n"
            "[14/01/2026, 08:32:30] Dr Okafor: 3) if not, read-plate on the thawed set\n")
    spec = parse_spec_text(text, "lab.txt", "markdown", _VOCAB)
    assert [s.where.rsplit(":", 1)[1] for s in spec.steps] == ["2", "4", "5"]
    assert spec.steps[2].otherwise_where is not None


def test_an_hr_team_s_export_keeps_another_member_s_rule_as_the_step_s_text() -> None:
    text = ("2026-01-05 09:14 - Ruth (People Ops): new starter flow, Monday\n"
            "2026-01-05 09:15 - Ruth (People Ops): 1) create-accounts for the starter\n"
            "2026-01-05 09:16 - Dev: the directory is flaky, retry it 3 times\n"
            "2026-01-05 09:16 - Dev: 👍\n"
            "2026-01-05 09:17 - Ruth (People Ops): 2) book-induction for their first Tuesday\n")
    out = read_transcript(text)
    assert out is not None
    lines = out.split("\n")
    assert lines[2].strip() == "- the directory is flaky, retry it 3 times." and lines[3] == ""  # a note of its own (round 40)
    spec = parse_spec_text(text, "hr.txt", "markdown", _VOCAB)
    assert "retry it 3 times" in _texts(spec.steps[0])


def test_a_bakery_chat_s_words_chatter_and_app_lines_are_told_apart() -> None:
    assert chatter("Morning both!! 🌸 40 days to go") and chatter("👍") and chatter("<Media omitted>")
    assert chatter("lol the oven again") is False  # "again": a word a rule is made of
    assert not chatter("weigh-flour first, then bake-loaf")
    assert system_line("12/05/2025, 09:02 - Ana created group \"Bakes\"")
    assert not system_line("12/05/2025, 09:02 - Ana: 1) weigh-flour")
    lines = ["12/05/2025, 09:02 - Ana: a", "12/05/2025, 09:03 - Bo: b", "[09:04] Ana: c"]
    assert is_export(lines, [0, 1, 2]) and not is_export(lines, [2])
