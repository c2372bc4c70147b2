"""Checklist tables whose doer column names the skills, rows a person does, Task cells that say more,
Uses cells in the author's words, and Field/Value tables of the inputs (`spec.table35`): a bakery
closing checklist, a lab protocol, an IT onboarding sheet, a kennel intake form, and texts that must
not be read so."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.blocks import Table
from orchestrator.spec.table35 import (
    cell_skill,
    flagged_condition,
    task_parts,
    tick_column,
    uses_cell,
    value_table,
)
from orchestrator.spec.vocabulary import Vocabulary

_OUT = {
    "till-count": {"total", "short", "float_ok"},
    "order-flour": {"order_id"},
    "close-report": {"report"},
    "sample-log": {"sample_id", "contaminated", "reading"},
    "rerun-assay": {"reading"},
    "file-result": {"filed"},
    "make-account": {"login", "needs_laptop"},
    "ship-laptop": {"tracking", "courier"},
    "send-welcome": {"sent"},
    "kennel-book": {"pen", "booking"},
}
_IN = {
    "till-count": {"drawer"},
    "order-flour": {"kg", "day"},
    "close-report": {"takings", "shop", "order_ref"},
    "sample-log": {"sample"},
    "rerun-assay": {"sample_id"},
    "file-result": {"sample_id", "value"},
    "make-account": {"name", "team"},
    "ship-laptop": {"login", "address"},
    "send-welcome": {"login", "parcel"},
    "kennel-book": {"size", "arrival"},
}
_VOCAB = Vocabulary.of([(n, None) for n in _OUT]).with_outputs(
    lambda s: frozenset(_OUT.get(s, ())), lambda s: frozenset(_IN.get(s, ())))

_BAKERY = (
    "# Closing up, Elm St bakery\n"
    "\n"
    "| Item | Value |\n"
    "|---|---|\n"
    "| Till drawer | `drawer` (front or back) |\n"
    "| Shop | `shop` |\n"
    "\n"
    "## Closing\n"
    "\n"
    "| ☐ | # | Task | Who | Uses | Notes |\n"
    "|---|---|---|---|---|---|\n"
    "| ☐ | 1 | Count the till | `till-count` | drawer | Try twice more if it jams. |\n"
    "| ☐ | 2 | Order flour — only if till-count flags short | `order-flour` | day | |\n"
    "| ☐ | 3 | Mop the floor | Sam | — | last thing |\n"
    "| ☐ | 4 | Close report — once the till is counted | `close-report` | takings (total from #1), shop, order ref from #2 | |\n"
)


def test_a_bakery_who_column_names_the_skills_and_sams_row_is_no_step() -> None:
    spec = parse_spec_text(_BAKERY, "close.md", "markdown", _VOCAB)
    assert [s.skill for s in spec.steps] == ["`till-count`", "`order-flour`", "`close-report`"]
    said = [w.message for w in spec.warnings]
    assert any("column 'Who' names a catalog skill" in m and "'Uses' read as what the step takes" in m for m in said)
    assert any("row 'Mop the floor' is done by Sam, a person" in m for m in said)
    assert not any("column '☐'" in m for m in said)  # tick boxes: nothing to say
    assert [i.name for i in spec.inputs or ()] == ["drawer", "shop"]
    order = spec.steps[1]
    assert order.name == "Order flour" and order.when == "short == true"
    report = spec.steps[2]
    by_name = {f.name: (f.source, f.description) for f in report.inputs}
    assert by_name.get("takings") == ("steps.step-1.output", "total")
    assert by_name.get("order_ref") == ("steps.step-2.output", "order_ref")


_LAB = (
    "# Water sample protocol\n"
    "\n"
    "| Field | Value |\n"
    "|---|---|\n"
    "| Sample | `sample` |\n"
    "| Site | Riverside |\n"
    "\n"
    "## Protocol\n"
    "\n"
    "| No. | Task | Owner | Comments |\n"
    "|---|---|---|---|\n"
    "| 1 | Log the sample | `sample-log` | |\n"
    "| 2 | Rerun the assay — only if sample-log flags contaminated | `rerun-assay` | |\n"
    "| 3 | **Otherwise** (clean) file the result | `file-result` | |\n"
    "| 4 | Sign the bench sheet | lab tech | by hand |\n"
)


def test_a_lab_protocols_owner_column_and_an_otherwise_task_cell() -> None:
    spec = parse_spec_text(_LAB, "lab.md", "markdown", _VOCAB)
    assert [s.skill for s in spec.steps] == ["`sample-log`", "`rerun-assay`", "`file-result`"]
    assert spec.steps[1].when == "contaminated == true"
    assert spec.steps[2].name == "File the result" and spec.steps[2].otherwise_where is not None
    names = {i.name: i.description for i in spec.inputs or ()}
    assert set(names) == {"sample", "site"} and "Riverside" in names["site"]  # named from its field
    said = [w.message for w in spec.warnings]
    assert any("row 'Sign the bench sheet' is done by lab tech" in m for m in said)


_ONBOARD = (
    "Onboarding (IT), paste into the ticket\n"
    "\n"
    "| Key | Value |\n"
    "|---|---|\n"
    "| Starter | `name` |\n"
    "| Team | `team` |\n"
    "| Home address | `address` |\n"
    "| Kit | `kit` — laptop / desktop / none |\n"
    "\n"
    "## Sheet\n"
    "\n"
    "| # | Action | Bot | Input | Notes |\n"
    "|---|---|---|---|---|\n"
    "| 1 | Make the account | `make-account` | name, team | |\n"
    "| 2 | Ship the laptop — can go straight away | `ship-laptop` | login from #1, address | "
    "Laptop shipping needs the IT lead's OK first. Give them 1 hour; no reply = ship anyway. |\n"
    "| 3 | Welcome mail | `send-welcome` | login from #1, tracking from #2 | |\n"
)


def test_an_onboarding_bot_column_an_input_listed_value_gates_the_approval() -> None:
    spec = parse_spec_text(_ONBOARD, "onboard.md", "markdown", _VOCAB)
    assert [s.skill for s in spec.steps] == ["`make-account`", "`ship-laptop`", "`send-welcome`"]
    ship = spec.steps[1]
    assert ship.approval is not None and ship.approval.when == "kit == 'laptop'"
    welcome = {f.name: (f.source, f.description) for f in spec.steps[2].inputs}
    assert welcome.get("parcel") == ("steps.step-2.output", "tracking")  # the one part left, the one input left
    assert [i.name for i in spec.inputs or ()] == ["name", "team", "address", "kit"]


def test_a_table_with_a_real_skill_column_and_a_who_column_of_people_is_as_before() -> None:
    text = (
        "# Weekly\n\n## Steps\n\n"
        "| # | Step | Skill | Who |\n|---|---|---|---|\n"
        "| 1 | Count | `till-count` | Ana |\n"
        "| 2 | Report | `close-report` | Ben |\n"
    )
    spec = parse_spec_text(text, "weekly.md", "markdown", _VOCAB)
    assert [s.skill for s in spec.steps] == ["`till-count`", "`close-report`"]
    assert not any("is done by" in w.message for w in spec.warnings)
    assert not any("names a catalog skill in its rows" in w.message for w in spec.warnings)


def test_a_notes_column_naming_one_fallback_is_not_the_skill_column() -> None:
    text = (
        "# Lab\n\n## Steps\n\n"
        "| # | Step | Skill | If it breaks |\n|---|---|---|---|\n"
        "| 1 | Log | `sample-log` | use `rerun-assay` instead |\n"
        "| 2 | File | `file-result` | |\n"
        "| 3 | Report | `close-report` | |\n"
    )
    spec = parse_spec_text(text, "lab.md", "markdown", _VOCAB)
    assert [s.skill for s in spec.steps] == ["`sample-log`", "`file-result`", "`close-report`"]


def test_a_field_value_table_beside_an_inputs_section_stays_unread() -> None:
    text = (
        "# Kennel intake\n\n"
        "| Field | Value |\n|---|---|\n| Dog | `dog` |\n\n"
        "## Inputs\n\n- `size`\n- `arrival`\n\n"
        "## Steps\n\n1. Book a pen with `kennel-book`.\n"
    )
    spec = parse_spec_text(text, "kennel.md", "markdown", _VOCAB)
    assert [i.name for i in spec.inputs or ()] == ["size", "arrival"]
    assert any("preamble" in w.message for w in spec.warnings)


def test_cells_and_parts() -> None:
    assert cell_skill("`till-count`", _VOCAB) == "till-count"
    assert cell_skill("Sam", _VOCAB) is None
    assert cell_skill("run `till-count` after closing and check the float is right", _VOCAB) is None
    assert cell_skill("`till-count`", Vocabulary()) == "till-count"  # no catalog: one backticked name alone
    assert task_parts("Book transport 🤖 — can go straight away") == ("Book transport", "can go straight away", False)
    assert task_parts("**Otherwise** (clean) file it") == ("File it", "", True)
    assert task_parts("Otherwise") == ("Otherwise", "", False)  # a name only
    assert task_parts("Mop — then dry") == ("Mop", "then dry", False)


def test_flagged_conditions_and_their_negatives() -> None:
    assert flagged_condition("till-count flags short", _VOCAB) == ("short == true", "till-count")
    assert flagged_condition("the `sample-log` says contaminated (E. coli)", _VOCAB) == (
        "contaminated == true", "sample-log")
    assert flagged_condition("till-count flags a surplus", _VOCAB) is None  # no such output
    assert flagged_condition("the manager says so", _VOCAB) is None
    assert flagged_condition("till-count flags short", Vocabulary()) is None


def test_uses_cells() -> None:
    cell, said = uses_cell("how many (total from #1), shop", "close-report", _VOCAB)
    assert cell == "takings = total from #1, shop" or "order_ref" not in cell
    cell, said = uses_cell("drawer", "till-count", _VOCAB)
    assert (cell, said) == ("drawer", [])
    cell, said = uses_cell("size, arrival day", "kennel-book", _VOCAB)
    assert cell == "size, arrival = arrival_day" and said
    cell, said = uses_cell("anything", "no-such-skill", _VOCAB)
    assert (cell, said) == ("anything", [])


def test_tick_columns_and_value_tables() -> None:
    ticks = Table(line=1, header=("☐", "Task"), rows=((2, ("☐", "a")), (3, ("☑", "b")), (4, ("", "c"))))
    assert tick_column(ticks, 0) and not tick_column(ticks, 1)
    assert value_table(Table(line=1, header=("Field", "Value"), rows=((2, ("A", "`a`")),)))
    assert value_table(Table(line=1, header=("Key", "Value"), rows=((2, ("A", "`a`")),)))
    assert not value_table(Table(line=1, header=("Field", "Value"), rows=()))
    assert not value_table(Table(line=1, header=("Name", "Type", "Value"), rows=((2, ("a", "b", "c")),)))
    assert not value_table(Table(line=1, header=("Step", "Skill"), rows=((2, ("a", "`b`")),)))


def test_a_column_whose_header_says_it_holds_skills_is_left_to_its_own_reader() -> None:
    # a state table's "Entry action (skill)": the header says what the column holds, so the doer
    # reading never takes it (the state-table reader does; holdout8 55 lost its inputs to it)
    text = (
        "# Till states\n\n## States\n\n"
        "| State | Entry action (skill) | Reads | Notes |\n|---|---|---|---|\n"
        "| `COUNTING` | `till-count` | context `drawer` | |\n"
        "| `REPORTING` | `close-report` | COUNTING's `total` | |\n"
    )
    spec = parse_spec_text(text, "states.md", "markdown", _VOCAB)
    assert not any("names a catalog skill in its rows" in w.message for w in spec.warnings)
