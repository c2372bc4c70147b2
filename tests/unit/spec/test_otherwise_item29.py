"""A list item whose sub-bullets are "if ...: **a**" / "otherwise just **b**" (`spec.otherwise_item29`):
a README checklist, a runbook, a support macro read as a step per branch; a failure case (a fallback)
and a list of cases with no "otherwise" are not a choice."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.blocks import Bullet
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.otherwise_item29 import case_branches
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "build-wheel", "upload-pypi", "upload-testpypi", "count-errors", "open-incident", "post-green",
    "read-ticket", "refund-card", "store-credit", "fetch-api", "use-cache")])


def _spec(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "README.md", "markdown", _VOCAB)


def _skills(spec: WorkflowSpec) -> list[str]:
    return [(s.skill or "").strip("`*") or next((m.text for m in s.mentions if m.text in _VOCAB.skills), "")
            for s in spec.steps]


README = """# Releasing

## Checklist

- [ ] **1. Build.** Run `build-wheel` on the tag; it gives `version` and `prerelease`.
- [ ] **2. Upload.**
      - if step 1 says prerelease is true: push with **upload-testpypi**, passing the version.
        It is slow, 5 minute timeout.
      - otherwise just **upload-pypi** with the version. Retry it twice.
"""


def test_a_readme_checklist_whose_sub_bullets_are_if_and_otherwise() -> None:
    spec = _spec(README)
    assert _skills(spec) == ["build-wheel", "upload-testpypi", "upload-pypi"]
    test, real = spec.steps[1], spec.steps[2]
    assert test.when is not None and "prerelease" in test.when
    assert real.otherwise_of == test.id
    assert any("5 minute" in t.text for t in test.texts)
    assert any("Retry it twice" in t.text for t in real.texts) and not any("5 minute" in t.text for t in real.texts)


RUNBOOK = """# Error budget check

1. Count: `count-errors` for the last hour, gives `failed`.
2. React
   - when failed > 10, **open-incident** with the count
   - else simply **post-green** to #status
"""


def test_a_runbook_whose_case_compares_a_count_of_failures() -> None:
    spec = _spec(RUNBOOK)
    assert _skills(spec) == ["count-errors", "open-incident", "post-green"]
    assert spec.steps[1].when is not None and "10" in spec.steps[1].when
    assert spec.steps[2].otherwise_of == spec.steps[1].id


def test_a_support_macro_item_read_directly() -> None:
    item = Bullet(line=1, text="Refund", children=(
        Bullet(line=2, text="note: check the order first"),
        Bullet(line=3, text="if the customer is gold: `refund-card` the amount"),
        Bullet(line=4, text="otherwise, just `store-credit` it"),
    ))
    found = case_branches(item)
    assert [(b.line, label) for b, label, _ in found] == [(3, "the customer is gold"), (4, "otherwise")]


def test_a_failure_case_is_a_fallback_not_a_branch() -> None:
    item = Bullet(line=1, text="Fetch", children=(
        Bullet(line=2, text="if the API is down: use `use-cache`"),
        Bullet(line=3, text="otherwise `fetch-api` as usual"),
    ))
    assert case_branches(item) == []
    spec = _spec("# x\n\n1. Fetch\n   - if it fails: `use-cache` instead\n   - otherwise just `fetch-api`\n")
    assert "use-cache" not in _skills(spec)


def test_cases_with_no_otherwise_or_no_skill_are_no_choice() -> None:
    two_ifs = Bullet(line=1, text="x", children=(
        Bullet(line=2, text="if gold: `refund-card`"), Bullet(line=3, text="if silver: `store-credit`")))
    no_skill = Bullet(line=1, text="x", children=(
        Bullet(line=2, text="if gold: refund it by hand"), Bullet(line=3, text="otherwise ignore it")))
    assert case_branches(two_ifs) == [] and case_branches(no_skill) == []
