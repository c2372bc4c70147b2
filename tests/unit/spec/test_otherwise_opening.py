"""A step proposed as the other branch of the one before, opening with a word that is also a word of
fallback ("failing that `x`", "otherwise → x"), stays a step (`spec.otherwise_opening`): in a ship's log
written as a chat export, a lesson plan, a lab protocol and a podcast run sheet."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.otherwise_opening import otherwise_opening
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


_KINDS = [
    # a ship's log kept in a group chat
    ("14/03/2026, 06:1{n} - Mate: {t}\n", ("1) read-wind at the mast, giving wind_speed",
                                            "2) if the wind_speed is over 25 → reef-sails", "3) {other} hoist-sails",
                                            "4) log-watch"), ("read-wind", "reef-sails", "hoist-sails", "log-watch")),
    # a lesson plan jotted as a list
    ("{t}\n", ("1) mark-quiz for 9B, giving score", "2) if the score is below 50 → reteach-topic",
               "3) {other} start-decimals", "4) set-homework"),
     ("mark-quiz", "reteach-topic", "start-decimals", "set-homework")),
    # a lab protocol with a blank line between steps
    ("\n{t}\n", ("1) read-od of the culture, giving od", "2) if the od is under 0.4 → grow-more",
                 "3) {other} harvest-cells", "4) log-run"), ("read-od", "grow-more", "harvest-cells", "log-run")),
    # a podcast run sheet
    ("[10:0{n}] Host: {t}\n", ("1) check-levels, giving noise_db", "2) if the noise_db is above 40 → fix-mics",
                               "3) {other} start-recording", "4) upload-episode"),
     ("check-levels", "fix-mics", "start-recording", "upload-episode")),
]


@pytest.mark.parametrize("other", ["failing that", "failing that →", "Failing that:", "else →", "if not,"])
@pytest.mark.parametrize(("shape", "items", "skills"), _KINDS)
def test_an_otherwise_word_at_a_steps_opening_keeps_it_a_step_and_the_other_branch(
        shape: str, items: tuple[str, ...], skills: tuple[str, ...], other: str) -> None:
    text = "".join(shape.format(n=i, t=item.format(other=other)) for i, item in enumerate(items))
    spec = _read(text, *skills)
    assert len(spec.steps) == 4
    assert spec.steps[1].when is not None
    assert spec.steps[2].otherwise_where is not None and spec.steps[2].otherwise_of in (None, "step-2")


@pytest.mark.parametrize("other", ["otherwise", "if not"])
@pytest.mark.parametrize(("shape", "items", "skills"), _KINDS)
def test_an_otherwise_word_with_no_mark_after_it_keeps_the_step_and_says_so(
        shape: str, items: tuple[str, ...], skills: tuple[str, ...], other: str) -> None:
    text = "".join(shape.format(n=i, t=item.format(other=other)) for i, item in enumerate(items))
    spec = _read(text, *skills)
    assert len(spec.steps) == 4
    third = spec.steps[2]
    assert third.otherwise_where is not None or any(w.line == int(third.where.rpartition(':')[2]) for w in spec.warnings)


@pytest.mark.parametrize(("text", "end"), [
    ("3) failing that `x`", len("3) failing that")),
    ("[10:02] Host: 3) otherwise → x", len("[10:02] Host: 3) otherwise")),
    ("- else `x`", len("- else")),
])
def test_the_otherwise_words_at_the_opening_are_found_after_markers(text: str, end: int) -> None:
    assert otherwise_opening(text) == end


@pytest.mark.parametrize("text", ["`fetch-api`, failing that `use-cache`", "3) failing that use `x`",
                                  "3) otherwise-named-skill runs"])
def test_a_fallback_said_after_the_opening_is_not_an_otherwise_opening(text: str) -> None:
    assert otherwise_opening(text) is None


def test_a_fallback_in_the_same_line_as_its_step_stays_the_fallback() -> None:
    spec = _read("Rates\n\n1) `fetch-api` for rates, failing that `use-cache`\n2) `send-it`\n",
                 "fetch-api", "use-cache", "send-it")
    assert len(spec.steps) == 2
