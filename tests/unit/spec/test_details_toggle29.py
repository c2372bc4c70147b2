"""A choice written as `<details>` toggles, one per case (`spec.details_toggle29`): a GitHub issue, a
Notion export, a lab wiki page read as a step per toggle, the summary its condition; a toggle that
holds a log or an example is not steps (warned, not run), and toggles that are notes stay notes."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.blocks import Other, Para
from orchestrator.spec.details_toggle29 import is_record, toggle_branches
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "triage-bug", "hotfix-release", "queue-for-sprint", "notify-reporter", "weigh-sample", "dilute-sample",
    "run-assay", "thaw-stock", "fetch-rows", "load-rows", "book-room", "send-invite")])


def _spec(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "page.md", "markdown", _VOCAB)


def _skills(spec: WorkflowSpec) -> list[str]:
    return [(s.skill or "").strip("`*") or next((m.text for m in s.mentions if m.text in _VOCAB.skills), "")
            for s in spec.steps]


ISSUE = """# Bug intake: what the bot does with a new issue

### 1. Triage

The bot runs `triage-bug` on the issue and gets back `severity`.

### 2. Route it

<details>
<summary>When severity is "critical"</summary>

Run `hotfix-release` with the issue number. Give it 10 minutes at most.

</details>
<details>
<summary>Anything else</summary>

→ `queue-for-sprint` with the issue number.

</details>

### 3. Tell the reporter

Whichever branch ran, `notify-reporter` with the issue number.
"""


def test_a_github_issue_with_a_toggle_per_case_is_a_step_per_toggle() -> None:
    spec = _spec(ISSUE)
    assert _skills(spec) == ["triage-bug", "hotfix-release", "queue-for-sprint", "notify-reporter"]
    hot, queue = spec.steps[1], spec.steps[2]
    assert hot.when is not None and "critical" in hot.when
    assert queue.otherwise_of == hot.id and queue.when is None
    assert any("10 minutes" in t.text for t in hot.texts)
    said = [w for w in spec.warnings if w.code == "spec.reading" and "toggles" in w.message]
    assert [w.line for w in said] == [9]
    assert not [w for w in spec.warnings if "block not read" in w.message]


NOTION = """# Sample prep (lab wiki, exported from Notion)

## Protocol

### 1 · Weigh

**weigh-sample** on the tube id; gives `mass_mg`.

### 2 · Dilute or not

<details>
<summary>💧 mass_mg > 50</summary>
→ **dilute-sample** with the tube id and mass_mg.
</details>

<details>
<summary>🧪 otherwise</summary>
→ **run-assay** straight on the tube id.
Takes a while: time out after 20 minutes.
</details>
"""


def test_a_notion_export_whose_toggles_hold_their_body_under_the_summary() -> None:
    spec = _spec(NOTION)
    assert _skills(spec) == ["weigh-sample", "dilute-sample", "run-assay"]
    dilute, assay = spec.steps[1], spec.steps[2]
    assert dilute.when is not None and "50" in dilute.when
    assert assay.otherwise_of == dilute.id
    assert any("20 minutes" in t.text for t in assay.texts)


HANDBOOK = """# Room booking, team handbook

## Steps

### Book

<details><summary>if the team is over 8 people</summary>

`book-room` for the big room, `size` 20.

</details>
<details><summary>otherwise</summary>

`book-room` for a huddle room.

</details>

### Invite

`send-invite` to the team.
"""


def test_a_handbook_whose_two_cases_run_the_same_skill() -> None:
    spec = _spec(HANDBOOK)
    assert _skills(spec) == ["book-room", "book-room", "send-invite"]
    assert spec.steps[1].otherwise_of == spec.steps[0].id


LOG = """# Nightly load

### 1. Fetch

`fetch-rows` from the warehouse.

<details>
<summary>Full log of last night's run</summary>

```
02:00 fetch-rows started
02:04 fetch-rows done, 1 200 rows
```
`load-rows` finished in 3 s (from the log above)

</details>

### 2. Load

`load-rows` into the mart.
"""


def test_a_toggle_that_holds_a_log_is_warned_and_not_run() -> None:
    spec = _spec(LOG)
    assert _skills(spec) == ["fetch-rows", "load-rows"]
    said = [w for w in spec.warnings if "holds a record" in w.message]
    assert [w.line for w in said] == [7]
    assert not any("3 s" in t.text for t in spec.steps[0].texts)


EXAMPLES = """# Thaw and assay

### 1. Thaw

<details>
<summary>Example: what it looked like on the 3rd</summary>

→ `thaw-stock` ran with vial 12.

</details>
<details>
<summary>Example output</summary>

→ `run-assay` gave 0.82.

</details>

Run `thaw-stock` on the vial.
"""


def test_two_example_toggles_are_no_choice() -> None:
    spec = _spec(EXAMPLES)
    assert _skills(spec) == ["thaw-stock"]
    assert spec.steps[0].when is None
    assert len([w for w in spec.warnings if "holds a record" in w.message]) == 2


def test_one_toggle_of_notes_is_left_as_notes() -> None:
    text = "# x\n\n### 1. Fetch\n\n`fetch-rows` from the db.\n\n<details>\n<summary>Retries</summary>\n\n" \
           "If it fails, try twice more.\n\n</details>\n"
    spec = _spec(text)
    assert _skills(spec) == ["fetch-rows"]
    assert any("try twice more" in t.text for t in spec.steps[0].texts)
    assert not [w for w in spec.warnings if "toggles" in w.message and w.code == "spec.reading"]


def test_blocks_without_a_toggle_are_returned_as_they_are() -> None:
    src = Source("a\n", "x.md")
    blocks = [Para(line=1, text="`fetch-rows` on it"), Other(line=2, kind="html_block", text="<br>")]
    assert toggle_branches(blocks, src) is blocks  # type: ignore[arg-type]


def test_what_a_record_title_is() -> None:
    assert is_record("Full log") and is_record("Example output") and is_record("Stack trace (prod)")
    assert not is_record('tier is "high"') and not is_record("any other tier") and not is_record("Retries")
