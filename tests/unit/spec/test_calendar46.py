"""iCalendar files as specs (`spec.calendar46`): a dental practice's Google Calendar reminder and a band's
to-do exported from a phone, each with the procedure in a folded, escaped DESCRIPTION, and calendar files
and texts that are no such thing."""

from __future__ import annotations

from pathlib import Path

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.calendar46 import calendar_markdown, is_calendar
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# CRLF lines, a quoted parameter holding a colon, folds mid-word and mid-name, escapes, an alarm with its own text
_DENTIST = (
    "BEGIN:VCALENDAR\r\n"
    "VERSION:2.0\r\n"
    "PRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n"
    "BEGIN:VEVENT\r\n"
    "DTSTART:20270301T080000Z\r\n"
    'ORGANIZER;CN="Front desk: Ana":mailto:desk@example.org\r\n'
    "SUMMARY:Monday recall run\r\n"
    "DESCRIPTION;LANGUAGE=en-GB:Ana\\, the recall list for the CLINIC.\\n\\n1. pull\r\n"
    " -recalls for the clinic. The records server is flaky - if it errors retry i\r\n"
    " t once\\, 2 minutes later.\\n2. send-texts with the patients and sender \"Br\r\n"
    " ight Smiles\".\\n\\nDone when send-texts says sent = true.\r\n"
    "BEGIN:VALARM\r\n"
    "TRIGGER:-PT30M\r\n"
    "DESCRIPTION:wait 5 minutes and retry\r\n"
    "END:VALARM\r\n"
    "END:VEVENT\r\n"
    "END:VCALENDAR\r\n"
)

# a to-do (VTODO), tab folds, `\N`, `\;` and a bullet list
_GIG = (
    "BEGIN:VCALENDAR\n"
    "BEGIN:VTODO\n"
    "SUMMARY:Gig prep\n"
    "DESCRIPTION:- pull-recalls for the venue\\; the sheet can hang - 45 seconds\n"
    "\t max.\\N- send-texts with the patients\n"
    "END:VTODO\n"
    "END:VCALENDAR\n"
)

_SKILLS = [
    skill("pull-recalls", input_schema=obj(("clinic",), clinic="string"),
          output_schema=obj(("patients",), patients="array")),
    skill("send-texts", input_schema=obj(("patients", "sender"), patients="array", sender="string"),
          output_schema=obj(("sent",), sent="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def test_folds_are_undone_escapes_read_and_each_line_stays_on_the_file_s_line() -> None:
    lines = (calendar_markdown(_DENTIST) or "").split("\n")
    assert lines[6] == "# Monday recall run"  # line 7: the summary
    assert lines[7] == "Ana, the recall list for the CLINIC."
    assert lines[8] == "1. pull-recalls for the clinic. The records server is flaky - if it errors retry it"  # line 9
    assert lines[9] == '   once, 2 minutes later.'  # the word split by the fold stays whole on the line it starts
    assert lines[10] == '2. send-texts with the patients and sender "Bright Smiles".'  # pushed down one line
    assert "Done when send-texts says sent = true." in lines[11:13]
    assert not any("wait 5 minutes" in line or "PT30M" in line or "mailto" in line for line in lines)


def test_a_folded_spec_plans_its_steps_literal_policy_and_check(tmp_path: Path) -> None:
    path = tmp_path / "recall.ics"
    path.write_text(_DENTIST, newline="")
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    pull, send = plan.steps
    assert (pull.skill, send.skill) == ("pull-recalls", "send-texts")
    assert pull.policy.retry.max_retries == 1 and pull.policy.retry.delays_s[:1] == (120.0,)
    assert send.inputs["sender"].source == "literal" and send.inputs["sender"].value == "Bright Smiles"
    assert send.inputs["patients"].step == pull.id
    assert any(w.line == 1 and "iCalendar" in w.message for w in spec.warnings)
    assert send.policy.attempt_timeout_s is None and pull.policy.attempt_timeout_s is None  # not the alarm's words


def test_a_to_do_with_tab_folds_and_bullets() -> None:
    lines = (calendar_markdown(_GIG) or "").split("\n")
    assert lines[2] == "# Gig prep"
    assert lines[3] == "- pull-recalls for the venue; the sheet can hang - 45 seconds"
    assert lines[4] == "  max."  # the word after the tab fold, on its line, under the item
    assert lines[5] == "- send-texts with the patients"  # `\N` mid-line: on the next free line


def test_texts_that_are_no_calendar_with_a_description_are_left_as_they_are() -> None:
    no_description = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Standup\nEND:VEVENT\nEND:VCALENDAR\n"
    assert not is_calendar(no_description) and calendar_markdown(no_description) is None
    quoted = "# Steps\n\n```\nBEGIN:VCALENDAR\nBEGIN:VEVENT\nDESCRIPTION:x\nEND:VEVENT\n```\n"
    assert not is_calendar(quoted)  # a markdown page quoting an invite
    alarm_only = "BEGIN:VCALENDAR\nBEGIN:VALARM\nDESCRIPTION:ring\nEND:VALARM\nEND:VCALENDAR\n"
    assert calendar_markdown(alarm_only) is None  # an alarm's text is no event's


def _laundry(description: str) -> list[str]:
    text = f"BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Laundry\nDESCRIPTION:{description}\nEND:VEVENT\nEND:VCALENDAR\n"
    return (calendar_markdown(text) or "").split("\n")


def test_a_paragraph_whose_break_has_no_line_of_its_own_keeps_the_line_it_starts_on() -> None:
    # the item's quoted name runs onto line 5, where the break and the next paragraph's first word are too:
    # no free line for both, so the sentence keeps its own line (its check is said there), the break goes
    lines = _laundry('1) wash-load with the sheets and from "Ward 4 Li\n nen".\\n\\nFinished when wash-load says '
                     'clean = true.')
    assert lines[3].startswith("1) wash-load") and lines[4] == "Finished when wash-load says clean = true."
    # a second phrasing: the break at the end of a line, the paragraph opening the next fold
    lines = _laundry("- dry-load for the towels.\\n\\n\n Done once dry-load says dry = true.")
    assert lines[3] == "- dry-load for the towels." and lines[4] == "Done once dry-load says dry = true."


def test_near_miss_a_break_with_a_line_of_its_own_is_kept() -> None:
    lines = _laundry("1) wash-load with the sheets.\\n\n \\n\n Finished when wash-load says clean = true.")
    assert lines[3] == "1) wash-load with the sheets." and lines[4] == ""
    assert lines[5] == "Finished when wash-load says clean = true."
