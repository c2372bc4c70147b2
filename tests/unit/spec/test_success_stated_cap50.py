"""A document that states the run's success check in very many sentences (a pasted log, a file repeated
into itself): each such sentence is read against every step, so past `whole_net._MAX_STATED` of them the
rest are not read, and one warning says how many and from which line (r50 probe: holdout32 200 repeated
to 1 MB took minutes). A few such sentences are all read, with no such warning."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.whole_net import _MAX_STATED

HEAD = ("# Night shift\n\n## Steps\n\n### Step 1: Pack\n- Skill: `pack-export`\n- Output: `sealed`\n\n"
        "### Step 2: Post\n- Skill: `post-note`\n- Output: `posted`\n\n")


def _cap_warnings(spec: object) -> list[tuple[int | None, str]]:
    return [(w.line, w.message) for w in spec.warnings  # type: ignore[attr-defined]
            if "past" in w.message and "not read: state it once" in w.message]


def test_sentences_past_the_cap_that_state_a_check_are_said_once_with_their_count_and_first_line() -> None:
    n = _MAX_STATED + 7
    body = "".join(f"We're done when Pack comes back sealed = true ({i}).\n\n" for i in range(n))
    spec = parse_spec_text(HEAD + body, "shift.md", "markdown")
    warned = _cap_warnings(spec)
    assert len(warned) == 1
    line, message = warned[0]
    assert message.startswith("7 more sentences")
    assert line == 13 + 2 * _MAX_STATED  # the first sentence past the cap (blank lines between them)


def test_a_different_phrasing_past_the_cap_is_counted_too() -> None:
    body = "".join(f"The shift is finished once posted is true, round {i}.\n" for i in range(_MAX_STATED + 3))
    spec = parse_spec_text(HEAD + body, "shift.txt", "markdown")
    assert [m for _, m in _cap_warnings(spec)] and _cap_warnings(spec)[0][1].startswith("3 more sentences")


def test_a_few_sentences_stating_the_check_are_all_read_and_nothing_is_said_of_a_cap() -> None:
    body = "We're done when Pack comes back sealed = true.\n\nThe shift is finished once posted is true.\n"
    spec = parse_spec_text(HEAD + body, "shift.md", "markdown")
    assert not _cap_warnings(spec)
    assert [w for w in spec.warnings if w.code == "spec.success" and w.line in (13, 15)]
