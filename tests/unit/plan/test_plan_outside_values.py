"""A value a step's own text names, that its skill reads and nothing produces, is a workflow input
(`plan.outside`): "parse-ledger on ledger_csv" in a plain word, not the output of the step before."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import InputBinding, Plan
from orchestrator.plan.outside import how_to_name, said_by_name, written_as_name
from orchestrator.spec import parse_spec_text


class _Said:
    """A catalog entry with SKILL.md instructions, as a loaded skill has."""

    def __init__(self, name: str, body: str) -> None:
        self._bound, self.body, self.body_line, self.name = skill(name), body, 5, name
        self.skill_md = f"/skills/{name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


def _catalog(**bodies: str) -> FakeCatalog:
    catalog = FakeCatalog()
    catalog._skills = {n.replace("_", "-"): _Said(n.replace("_", "-"), b)  # type: ignore[attr-defined]
                       for n, b in bodies.items()}
    return catalog


CATALOG = _catalog(
    read_pager="Inputs: `pager_log` (text). Outputs: `pages` (list), `count`.",
    read_chat="Inputs: `chat_export` (text). Outputs: `messages` (list), `count`.",
    join_timeline="Inputs: `pages`, `messages`. Outputs: `timeline`.",
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)  # type: ignore[arg-type]


POSTMORTEM = """# Postmortem: checkout outage

## Timeline reconstruction

### Step 1: Pages
Run `read-pager` on the `pager_log`.

### Step 2: Chat
Same time as the pages one; they don't touch each other. `read-chat` on chat_export.

### Step 3: Merge
`join-timeline` with the pages and the messages.
"""

README = """# Usage

## Steps

1. Load the pages: `read-pager` reads `pager_log`.
2. Load the chat: `read-chat` over chat_export (the pages are not needed here).
3. Merge: `join-timeline` with both.
"""

STATUS_PAGE = """# Status update 14:05 UTC

## Steps

### Step 1: Pager
`read-pager` on =pager_log=.

### Step 2: Chat
Runs at the same time as Pager. `read-chat` on ~chat_export~, not on the pages.

### Step 3: Timeline
`join-timeline`.
"""


def test_a_postmortem_step_on_a_plain_name_reads_a_workflow_input_and_waits_for_nothing() -> None:
    plan = _plan(POSTMORTEM)
    chat = plan.step("step-2")
    assert chat.inputs["chat_export"] == InputBinding(source="input", name="chat_export", optional=True)
    assert "pages" not in chat.inputs and chat.depends_on == ()
    assert {i.name for i in plan.inputs} == {"pager_log", "chat_export"}
    assert not [w for w in plan.warnings if w.code == "plan.input-renamed"]


def test_a_readme_step_on_a_plain_name_takes_it_from_outside_not_from_the_step_before() -> None:
    plan = _plan(README)
    chat = plan.step("step-2")
    assert chat.inputs["chat_export"].source == "input"
    assert "pages" not in chat.inputs
    assert plan.step("step-3").inputs["pages"].step == "step-1"


def test_a_status_page_step_in_verbatim_marks_reads_a_workflow_input() -> None:
    plan = _plan(STATUS_PAGE)
    assert plan.step("step-2").inputs["chat_export"].source == "input"
    assert plan.step("step-2").depends_on == ()


def test_an_everyday_word_is_not_taken_for_a_name_and_advice_never_repeats_the_text() -> None:
    assert written_as_name("ledger_csv", "=parse-ledger= on ledger_csv.")
    assert not written_as_name("date", "run it on the date")  # a word, not a name
    assert not written_as_name("ledger_csv", "on ledger_csv_old")
    assert said_by_name(["ledger_csv"], set(), "on ledger_csv") and not said_by_name(["ledger_csv"], set(), "on it")
    assert "already names `ledger_csv`" in how_to_name("ledger_csv", "on ledger_csv")
    assert "write `ledger_csv` in the step's text" in how_to_name("ledger_csv", "on the extract")
