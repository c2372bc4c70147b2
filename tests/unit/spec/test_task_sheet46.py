"""A project plan's task sheet saved as fixed-width text is read as the markdown it stands for: the custom-field
legend the inputs, each row whose resource is a skill a step with its predecessors, a summary task's note the
steps' lead. Documents: a ProjectLibre export of a data-centre move, a GanttProject sheet of a kitchen refit, and
near misses: a timesheet with an ID column but no predecessors, and a sheet whose resources are all people."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.task_sheet46 import task_sheet_markdown
from orchestrator.spec.vocabulary import Vocabulary

_MOVE = """\
Rack move - exported from ProjectLibre
Set before running:   Text1 = rack_id   Text2 = room
                      Number1 = max_watts
ID   Name                 Predecessors   Resources        Notes
0    MOVE [Text1]                                         whole run 90 min at most
1    Drain the rack                      rack-drain       for rack [Text1]; 2 minutes max
2    Check the room                      room-check       room and Number1
3    Lift and shift       1,2            rack-lift        retry 2 times
                                                          >> never on a Friday
4    Tell facilities      3SS+1 day      Facilities desk  by phone
"""

_KITCHEN = """\
#    Task            Depends on   Assigned to     Comments
1    Strip out                    strip-out       skip and all
2    First fix       1            first-fix       electrics then plumbing
3    Plaster         2            plaster-walls   wait a day to dry
"""

_TIMESHEET = """\
ID   Name            Hours   Assigned to
1    Strip out       4       strip-out
2    First fix       6       first-fix
"""

_PEOPLE = """\
ID   Task            Predecessors   Resource Names
1    Strip out                      Dave
2    First fix       1              Sue
"""

_CATALOG = Vocabulary(skills=frozenset({"rack-drain", "room-check", "rack-lift", "strip-out", "first-fix",
                                        "plaster-walls"}))


def test_a_projectlibre_sheet_reads_its_legend_steps_and_predecessors() -> None:
    read = task_sheet_markdown(_MOVE, _CATALOG)
    assert read is not None
    text, origin, warnings = read
    assert len(origin) == len(text.split("\n"))
    assert "## Inputs" in text and "- rack_id" in text and "- max_watts" in text
    assert "## Step 3: Lift and shift" in text and "- Depends on: 1, 2" in text
    assert "for rack [rack_id]" in text and "room and max_watts" in text  # a custom field's code: its name
    assert any("task 4" in m and "no skill" in m for _, m in warnings)
    spec = parse_spec_text(_MOVE, "move.txt", "markdown")
    assert [s.skill for s in spec.steps] == ["rack-drain", "room-check", "rack-lift"]
    assert [s.depends_on for s in spec.steps] == [(), (), ("step-1", "step-2")]
    assert {i.name for i in spec.inputs} == {"rack_id", "room", "max_watts"}
    assert spec.steps[2].where.endswith(":8")


def test_a_ganttproject_sheet_without_a_legend_and_without_a_catalog() -> None:
    spec = parse_spec_text(_KITCHEN, "kitchen.txt", "markdown")
    assert [s.skill for s in spec.steps] == ["strip-out", "first-fix", "plaster-walls"]
    assert [s.depends_on for s in spec.steps] == [(), ("step-1",), ("step-2",)]
    assert [s.where.rsplit(":", 1)[1] for s in spec.steps] == ["2", "3", "4"]


def test_a_predecessors_link_type_and_lag_are_warned_not_read() -> None:
    sheet = _MOVE.replace("4    Tell facilities      3SS+1 day      Facilities desk  by phone",
                          "4    Tell facilities      3SS+1 day      room-check       by phone")
    read = task_sheet_markdown(sheet, _CATALOG)
    assert read is not None
    assert any("3SS+1 day" in m and "lag" in m for _, m in read[2])


def test_near_misses_a_timesheet_and_a_sheet_of_people_are_left_alone() -> None:
    assert task_sheet_markdown(_TIMESHEET, _CATALOG) is None  # no predecessors column
    assert task_sheet_markdown(_PEOPLE, _CATALOG) is None  # no row's resource is a skill
