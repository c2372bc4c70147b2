"""A skill named mid-sentence in a lead paragraph as doing work is a step of its own (`spec.step_in_prose25`):
in a help-centre FAQ, a wiki Q&A, an email's bold-lead paragraphs and a runbook's; its sentences and
policies go with it. A skill named as a fallback, as not to run, or talked about is no step."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.step_in_prose25 import does_work, split_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("count-guests", input_schema=obj(("rsvps",), rsvps="array"), output_schema=obj(("guests",), guests="array")),
    skill("hold-venue", input_schema=obj(("date",), date="string"), output_schema=obj(("rooms",), rooms="array")),
    skill("seat-guests", input_schema=obj(("guests", "rooms"), guests="array", rooms="array"),
          output_schema=obj(("plan",), plan="string")),
    skill("backup-venue", input_schema=obj(("date",), date="string"), output_schema=obj(("rooms",), rooms="array")),
)


def _plan(text: str) -> tuple[Plan, list[str]]:
    vocabulary = Vocabulary(skills=frozenset({"count-guests", "hold-venue", "seat-guests", "backup-venue"}))
    spec = parse_spec_text(text, "doc.md", "markdown", vocabulary)
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    return plan, [f"{w.line}:{w.code}" for w in spec.warnings]


HELP_CENTRE = """# Help centre: how the wedding seating job works

**Q: What happens first?**
A: `count-guests` reads the RSVPs and keeps who said yes. At the same time - no need to wait -
`hold-venue` books the rooms for the date. If the RSVP form times out, retry it twice. If the venue
booking is down, carry on with no rooms.

**Q: And after that?**
A: `seat-guests` takes the guests and the rooms and draws the seating plan.
"""

WIKI = """# Venue night (wiki)

**How do we start?** The `count-guests` skill goes through the replies. Meanwhile, the
`hold-venue` skill checks the rooms on the date; if the rooms lookup fails, retry it 3 times.

**What comes out?** `seat-guests` draws the plan from the guests and rooms.
"""

EMAIL = """# Re: Saturday

**First thing.** Please have `count-guests` run over the replies, and at the same time `hold-venue`
reserves the rooms.

**Then.** `seat-guests` makes the plan from both.
"""

RUNBOOK = """# Runbook: venue night

**Intake.** `count-guests` tallies the replies. Then hold-venue works out which rooms are free on
the date.

**Seating.** `seat-guests` draws the plan.
"""


@pytest.mark.parametrize("text", [HELP_CENTRE, WIKI, EMAIL, RUNBOOK], ids=["faq", "wiki", "email", "runbook"])
def test_a_skill_said_to_work_mid_answer_is_a_step_of_its_own(text: str) -> None:
    plan, warnings = _plan(text)
    assert [s.skill for s in plan.steps] == ["count-guests", "hold-venue", "seat-guests"]
    seat = plan.steps[2]
    assert set(seat.depends_on) == {plan.steps[0].id, plan.steps[1].id}
    assert any(w.endswith("spec.step-in-prose") for w in warnings)
    assert not any(w.endswith("spec.skill-not-run") for w in warnings)


def test_the_sentences_about_each_go_with_its_step() -> None:
    plan, warnings = _plan(HELP_CENTRE)
    first, second = plan.steps[0], plan.steps[1]
    assert second.depends_on == ()  # "At the same time": beside the first
    assert first.policy.retry.max_retries == 2 or any(r.retry.max_retries == 2 for r in first.policy.rules)
    assert second.policy.fallback.action.value == "default" and first.policy.fallback.action.value == "fail"
    assert "4:spec.step-in-prose" in warnings


def test_a_sentence_sharing_no_words_goes_with_the_second_unless_a_later_one_is_its() -> None:
    text = "`count-guests` reads the replies. Meanwhile `hold-venue` books rooms. If it times out, retry twice."
    parts = split_text(text, _known, set())
    assert parts is not None and [len(p) for p in parts] == [1, 2]
    text = ("`count-guests` reads the replies. Meanwhile `hold-venue` books rooms. If the form times out, retry "
            "twice. If the venue is down, carry on.")
    parts = split_text(text, _known, set())
    assert parts is not None and [s for _, s in parts[0]][1] == "If the form times out, retry twice."
    assert [s for _, s in parts[1]][1] == "If the venue is down, carry on."


def test_then_makes_it_wait_for_the_first() -> None:
    plan, _ = _plan(RUNBOOK)
    assert plan.steps[1].depends_on == (plan.steps[0].id,)


@pytest.mark.parametrize("sentence", [
    "At the same time - it doesn't wait - `hold-venue` counts the rooms.",
    "Meanwhile, the hold-venue skill checks the rooms.",
    "Then `hold-venue` works out the rooms.",
    "Once that's back, `hold-venue` books the rooms.",
    "Have `hold-venue` hold the rooms.",
    "`hold-venue` is run on the date.",
    "`hold-venue` will book the rooms.",
])
def test_said_as_doing_work(sentence: str) -> None:
    assert does_work(sentence, "hold-venue")


@pytest.mark.parametrize("sentence", [
    "If the venue is down, use `hold-venue` instead.",
    "If that fails, `hold-venue` takes over.",
    "We no longer run `hold-venue`.",
    "`hold-venue` isn't used any more.",
    "`hold-venue`'s output looks like a list of rooms.",
    "`hold-venue` output looks like a list of rooms.",
    "The rooms that `hold-venue` gives back are a list.",
    "If the rooms are gone, `hold-venue` counts again.",
    "`hold-venue` was retired last year.",
])
def test_not_said_as_doing_work(sentence: str) -> None:
    assert not does_work(sentence, "hold-venue")


def _known(name: str) -> bool:
    return name in {"count-guests", "hold-venue", "seat-guests", "backup-venue"}


@pytest.mark.parametrize("text", [
    "`count-guests` reads the replies. If it fails, use `backup-venue` instead.",
    "`count-guests` reads the replies. We no longer run `hold-venue` here, the hall is ours.",
    "`count-guests` reads the replies. `hold-venue`'s output looks like a list of rooms.",
    "`count-guests` reads the replies, using the rooms from `hold-venue`.",
])
def test_a_paragraph_that_tells_one_step_is_left_whole(text: str) -> None:
    assert split_text(text, _known, set()) is None


def test_a_skill_another_lead_runs_is_not_split_off() -> None:
    text = "`seat-guests` draws the plan. Then `count-guests` tallies it again."
    assert split_text(text, _known, {"count-guests"}) is None
    assert split_text(text, _known, set()) is not None


def test_a_fallback_in_a_faq_stays_a_fallback() -> None:
    text = """# FAQ

**Q: What runs?**
A: `hold-venue` books the rooms. If it is down, use `backup-venue` instead.

**Q: Then?**
A: `seat-guests` draws the plan.
"""
    plan, warnings = _plan(text)
    assert [s.skill for s in plan.steps] == ["hold-venue", "seat-guests"]
    assert not any(w.endswith("spec.step-in-prose") for w in warnings)
