"""A condition said in a sentence before the one naming the step it governs is that step's
(`spec.condition_ahead`, called by `spec.anchored`), warned at its line; a condition about the
step before failing, or "otherwise nothing", stays where it is. Several kinds of document."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


def _codes(spec: WorkflowSpec, code: str) -> list[int]:
    return [w.line for w in spec.warnings if w.code == code]


def test_lab_protocol_condition_sentence_before_the_step() -> None:
    spec = _read("# Bench protocol: pellet wash\n\n"
                 "Start with `spin-down` on the tube rack. If the pellet count is over 3, a second wash is\n"
                 "needed. Use `wash-pellet` on the same rack. Then `read-plate` on what comes out.\n",
                 "spin-down", "wash-pellet", "read-plate")
    assert [s.when for s in spec.steps] == [None, "the pellet count is over 3", None]
    assert _codes(spec, "spec.condition-carried") == [3]


def test_ships_log_lines_condition_line_before_the_step_line() -> None:
    spec = _read("0600 log: morning round\nbosun runs check-bilge on the hull\n"
                 "when the water level is above 20 then we pump out\npump-bilge on the forward tank\n"
                 "otherwise nothing to do\nlog-reading with the reading\n",
                 "check-bilge", "pump-bilge", "log-reading")
    assert [s.when for s in spec.steps] == [None, "the water level is above 20", None]
    assert spec.steps[2].otherwise_where is None  # "otherwise nothing to do" is no branch
    assert _codes(spec, "spec.condition-carried") == [3]


def test_podcast_run_sheet_otherwise_sentence_before_the_step() -> None:
    spec = _read("Run sheet ep. 41\n\nFirst `count-guests` from the booking sheet. If guest_count is 0, we\n"
                 "air a rerun with `play-rerun`. Otherwise, we roll the interview. `record-guest` with the mic\n"
                 "list. Wrap with `publish-episode`.\n",
                 "count-guests", "play-rerun", "record-guest", "publish-episode")
    assert spec.steps[1].when is not None and "guest_count" in spec.steps[1].when
    assert spec.steps[2].otherwise_where is not None
    assert _codes(spec, "spec.condition-carried") == [4]


def test_recipe_card_failure_sentence_stays_with_its_step() -> None:
    spec = _read("Sourdough card\n\nFirst `proof-dough` overnight in the fridge. If it fails to rise, try it\n"
                 "again once. Then `bake-loaf` at 230 for 40 min, lid on.\n", "proof-dough", "bake-loaf")
    assert [s.when for s in spec.steps] == [None, None]
    assert not _codes(spec, "spec.condition-carried")
    assert spec.steps[0].retry is not None or any("fails to rise" in t.text for t in spec.steps[0].texts)


def test_transcript_sentence_wrapped_over_lines_keeps_its_condition() -> None:
    spec = _read("[00:02] ok so first `scan-shelves` for the aisle. [00:06] And if the stock count is\n"
                 "[00:09] below 5 — then you run `reorder-stock` for it. [00:13] Then `email-manager`.\n",
                 "scan-shelves", "reorder-stock", "email-manager")
    assert spec.steps[1].when is not None and "stock count is below 5" in spec.steps[1].when
    assert spec.steps[1].texts[0].line == 1


def test_hr_checklist_condition_sentence_before_the_step() -> None:
    spec = _read("New starter checklist (HR)\n\nDay one: `create-account` for the starter. When the role is\n"
                 "remote, IT ships the kit. That's `ship-laptop` to the home address. Finally `book-induction`.\n",
                 "create-account", "ship-laptop", "book-induction")
    assert [s.when for s in spec.steps] == [None, "the role is remote", None]
