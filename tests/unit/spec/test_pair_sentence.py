"""One sentence that starts two skills together is read as two steps (`spec.pair_sentence`): both
skills run, the second starts with the first, each later line goes with the half it names or shares a
word with, and the split is warned; a chain, a fallback or two skills with no words of starting
together stay one step."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.pair_sentence import halves, sentence_pair
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("weigh-flour", input_schema=obj(("sacks",), sacks="array"), output_schema=obj(("grams",), grams="number")),
    skill("warm-oven", input_schema=obj(("ovens",), ovens="array"), output_schema=obj(("hot",), hot="boolean")),
    skill("bake-batch", input_schema=obj(("grams", "hot"), grams="number", hot="boolean"),
          output_schema=obj(("loaves",), loaves="integer")),
)
WORDS = Vocabulary.of([(n, None) for n in ("weigh-flour", "warm-oven", "bake-batch")])


def _read(text: str, name: str = "doc.md") -> WorkflowSpec:
    return parse_spec_text(text, name, "markdown", WORDS)


def _codes(spec: WorkflowSpec) -> list[str]:
    return [f"{w.line}:{w.code}" for w in spec.warnings]


# a recipe card: a bullet starting both, "at the same time", a retry that says a word of the first half
RECIPE = """# Sourdough, Saturday bake

- Start `weigh-flour` on the sacks and `warm-oven` on the oven list at the same time, neither needs the other.
  The scale sticks, so retry the flour weighing 2 times, 10 s apart.
- Then `bake-batch` bakes it.
"""
# a podcast run sheet: a numbered item, the cue at the start, a limit that says a word of the second half
PODCAST = """# Episode 41 run sheet

1. Side by side: `weigh-flour` for the sacks, plus `warm-oven` for the ovens.
   For the ovens, time out after 45 seconds.
2. `bake-batch` once both are back.
"""
# a ship's log (plain text, bare skill names, read anchored): the cue after the second half
SHIPS_LOG = """MV Kittiwake - deck log, Tuesday

0600  Mate: weigh-flour on the galley sacks and warm-oven on the ovens, both go at 0615, neither waits for the other.
0630  Mate: then bake-batch off the two of them.
"""
# a lab protocol: a numbered heading whose first paragraph starts both, "together"
LAB = """# Protocol 7: media prep

## 1. Weigh and warm

Kick off `weigh-flour` on the sacks and `warm-oven` on the ovens together.
Retry the oven 3 times.

## 2. Bake

Run `bake-batch`.
"""


@pytest.mark.parametrize("text", [RECIPE, PODCAST, LAB])
def test_both_skills_run_and_the_second_starts_with_the_first(text: str) -> None:
    spec = _read(text)
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    skills = [s.skill for s in plan.steps]
    assert skills[:2] == ["weigh-flour", "warm-oven"]
    assert plan.steps[1].depends_on == ()
    assert plan.steps[2].skill == "bake-batch"
    assert sorted(plan.steps[2].depends_on) == sorted([plan.steps[0].id, plan.steps[1].id])
    assert any(c.endswith(":spec.pair-sentence") for c in _codes(spec))
    assert not any(c.endswith(":spec.skill-not-run") for c in _codes(spec))


def test_a_later_line_goes_with_the_half_it_shares_a_word_with() -> None:
    recipe = build_plan(_read(RECIPE), CATALOG, settings=SETTINGS)
    assert recipe.steps[0].policy.retry.max_retries == 2 and recipe.steps[1].policy.retry.max_retries == 0
    podcast = build_plan(_read(PODCAST), CATALOG, settings=SETTINGS)
    assert podcast.steps[1].policy.attempt_timeout_s == 45 and podcast.steps[0].policy.attempt_timeout_s is None
    lab = build_plan(_read(LAB), CATALOG, settings=SETTINGS)
    assert lab.steps[1].policy.retry.max_retries == 3 and lab.steps[0].policy.retry.max_retries == 0


def test_the_warning_says_where_a_line_went_and_why() -> None:
    spec = _read(RECIPE)
    [warning] = [w for w in spec.warnings if w.code == "spec.pair-sentence"]
    assert warning.line == 3
    assert "line 4 with `weigh-flour` (it says 'flour')" in warning.message
    assert "'at the same time, neither needs the other' read as saying they start together" in warning.message


def test_a_ships_log_read_anchored_starts_both_at_the_line() -> None:
    spec = _read(SHIPS_LOG, "log.txt")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert [s.skill for s in plan.steps] == ["weigh-flour", "warm-oven", "bake-batch"]
    assert plan.steps[1].depends_on == ()
    assert any(c == "3:spec.pair-sentence" for c in _codes(spec))


@pytest.mark.parametrize("sentence", [
    "Run `weigh-flour` on the sacks, then `warm-oven` on the ovens at the same time.",  # an order
    "Run `weigh-flour` on the sacks, or `warm-oven` if it fails, at the same time.",  # a fallback
    "Run `weigh-flour` on the sacks and `warm-oven` on the ovens.",  # no words of starting together
    "Run `weigh-flour` at the same time.",  # one skill
    "Feed `weigh-flour` into `warm-oven` side by side.",  # a feed
])
def test_no_split_without_two_skills_joined_and_said_to_start_together(sentence: str) -> None:
    assert halves(sentence) is None
    assert sentence_pair(sentence, 1) is None


def test_the_halves_drop_the_words_of_starting_together() -> None:
    assert halves("At the same time, run `weigh-flour` on the sacks and `warm-oven` on the ovens.") == (
        "Run `weigh-flour` on the sacks.", "`warm-oven` on the ovens.", "At the same time")
    assert halves("weigh-flour on the sacks & warm-oven on the ovens, both at 6, neither waits.",
                  ("weigh-flour", "warm-oven")) == (
        "weigh-flour on the sacks.", "warm-oven on the ovens.", "both at 6, neither waits")


def test_a_list_item_with_no_cue_stays_one_step_and_warns_as_before() -> None:
    spec = _read(RECIPE.replace(" at the same time, neither needs the other", ""))
    assert len(spec.steps) == 2
    assert not any(c.endswith(":spec.pair-sentence") for c in _codes(spec))


def test_a_numbered_list_item_after_a_split_one_moves_its_number_on_even_when_written_on_one_line() -> None:
    # a bakery prep list: item 1 starts two skills; item 2 is a whole step on one line ("if ...: `x`")
    text = ("# Prep list\n\n"
            "1. Start `weigh-flour` on the sacks and `warm-oven` on the oven list at the same time.\n"
            "2. if step 1 reports grams > 0: `bake-batch`\n")
    spec = _read(text)  # a clash of step ids would raise
    said = [(s.id, s.skill or next((f"`{m.text}`" for m in s.mentions if m.marked != "plain"), "")) for s in spec.steps]
    assert said == [("step-1", "`weigh-flour`"), ("step-2", "`warm-oven`"), ("step-3", "`bake-batch`")]
    assert spec.steps[2].when == "step 1 reports grams > 0"
