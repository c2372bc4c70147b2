"""A guarded transition of a state machine, in a section no reader takes, is warned at its own
line with the condition to write on the step it leads to; unguarded ones are not warned."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("read-meter", None), ("start-charge", None), ("sleep-device", None)])
TABLE = (
    "## States\n\n| State | Skill |\n|---|---|\n| `Metering` | `read-meter` |\n"
    "| `Charging` | `start-charge` |\n| `Sleeping` | `sleep-device` |\n\n"
)


def _guards(text: str) -> list[tuple[int | None, str]]:
    spec = parse_spec_text(text, "machine.md", "markdown", CATALOG)
    return [(w.line, w.message) for w in spec.warnings if "is guarded by" in w.message]


def test_a_plantuml_like_charger_machine_warns_each_guard_at_its_line() -> None:
    text = (
        "# Charger\n\n" + TABLE + "## Transitions\n\n```\nMetering -> Charging : [battery < 20]\n"
        "Metering -> Sleeping : [else]\nCharging -> Sleeping\n```\n"
    )
    warned = _guards(text)
    assert [line for line, _ in warned] == [14, 15]
    assert "`- When: battery < 20`" in warned[0][1] and "Charging" in warned[0][1]
    assert "`- Otherwise:`" in warned[1][1]


def test_a_design_note_with_guards_inside_the_arrow_names_the_state_of_the_table_row() -> None:
    text = (
        "# Device\n\n" + TABLE + "## Flow between states\n\n"
        "- Metering --(read) [load > 0.8]--> Charging\n- Charging --(done)--> Sleeping\n"
    )
    [(line, message)] = _guards(text)
    assert line == 13 and "Metering → Charging" in message and "load > 0.8" in message


def test_arrows_that_lead_to_no_step_are_not_warned() -> None:
    text = "# Device\n\n" + TABLE + "## Transitions\n\n```\nSleeping --(wake) [timer]--> Off\n```\n"
    assert _guards(text) == []
