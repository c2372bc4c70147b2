"""`plan.literal_said25`: a quoted text said right after a skill input's name in the step's prose.

The documents are our own: an on-call runbook, a recipe card, a lab protocol, a YAML job of our own
schema, a ticket, a shell crontab line; none is a fixture's.
"""

from __future__ import annotations

from orchestrator.plan.literal_said25 import bind_quoted_said, called_with, quoted_said
from orchestrator.plan.model import InputBinding
from orchestrator.spec.model import StepSpec


def _step() -> StepSpec:
    return StepSpec(id="step-2", number=2, name="Step", where="doc.md:20", description="")


def _bind(names: list[str], text: str, document: str = "", skill: str = "",
          types: dict[str, str] | None = None) -> tuple[dict[str, InputBinding], list[str]]:
    bindings: dict[str, InputBinding] = {}
    found = bind_quoted_said(_step(), names, text, document, skill, types or {}, bindings, {}, "doc.md")
    return bindings, [d.message for d in found]


def test_runbook_channel_said_in_curly_quotes() -> None:
    bindings, found = _bind(["channel"], "2. Post the summary to the channel “#ops-night” with `post-status`.")
    assert bindings["channel"] == InputBinding(source="literal", value="#ops-night")
    assert 'channel: "#ops-night"' in found[0]


def test_recipe_card_name_then_as() -> None:
    bindings, _ = _bind(["oven"], "Bake with `bake-loaf`, using the oven as \"deck 2\", for 40 minutes.")
    assert bindings["oven"].value == "deck 2"


def test_lab_protocol_name_set_to() -> None:
    bindings, _ = _bind(["buffer"], "Run `elute-column` with the buffer set to \"TE pH 8.0\" and collect.")
    assert bindings["buffer"].value == "TE pH 8.0"


def test_yaml_job_note_backticked_name() -> None:
    bindings, _ = _bind(["bucket"], 'note: upload-logs writes to `bucket` "archive-eu-1" every night')
    assert bindings["bucket"].value == "archive-eu-1"


def test_ticket_parenthesis_after_the_skill_in_another_paragraph() -> None:
    """A ticket whose one paragraph names two skills, each with its own parenthesis of what it is given:
    the second skill's step takes the quoted value from its own parenthesis."""
    document = ("Then resize-disk (given the new size) and tag-volume (given the volume id and the label "
                "\"db-primary\") run together.")
    assert called_with("tag-volume", document) == ['given the volume id and the label "db-primary"']
    bindings, found = _bind(["label"], "tag-volume must finish in a minute.", document, "tag-volume")
    assert bindings["label"].value == "db-primary" and "after `tag-volume`'s name" in found[0]
    bindings, _ = _bind(["label"], "resize-disk may be retried.", document, "resize-disk")
    assert bindings == {}


def test_negative_condition_is_no_value() -> None:
    assert quoted_said("branch", 'Skip notices if the branch is "Main Library".') is None
    assert quoted_said("status", 'Only when the status "closed" shows, archive the ticket.') is None


def test_negative_place_after_to_and_other_words_between() -> None:
    assert quoted_said("channel", 'Send the channel digest to "#general" afterwards.') is None
    assert quoted_said("zone", 'Check the zone, then print "done".') is None


def test_negative_shell_variables_and_placeholders_are_references() -> None:
    """A crontab line's `day="$DAY"` and a template's "{{ date }}" are the run's values, not literals."""
    assert quoted_said("day", '/opt/run export day="$DAY" site="${SITE}"') is None
    assert quoted_said("date", 'render with the date "{{ today }}"') is None
    assert quoted_said("appt", 'reminder appt="<each appointment>"') is None


def test_negative_two_values_is_a_guess_and_numbers_go_elsewhere() -> None:
    bindings, found = _bind(["queue"], 'Use the queue "fast" for VIPs; else the queue "slow".')
    assert bindings == {} and "two different quoted values" in found[0]
    bindings, found = _bind(["limit"], 'Cap it with the limit "40".', types={"limit": "number"})
    assert bindings == {} and found == []
