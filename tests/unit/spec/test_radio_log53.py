"""`spec.radio_log53`: a radio log sheet's numbered items read as steps (other stations' traffic no words of the plan),
"when nobody is X" the other branch (`spec.nobody53`), in logs that are not holdout34's."""

from __future__ import annotations

from pathlib import Path

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.nobody53 import nobody_field, nobody_opening, says_some
from orchestrator.spec.radio_log53 import radio_log_markdown
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

HARBOUR = """HARBOUR WATCH - VHF LOG              Ch 16 / Ch 12
Watchkeeper: DP
UTC    STN        TO         MESSAGE
0902   PILOT1     HM         Inbound tanker at the fairway buoy. Out.
0910   HM(ops)    WATCH      Evening lock-in for the new watch, log it. You need the vessel
                             name and the crew count.
0911   HM         WATCH      Serial 1, count-crew for the vessel name, crew is the crew count.
0912   HM         WATCH      Serial 2, only if count-crew says overdue more than 0: raise-overdue
                             with the vessel name and overdue from count-crew. Over.
0913   HM         WATCH      Serial 3, when no one is overdue: close-watch with the vessel name.
0914   WATCH      HM         Read back serials 1 to 3. Out.
"""

_SKILLS = (
    skill("count-crew", input_schema=obj(("vessel", "crew"), vessel="string", crew="integer"),
          output_schema=obj(("overdue",), overdue="integer")),
    skill("raise-overdue", input_schema=obj(("vessel", "overdue"), vessel="string", overdue="integer"),
          output_schema=obj(("status",), status="string")),
    skill("close-watch", input_schema=obj(("vessel",), vessel="string"), output_schema=obj(("status",), status="string")),
)
_NAMES = frozenset(s.name for s in _SKILLS)


def test_items_become_steps_and_other_stations_traffic_is_set_aside() -> None:
    got = radio_log_markdown(HARBOUR, Vocabulary(skills=_NAMES))
    assert got is not None
    md, origin, warnings = got
    assert md.startswith("# HARBOUR WATCH - VHF LOG")
    assert "### Step 1: count-crew" in md and "### Step 3: close-watch" in md
    assert "Serial 2" not in md and "only if count-crew says overdue more than 0: raise-overdue" in md
    assert "Inbound tanker" not in md and "Read back" not in md and "Over." not in md
    assert len(origin) == len(md.split("\n"))
    assert any("other stations (lines 4, 11)" in m for _, m in warnings)
    # each message line keeps its own line
    assert origin[md.split("\n").index("with the vessel name and overdue from count-crew.")] == 8


def test_the_otherwise_item_runs_when_the_condition_above_is_false(tmp_path: Path) -> None:
    path = tmp_path / "watch.txt"
    path.write_text(HARBOUR, encoding="utf-8")
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    steps = {s.id: s for s in spec.steps}
    assert len(spec.steps) == 3 and steps["step-2"].when and steps["step-3"].otherwise_of == "step-2"
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    assert [s.skill for s in plan.steps] == ["count-crew", "raise-overdue", "close-watch"]
    assert "not" in str(plan.steps[2].when) and "overdue" in str(plan.steps[1].when)


def test_near_misses_are_no_radio_log() -> None:
    names = Vocabulary(skills=_NAMES)
    # no message column title
    assert radio_log_markdown(HARBOUR.replace("MESSAGE", "NOTES"), names) is None
    # one item only
    one = "\n".join(line for line in HARBOUR.split("\n") if "Serial 2" not in line and "Serial 3" not in line
                    and "with the vessel name and overdue" not in line)
    assert radio_log_markdown(one, names) is None
    # a line breaking the columns
    assert radio_log_markdown(HARBOUR + "stray words at the margin\n", names) is None


def test_nobody_is_x_words() -> None:
    assert nobody_field("nobody is missing") == "missing"
    assert nobody_field("none are late") == "late"
    assert nobody_field("no-one was hurt") == "hurt"
    assert nobody_field("somebody is missing") is None
    assert nobody_opening("when no one is overdue: close-watch") == ("when no one is overdue", "overdue")
    assert nobody_opening("if nothing was rejected, file-it") == ("if nothing was rejected", "rejected")
    assert nobody_opening("close it when nobody is left") is None  # not at the opening
    assert says_some("count-crew says overdue more than 0", "overdue")
    assert says_some("steps['a'].output.late >= 1", "late")
    # near misses: another threshold, another field
    assert not says_some("overdue more than 5", "overdue")
    assert not says_some("missing == 0", "missing")
    assert not says_some("late > 0", "overdue")


BAKERY = """# Bake check

## Step 1: Count

Run `count-crew` for the vessel name and crew.

## Step 2: Alert

Only if count-crew says overdue {cmp}: `raise-overdue` with the vessel name.

## Step 3: Close

When nobody is overdue: `close-watch` with the vessel name.
"""


def test_nobody_in_a_markdown_step_is_the_other_branch_only_of_some_being_there(tmp_path: Path) -> None:
    path = tmp_path / "bake.md"
    path.write_text(BAKERY.format(cmp="more than 0"), encoding="utf-8")
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    assert spec.steps[2].otherwise_of == "step-2"
    # near miss: the step before runs when more than 5 are overdue; "nobody is overdue" is not its other side
    path.write_text(BAKERY.format(cmp="more than 5"), encoding="utf-8")
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    assert spec.steps[2].otherwise_of is None and not spec.steps[2].when
    assert any("when nobody is overdue" in w.message.lower() and "not read" in w.message for w in spec.warnings)


def test_the_whole_documents_sentences_have_no_time_or_callsigns() -> None:
    from orchestrator.spec.radio_log53 import radio_messages

    got = radio_messages(HARBOUR.split("\n"))
    assert got[5] == (True, "Evening lock-in for the new watch, log it. You need the vessel")
    assert got[6] == (False, "name and the crew count.")
    assert got[9] == (False, "with the vessel name and overdue from count-crew.")  # "Over." is radio procedure
    # near misses: no header with a message column, or fewer than three rows
    assert radio_messages(HARBOUR.replace("MESSAGE", "NOTES").split("\n")) == {}
    assert radio_messages(HARBOUR.split("\n")[:6]) == {}
