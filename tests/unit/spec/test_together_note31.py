"""Steps said to start together away from either step's own words (`spec.together_note31`): an on-call
runbook's intro, a README's HTML comment, a lab protocol's footer, a chat export's message; and
sentences that look alike but are no start (a negation, "at once" for "right away", results combined,
a join, quantities), and a note whose later step reads the first one's output (it keeps its wait)."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("scan-disk", "export-users", "merge-report", "mail-report", "thaw-samples", "label-tubes", "spin-down",
          "build-docs", "lint-code", "publish-site")


def _spec(text: str, path: str = "doc.md") -> Any:
    return parse_spec_text(text, path, "markdown", Vocabulary.of([(s, None) for s in SKILLS]))


def _by_skill(spec: Any) -> dict[str, Any]:
    out = {}
    for s in spec.steps:
        name = s.skill or next((m.text for m in s.mentions if m.text in SKILLS), s.name)
        out[name] = s
    return out


def _starts_with(step: Any) -> str | None:
    return step.starts_with if not step.depends_on else None


def _warned(spec: Any, line: int) -> list[str]:
    return [w.message for w in spec.warnings if w.line == line]


RUNBOOK = """\
# Nightly host audit (on-call runbook)

Do 1 and 2 at once, the scan is slow.

1. Scan the disk with `scan-disk` for the host.
2. Export the users with `export-users` for the host.
3. Merge both with `merge-report`.
4. Mail it with `mail-report`.
"""


def test_a_runbook_intro_starts_two_numbered_steps_together() -> None:
    spec = _spec(RUNBOOK)
    steps = _by_skill(spec)
    assert _starts_with(steps["export-users"]) == steps["scan-disk"].id
    assert steps["merge-report"].starts_with is None
    assert any("starts together" in m for m in _warned(spec, 3))


README = """\
# docs pipeline

1. Lint with `lint-code`.
2. Build with `build-docs`.
3. Publish with `publish-site`.

<!-- the lint and the build don't depend on each other: run them side by side -->
"""


def test_a_readme_comment_names_steps_by_a_word_of_their_names() -> None:
    spec = _spec(README)
    steps = _by_skill(spec)
    assert _starts_with(steps["build-docs"]) == steps["lint-code"].id
    assert steps["publish-site"].starts_with is None
    assert any("starts together" in m for m in _warned(spec, 7))


PROTOCOL = """\
Protocol 7 - plate prep

Step 1: thaw the plate (`thaw-samples`).
Step 2: label the tubes (`label-tubes`).
Step 3: spin it down (`spin-down`).

Note: steps 1 and 2 can run in parallel.
"""


def test_a_lab_protocol_footer_note() -> None:
    steps = _by_skill(_spec(PROTOCOL))
    assert _starts_with(steps["label-tubes"]) == steps["thaw-samples"].id
    assert steps["spin-down"].starts_with is None


CHAT = """\
[09:12] dana: ok plan for tonight
[09:12] dana: 1. `scan-disk` on the host
[09:13] dana: 2. `export-users` for the same host
[09:13] dana: 3. `merge-report` once both are in
[09:14] sam: kick off the scan and the export together, they're unrelated
"""


def test_a_chat_message_after_the_steps() -> None:
    spec = _spec(CHAT)
    steps = _by_skill(spec)
    assert _starts_with(steps["export-users"]) == steps["scan-disk"].id
    assert steps["merge-report"].starts_with is None
    assert any("starts together" in m for m in _warned(spec, 5))


def _with_note(note: str) -> dict[str, Any]:
    return _by_skill(_spec(RUNBOOK.replace("Do 1 and 2 at once, the scan is slow.", note)))


def test_a_negation_is_no_start() -> None:
    steps = _with_note("Do not run 1 and 2 at the same time.")
    assert steps["export-users"].starts_with is None
    steps = _with_note("Never kick off the scan and the export together.")
    assert steps["export-users"].starts_with is None


def test_at_once_for_right_away_is_no_start() -> None:
    steps = _with_note("When the report is out, then email them at once.")
    assert all(s.starts_with is None for s in steps.values())


def test_results_combined_or_joined_are_no_start() -> None:
    for note in ("Merge 1 and 2 together.", "Once 1 and 2 are done together, carry on.",
                 "Add 2 and 3 cups at once.", "Retry 1 and 2 at once."):
        assert all(s.starts_with is None for s in _with_note(note).values()), note


def test_a_later_step_reading_the_first_keeps_its_wait() -> None:
    text = """\
# audit

Do 1 and 2 at once.

1. Scan the disk with `scan-disk` for the host.
   - Output: rows
2. Export the users with `export-users`, host from the rows of step 1.
"""
    spec = _spec(text)
    steps = _by_skill(spec)
    assert steps["export-users"].starts_with is None
    assert any("keeps waiting" in m for m in _warned(spec, 3))
