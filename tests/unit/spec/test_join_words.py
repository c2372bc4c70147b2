"""A step that says in words it waits for two or more earlier steps waits for all of them
(`spec.join_words`), warned at its line; a denial, an "or" and a list of data are left alone."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown")


def _joined(spec) -> list[int]:  # type: ignore[no-untyped-def]
    return [w.line for w in spec.warnings if w.code == "spec.join-words"]


LESSON = """# Year 9 field trip

1. **Permission slips** — `collect-slips` gathers the signed forms.
2. **Bus** — `book-bus` books the coach; it does not need the slips.
3. **Risk form** — once both the permission slips and the bus are sorted, `write-risk-form` fills in the form.
4. **Letter home** — `send-letter` goes out.
"""


def test_a_lesson_plans_step_waits_for_both_steps_it_names() -> None:
    spec = _spec(LESSON)
    assert spec.steps[2].depends_on == ("step-1", "step-2")
    assert _joined(spec) == [5]
    said = next(w for w in spec.warnings if w.code == "spec.join-words")
    assert "Depends on: 1, 2" in said.message
    assert spec.steps[3].depends_on == ()


ONBOARDING = """# New starter, week one

## Step 1: Laptop
Run `order-laptop`.

## Step 2: Accounts
Run `create-accounts`.

## Step 3: Badge
Run `print-badge`.

## Step 4: Welcome
After Laptop, Accounts & Badge, run `send-welcome`.
"""


def test_an_onboarding_checklist_list_with_commas_and_an_ampersand() -> None:
    spec = _spec(ONBOARDING)
    assert spec.steps[3].depends_on == ("step-1", "step-2", "step-3")
    assert _joined(spec) == [13]


SHIPS_LOG = """# Arrival in port

1. Take the soundings with `sound-tanks`.
2. Log the weather with `log-weather`.
3. Radio the harbour master with `call-harbour`; it doesn't wait for 1 and 2.
4. When step 3 and the bunker order are done, `file-arrival` writes the entry.
5. After the soundings or the weather, `note-deck` adds a remark.
"""


def test_a_ships_log_denial_and_or_are_left_and_a_thing_naming_no_step_is_said() -> None:
    spec = _spec(SHIPS_LOG)
    assert spec.steps[2].depends_on == ()  # "doesn't wait for 1 and 2"
    assert spec.steps[3].depends_on == ("step-3",)
    said = next(w for w in spec.warnings if w.code == "spec.join-words")
    assert said.line == 6 and "'bunker order' names no earlier step" in said.message
    assert spec.steps[4].depends_on == ()  # "or": the branch join's, not this
    assert _joined(spec) == [6]


RECIPE = """# Lemon tart

1. Blind-bake the case with `bake-case`.
2. Make the curd with `cook-curd`.
3. After the butter and the sugar have melted, `whisk-eggs` beats them in.
4. Once the case and the curd are both cool, `fill-tart` pours it, then the lemon zest goes on, then it sets.
"""


def test_a_recipe_cards_data_list_is_left_and_its_join_of_steps_read() -> None:
    spec = _spec(RECIPE)
    assert spec.steps[2].depends_on == ()  # butter and sugar: no steps
    assert spec.steps[3].depends_on == ("step-1", "step-2")
    assert _joined(spec) == [6]
